import Glibc

/// How HotTask starts another program (the sync helper, its setup, a password command, the note
/// editor): `posix_spawn` with its file actions and attributes, made and freed together.
public final class ChildProcess {
    private var actions = posix_spawn_file_actions_t()
    private var attributes = posix_spawnattr_t()

    public init() {
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
    }

    deinit {
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
    }

    /// The child's `fd` is a copy of this process's `source`.
    public func copy(_ source: Int32, as fd: Int32) { posix_spawn_file_actions_adddup2(&actions, source, fd) }

    /// The child's `fd` is `path`, opened with `flags` (`/dev/null`).
    public func open(_ path: String, as fd: Int32, flags: Int32) { posix_spawn_file_actions_addopen(&actions, fd, path, flags, 0) }

    /// The child does not keep `fd`.
    public func close(_ fd: Int32) { posix_spawn_file_actions_addclose(&actions, fd) }

    /// The child starts with `signals` at their default action, whatever this process ignores;
    /// with none blocked when `unblocked`; in a process group of its own when `ownGroup`.
    public func defaultSignals(_ signals: [Int32], unblocked: Bool = true, ownGroup: Bool = false) {
        var flags = POSIX_SPAWN_SETSIGDEF | (unblocked ? POSIX_SPAWN_SETSIGMASK : 0)
        if ownGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in signals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        guard unblocked else { return }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
    }

    /// Starts `path` with `arguments` (its own name first) and `environment` (this process's
    /// when nil): the child's pid, and the errno that stopped it (0 when it started).
    public func start(_ path: String, _ arguments: [String], environment: [String: String]? = nil) -> (pid: pid_t, error: Int32) {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { (argv + (envp ?? [])).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned =
            envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) } ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        return (pid, spawned)
    }

    /// Waits for `pid` to end: its wait status.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }
}
