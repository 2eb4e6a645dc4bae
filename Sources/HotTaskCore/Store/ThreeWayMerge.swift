import Foundation

extension TaskList {
    /// Combines our changes and theirs, both made since `base`, task by task (by id).
    ///
    /// - A task changed on one side only takes that side's version; changed on both, the newer
    ///   `modifiedAt` wins (ours on a tie).
    /// - A task deleted on one side stays deleted unless the other side changed it: a change is
    ///   never lost to a delete.
    /// - Order follows ours; a task that only they added or moved to another section goes
    ///   after its predecessor in their list, or on top of its section below the tasks we
    ///   just added there (ours are the newest).
    public static func merge(base: TaskList, ours: TaskList, theirs: TaskList) -> TaskList {
        if ours == base || ours == theirs { return theirs }
        if theirs == base { return ours }
        let baseByID = Dictionary(base.all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByID = Dictionary(theirs.all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oursByID = Dictionary(ours.all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        func chosen(_ id: UUID) -> (task: TaskItem, fromTheirs: Bool)? {
            let original = baseByID[id]
            switch (oursByID[id], theirsByID[id]) {
            case (nil, nil):
                return nil
            case (let mine?, nil):
                // Absent from theirs: they deleted it (keep only if we changed it) or we added it.
                return original == nil || mine != original ? (mine, false) : nil
            case (nil, let other?):
                return original == nil || other != original ? (other, true) : nil
            case (let mine?, let other?):
                if mine == other || other == original { return (mine, false) }
                if mine == original { return (other, true) }
                return other.modifiedAt > mine.modifiedAt ? (other, true) : (mine, false)
            }
        }

        // Ours first, in our order; remember where each task landed.
        var kept: [Section: [TaskItem]] = [.priority: [], .bonus: []]
        var keptSection: [UUID: Section] = [:]
        for task in ours.all {
            guard let (version, fromTheirs) = chosen(task.id) else { continue }
            // A task they moved to the other section is placed by their order below.
            if fromTheirs && version.section != task.section { continue }
            kept[version.section, default: []].append(version)
            keptSection[task.id] = version.section
        }
        // Then theirs-only tasks, grouped behind the task they follow in their list. One pass,
        // so that a large external import merges in linear time.
        var onTop: [Section: [TaskItem]] = [:]
        var after: [UUID: [TaskItem]] = [:]
        var groupOf: [UUID: (anchor: UUID?, section: Section)] = [:]
        var previousInTheirs: UUID?
        for task in theirs.all {
            defer { previousInTheirs = task.id }
            guard keptSection[task.id] == nil, groupOf[task.id] == nil, let (version, _) = chosen(task.id) else { continue }
            var anchor: UUID?
            if let previous = previousInTheirs {
                if keptSection[previous] == version.section {
                    anchor = previous
                } else if let group = groupOf[previous], group.section == version.section {
                    anchor = group.anchor
                }
            }
            if let anchor { after[anchor, default: []].append(version) } else { onTop[version.section, default: []].append(version) }
            groupOf[task.id] = (anchor, version.section)
        }
        var result = TaskList()
        for section in Section.allCases {
            let ordered = kept[section, default: []]
            // Tasks we just added stay above their additions on top: ours are the newest.
            let ourNewOnTop = ordered.prefix { baseByID[$0.id] == nil && theirsByID[$0.id] == nil }.count
            for (index, task) in ordered.enumerated() {
                if index == ourNewOnTop { onTop[section, default: []].forEach { result.append($0) } }
                result.append(task)
                after[task.id, default: []].forEach { result.append($0) }
            }
            if ordered.count == ourNewOnTop { onTop[section, default: []].forEach { result.append($0) } }
        }
        return result
    }
}
