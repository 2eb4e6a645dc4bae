import FoundationEssentials
import Glibc

/// The decisions of one sync round, made under the store's lock from the list as it is, the
/// base and what the server changed: the local changes (one logged record), the writes to send,
/// and the base entries now agreed.
struct SyncPlan {
    let list: TaskList
    let base: SyncBase
    let remote: [UUID: SyncEngine.Remote]
    let now: Date
    let collection: CalendarCollection
    /// What an import of an .ics file kept of its tasks (`CarriedFields`): a task new to the
    /// server goes up as its file had it, UID included.
    let carried: CarriedFields

    var changes: [TaskChange] = []
    var pushes: [SyncEngine.Push] = []
    /// Base entries now agreed on, by key.
    var agreed: [String: SyncBase.Entry] = [:]
    /// Base entries to drop (the task is gone on both sides, or left alone there).
    var forgotten = Set<String>()
    var counts = SyncReport()

    /// The list as the changes so far leave it (to place tasks among their neighbours).
    var working: TaskList
    /// Tasks to place by a remote sort order, after every other change.
    var placements: [Placement] = []
    /// Writes waiting for their sort order and calendar text.
    var pending: [UUID: PendingWrite] = [:]

    struct Placement {
        var id: UUID
        var section: Section
        var sortOrder: Int
        /// A task new here, added when placed.
        var adding: TaskItem?
    }

    struct PendingWrite {
        var href: String
        var etag: String?
        var isNew: Bool
        var uid: String
        var fields: SharedFields
        /// The local order won (or the task is new): its sort order follows its place here.
        var followsLocalOrder: Bool
        var times: FieldClocks
        var created: Date
        var calendar: ICalComponent?
        /// The href in the calendar of the list it left (a move between lists), deleted after.
        var movedFrom: String? = nil
    }

    init(
        list: TaskList, base: SyncBase, remote: [UUID: SyncEngine.Remote], now: Date, collection: CalendarCollection,
        carried: CarriedFields = CarriedFields()
    ) {
        // decide(_:) and the placing look tasks up by id once per task.
        let list = list.indexedByID()
        self.list = list
        self.base = base
        self.remote = remote
        self.now = now
        self.collection = collection
        self.carried = carried
        working = list
    }

    mutating func build() {
        var ids = Set(list.all.map(\.id))
        ids.formUnion(base.entries.keys.compactMap(UUID.init(uuidString:)))
        ids.formUnion(remote.keys)
        for (_, id) in ids.map({ ($0.uuidString, $0) }).sorted(by: { $0.0 < $1.0 }) { decide(id) }
        place()
        finishWrites()
        finishMoves()
    }

    // MARK: Deciding, task by task

    private mutating func decide(_ id: UUID) {
        let key = id.uuidString.lowercased()
        let entry = base.entries[key]
        var local = list.task(withID: id)
        switch remote[id] {
        case .ignored?:
            // Cancelled or no longer a task on the other side: it leaves this list unless it
            // was changed here since (then it stays here, unsynced), and the server's object is
            // left as it is.
            guard let entry else { return }
            if let local, changedHere(local, since: entry) { return }
            forgotten.insert(key)
            if let local { delete(local) }
        case .removed?:
            guard let entry else { return }
            if let local, changedHere(local, since: entry) {
                // An edit beats a delete: the task goes back to the server as it is here.
                write(local, entry: entry, href: entry.href, etag: nil, isNew: true, calendar: entry.calendar)
            } else {
                forgotten.insert(key)
                if let local { delete(local) }
            }
        case .changed(let todo, let href, let etag)?:
            if let entry, let task = local, let there = calendarList(href), there != calendarList(entry.href), task.list != there {
                // Moved to another calendar there (a phone's move): the same task moves here.
                var fields = TaskFields()
                fields[.list] = .list(there)
                apply(.set(task.id, fields, was: fields.values(in: task)))
                local?.list = there
                counts.pulled += 1
            }
            defer {
                // The copy in the calendar it left goes, should the phone have left it there.
                if let entry, href != entry.href, calendarList(href) != calendarList(entry.href) { agreed[key]?.movedFrom = entry.href }
            }
            if local == nil, let tombstone = list.deleted[id] {
                deletedHere(tombstone, todo: todo, href: href, etag: etag, entry: entry)
            } else if let entry, todo.fields.same(entry.fields, order: local != nil) {
                // Only its ETag moved (our own write, or a property HotTask does not read; for a
                // task deleted here, a new sort order is no edit that should bring it back).
                var refreshed = entry
                refreshed.etag = etag
                refreshed.tentative = nil
                refreshed.href = href
                refreshed.calendar = todo.calendar.text
                agreed[key] = refreshed
                unchangedThere(id, local: local, entry: refreshed)
            } else if let local, entry == nil, todo.fields.same(SharedFields(local), order: false) {
                // The same task on both sides with no base (our own write whose answer was lost,
                // or both sides imported it): agreed as it is.
                agreed[key] = agreedEntry(for: todo, id: id, href: href, etag: etag, orderKey: local.order.text)
            } else if let local {
                merge(local, with: todo, href: href, etag: etag, entry: entry)
            } else {
                // New there, or edited there after a delete here (an edit beats a delete).
                pull(todo, id: id, href: href, etag: etag)
            }
        case nil:
            if let entry, entry.isTentative {
                notHeardBack(id, local: local, entry: entry)
            } else if let entry, let (todo, upgraded) = Self.readingUnreadFields(entry) {
                // Agreed by a HotTask that did not read a note or tags: the server's copy as agreed
                // holds them (a phone's DESCRIPTION): taken here as changed there.
                if let local, let todo {
                    merge(local, with: todo, href: entry.href, etag: entry.etag, entry: entry)
                } else {
                    agreed[key] = upgraded
                    unchangedThere(id, local: local, entry: upgraded)
                }
            } else if let entry {
                unchangedThere(id, local: local, entry: entry)
            } else if let local {
                create(local)
            }
        }
    }

    /// For a base entry written before a field HotTask now reads (`TaskField.oldBasesMean`: a
    /// note, tags): the server's copy as agreed, when it holds a value for such a field (to be
    /// merged as a change there), and the entry knowing those fields. Nil for an entry that
    /// knows every field, or whose copy does not read.
    private static func readingUnreadFields(_ entry: SyncBase.Entry) -> (todo: RemoteTodo?, upgraded: SyncBase.Entry)? {
        let unread = TaskField.shared.filter { $0.oldBasesMean != nil && entry.agreed[$0] == nil }
        guard !unread.isEmpty, let todo = TodoMapping.read(entry.calendar).todo else { return nil }
        var upgraded = entry
        for field in unread { upgraded.agreed[field] = field.oldBasesMean }
        let holdsSome = unread.contains { field in todo.fields[field].map { !field.isUnset($0) } ?? false }
        return (holdsSome ? todo : nil, upgraded)
    }

    /// A task the last sync sent without hearing back, which the server does not show: sent
    /// again (`If-None-Match`: a copy that did arrive answers 412, and the next round merges
    /// it); deleted here since, it is deleted there too, in case it arrived.
    private mutating func notHeardBack(_ id: UUID, local: TaskItem?, entry: SyncBase.Entry) {
        if let local {
            write(local, entry: entry, href: entry.href, etag: nil, isNew: true, calendar: entry.calendar)
        } else {
            pushes.append(SyncEngine.Push(id: id, href: entry.href, etag: nil, entry: nil, isNew: false, caption: entry.caption))
        }
    }

    /// The server has a task deleted here (it has a tombstone), whatever the base says: a sync
    /// cut short may never have recorded the write. It is deleted there too, unless the server
    /// changed a field after the delete here (the times of the changes themselves compared,
    /// field by field): then it comes back as it was deleted, with the server's changes merged.
    private mutating func deletedHere(_ tombstone: Tombstone, todo: RemoteTodo, href: String, etag: String?, entry: SyncBase.Entry?) {
        let there = todo.fields
        let times = todo.fieldTimes
        let changedAfterTheDelete = TaskField.shared.contains { field in
            let known = entry?.base(field) ?? field.value(of: tombstone.task)
            return there[field] != known && times[field] > tombstone.clock
        }
        guard changedAfterTheDelete else {
            pushes.append(
                SyncEngine.Push(id: tombstone.task.id, href: href, etag: etag, entry: nil, isNew: false, caption: tombstone.task.caption))
            return
        }
        apply(.add(tombstone.task))
        merge(tombstone.task, with: todo, href: href, etag: etag, entry: entry)
        counts.pulled += 1
    }

    /// The server's copy is the agreed one: send what changed here, if anything.
    private mutating func unchangedThere(_ id: UUID, local: TaskItem?, entry: SyncBase.Entry) {
        guard let local else {
            pushes.append(SyncEngine.Push(id: id, href: entry.href, etag: entry.etag, entry: nil, isNew: false, caption: entry.caption))
            return
        }
        if changedHere(local, since: entry) {
            write(local, entry: entry, href: entry.href, etag: entry.etag, isNew: false, calendar: entry.calendar)
        }
    }

    private func changedHere(_ task: TaskItem, since entry: SyncBase.Entry) -> Bool {
        task.order.text != entry.orderKey || movedHere(task, from: entry.href)
            || TaskField.shared.contains { field in
                let value = field.value(of: task)
                // A field the base does not know (due dates in a base from before them): a value here is new.
                return entry.base(field).map { $0 != value } ?? !field.isUnset(value)
            }
    }

    private mutating func delete(_ task: TaskItem) {
        apply(.delete(task))
        counts.deletedHere += 1
        counts.deletedHereCaptions.append(CaptionRule.shown(task.caption))
    }

    private mutating func create(_ task: TaskItem) {
        let from = carried.isEmpty ? nil : carried[task.id, .iCalendar].flatMap { ICalendarCarry.calendar(from: $0, for: task) }
        let uid = from?.uid ?? TodoMapping.uid(for: task.id)
        pending[task.id] = PendingWrite(
            href: collection.href(forUID: uid, inList: list.lists.name(of: task.list)), etag: nil, isNew: true, uid: uid,
            fields: SharedFields(task, keepingUnreadFrom: from.flatMap { TodoMapping.read($0.calendar).todo?.fields }), followsLocalOrder: true,
            times: task.clocks, created: task.createdAt, calendar: from?.calendar)
    }

    /// When each field of `task` got its value: the agreed time for a field unchanged since the
    /// last sync (not when this copy last stamped it), the task's own stamp for one changed here.
    private func editTimes(_ task: TaskItem, since entry: SyncBase.Entry?) -> FieldClocks {
        guard let entry else { return task.clocks }
        let agreed = entry.fieldClocks
        var times = task.clocks
        for field in TaskField.shared where entry.base(field) == field.value(of: task) { times[field] = agreed[field] }
        if task.order.text == entry.orderKey { times[.order] = agreed[.order] }
        return times
    }

    /// A task changed here only: written with its fields, the others' times kept from the base.
    /// A saved copy that no longer parses is named and the task not written: written from
    /// nothing, it would replace the server's object and drop what HotTask does not model.
    private mutating func write(_ task: TaskItem, entry: SyncBase.Entry, href: String, etag: String?, isNew: Bool, calendar: String) {
        var object: ICalComponent?
        if !calendar.isEmpty {
            object = (try? ICalendar.parse(calendar))?.first { $0.name == "VCALENDAR" }
            guard object != nil else {
                counts.problems.append(
                    "\"\(CaptionRule.shown(task.caption))\" was not sent: the copy of it the last sync saved is damaged; hottask --sync --resync takes the server's copy again and keeps both sides' tasks"
                )
                return
            }
        }
        let fields = SharedFields(task, sortOrder: entry.sortOrder)
        var write = PendingWrite(
            href: href, etag: etag, isNew: isNew, uid: entry.uid, fields: fields, followsLocalOrder: task.order.text != entry.orderKey,
            times: editTimes(task, since: entry), created: task.createdAt, calendar: object, movedFrom: entry.movedFrom)
        moveIfMovedHere(&write, task: task, tentative: entry.isTentative)
        pending[task.id] = write
    }

    /// New on the server (or back after a delete here): added here where its sort order says.
    private mutating func pull(_ todo: RemoteTodo, id: UUID, href: String, etag: String?) {
        let fields = todo.fields
        var task = todo.task(id: id, createdAt: todo.created ?? todo.lastModified ?? now, modifiedAt: todo.lastModified ?? now)
        task.list = calendarList(href) ?? ""
        placements.append(Placement(id: id, section: fields.section, sortOrder: effectiveSortOrder(todo), adding: task))
        agreed[id.uuidString.lowercased()] = agreedEntry(for: todo, id: id, href: href, etag: etag, orderKey: nil)
        counts.pulled += 1
    }

    /// Changed there, and maybe here too: field by field, three ways.
    private mutating func merge(_ local: TaskItem, with todo: RemoteTodo, href: String, etag: String?, entry: SyncBase.Entry?) {
        let other = todo.fields
        let otherTimes = todo.fieldTimes
        let localTimes = editTimes(local, since: entry)
        let movedHere = entry.map { local.order.text != $0.orderKey } ?? true
        let movedThere = entry.map { other.sortOrder != $0.sortOrder } ?? true
        let orderSide: ThreeWay.Side =
            !movedThere ? .local : !movedHere ? .other : (localTimes[.order] > otherTimes[.order] ? .local : .other)

        var merged = other
        var times = otherTimes
        for field in TaskField.shared {
            let value = field.value(of: local)
            // Tags changed on both sides: what each added and took away, both.
            if field.merge == .elementwise, let base = entry?.base(field), let there = other[field], value != there, value != base,
                there != base, let both = ThreeWay.mergeElements(base: base, local: value, other: there)
            {
                merged[field] = both
                times[field] = max(localTimes[field], otherTimes[field])
                continue
            }
            guard let there = other[field],
                ThreeWay.pick(
                    base: entry?.base(field), local: value, other: there, localTime: localTimes[field], otherTime: otherTimes[field]) == .local
            else { continue }
            merged[field] = value
            if field == .completed { merged.completedAt = local.completedAt }
            times[field] = localTimes[field]
        }
        if orderSide == .local { times[.order] = localTimes[.order] }

        // Here: take the other side's fields where it won; the section goes with the place
        // (below), where its sort order puts it.
        var fields = TaskFields()
        for field in TaskField.shared where field != .section && merged[field] != field.value(of: local) {
            fields[field] = merged[field]
            if field == .completed { fields.completedAt = merged.completedAt }
        }
        if !fields.isEmpty { apply(.set(local.id, fields, was: fields.values(in: local))) }
        let key = local.id.uuidString.lowercased()
        if merged.section != local.section || orderSide == .other {
            placements.append(Placement(id: local.id, section: merged.section, sortOrder: effectiveSortOrder(todo)))
        }
        let changedHereToo = entry.map { changedHere(local, since: $0) } ?? true
        if !fields.isEmpty || merged.section != local.section || orderSide == .other { counts.pulled += 1 }
        if changedHereToo && entry != nil { counts.merged += 1 }

        // The server's version is agreed now; where this side won, a write follows.
        agreed[key] = agreedEntry(for: todo, id: local.id, href: href, etag: etag, orderKey: orderSide == .local && movedHere ? entry?.orderKey : nil)
        let differsThere = !merged.same(other, order: false) || (orderSide == .local && movedHere)
        if differsThere || self.movedHere(local, from: href) {
            var write = PendingWrite(
                href: href, etag: etag, isNew: false, uid: todo.uid, fields: merged, followsLocalOrder: orderSide == .local && movedHere,
                times: times, created: local.createdAt, calendar: todo.calendar, movedFrom: entry?.movedFrom)
            moveIfMovedHere(&write, task: local, tentative: false)
            pending[local.id] = write
        }
    }

    // MARK: Lists

    /// The list (as tasks store it) of the calendar `href` is in; nil for one calendar, which
    /// holds every list.
    func calendarList(_ href: String) -> String? { collection.listName(forHref: href).map { list.lists.stored(for: $0) } }

    /// `task` is in another list than the calendar of `href`: moved here since.
    func movedHere(_ task: TaskItem, from href: String) -> Bool {
        calendarList(href).map { $0 != task.list } ?? false
    }

    /// A write of a task moved to another list here goes to the calendar of its list, as a new
    /// member with the same UID; the one it leaves is deleted once that is written. After a move
    /// whose write was never heard back, the copy before it is the one surely there.
    private func moveIfMovedHere(_ write: inout PendingWrite, task: TaskItem, tentative: Bool) {
        guard movedHere(task, from: write.href) else { return }
        write.movedFrom = tentative ? write.movedFrom ?? write.href : write.href
        write.href = collection.href(forUID: write.uid, inList: list.lists.name(of: task.list))
        write.etag = nil
        write.isNew = true
    }

    /// The copies left in the calendar a task moved from, whose task is written no more this
    /// round: deleted (a move cut after its write, or a phone's move that left the copy).
    private mutating func finishMoves() {
        let writing = Set(pushes.map(\.id))
        var entries = base.entries
        entries.merge(agreed) { _, new in new }
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
            guard let from = entry.movedFrom, !forgotten.contains(key), let id = UUID(uuidString: key), !writing.contains(id) else { continue }
            pushes.append(SyncEngine.Push(id: id, href: from, etag: nil, entry: entry, isNew: false, movedFrom: from, putting: false))
        }
    }

    // MARK: Helpers

    /// The VTODO a calendar object's task is (not an overridden occurrence).
    static func masterTodo(_ calendar: ICalComponent) -> ICalComponent? {
        calendar.components.first { $0.name == "VTODO" && $0.first("RECURRENCE-ID") == nil }
    }

    mutating func apply(_ change: TaskChange) {
        changes.append(change)
        working.apply(change, clock: .zero, force: true)
    }

    /// The base entry for the server's version of a task; `orderKey` nil means its place here
    /// (`place` updates it when it moves).
    func agreedEntry(for todo: RemoteTodo, id: UUID, href: String, etag: String?, orderKey: String?) -> SyncBase.Entry {
        let key = orderKey ?? working.task(withID: id)?.order.text ?? ""
        return SyncBase.Entry(
            uid: todo.uid, href: href, etag: etag, fields: todo.fields, orderKey: key, clocks: StoreDocument.clockText(todo.fieldTimes),
            calendar: todo.calendar.text)
    }
}
