/// Tasks in the order a reader made them: the first segment's straight into an array with room
/// made for the whole array, each other segment's in chunks of their own (`segmentedArray`),
/// moved onto the first at the end. Every task is moved, never copied, and its memory touched
/// once where it ends up plus once in a chunk for the segments read on the other thread (tasks
/// all read into chunks, then moved into an array of exactly their count, touched twice their
/// memory: page faults, a tenth of a Taskwarrior import on a virtual machine).
struct ReadTasks {
    private var array: [TaskItem] = []
    private var chunks: [MovableTasks] = []
    private let chunked: Bool
    private(set) var count = 0

    /// Straight into an array with room for `room` tasks (untouched room costs no memory).
    init(room: Int) {
        chunked = false
        array.reserveCapacity(room)
    }

    /// In chunks, for a segment read on the other thread.
    init() {
        chunked = true
    }

    mutating func append(_ task: consuming TaskItem) {
        count += 1
        guard chunked else { return array.append(task) }
        if chunks.last?.isFull ?? true { chunks.append(MovableTasks()) }
        chunks[chunks.count - 1].append(task)
    }

    /// The array, handed over (not shared: room made in a shared one would copy it).
    mutating func takeArray() -> [TaskItem] {
        var taken: [TaskItem] = []
        swap(&taken, &array)
        count = 0
        return taken
    }

    /// Moves the tasks of `later` onto the end of these, each chunk freed once moved: no task
    /// is ever held twice.
    mutating func append(moving later: consuming ReadTasks) {
        array.reserveCapacity(count + later.count)
        array.append(contentsOf: later.array)
        for chunk in later.chunks { chunk.move(into: &array) }
        count += later.count
    }

    /// A few thousand tasks in memory of their own, moved out rather than copied: copying a
    /// task retains each of its strings and boxes, and freeing the copy releases them again
    /// (joining the second half of 100,000 tasks was about 3% of reading them).
    private final class MovableTasks {
        private static let capacity = 4096
        private var base: UnsafeMutablePointer<TaskItem>? = .allocate(capacity: capacity)
        private var count = 0

        var isFull: Bool { count == Self.capacity }

        func append(_ task: consuming TaskItem) {
            (base! + count).initialize(to: task)
            count += 1
        }

        /// Appends its tasks to `tasks`, in order, and frees its memory.
        func move(into tasks: inout [TaskItem]) {
            guard let base else { return }
            for at in 0..<count { tasks.append((base + at).move()) }
            base.deallocate()
            self.base = nil
            count = 0
        }

        deinit {
            base?.deinitialize(count: count)
            base?.deallocate()
        }
    }
}
