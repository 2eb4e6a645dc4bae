/// The three-way rule for one field, shared by sync and by `--import`: compared with the version
/// both sides last agreed on (`base`), a field changed on one side takes that side's value;
/// changed on both to different values, the later change wins (the other side on a tie, so that
/// every replica decides alike); with no base, both count as changed.
enum ThreeWay {
    enum Side: Equatable, Sendable {
        case local
        case other
    }

    static func pick<Value: Equatable>(
        base: Value?, local: Value, other: Value, localTime: Clock, otherTime: Clock
    ) -> Side {
        if local == other { return .local }
        if let base {
            if local == base { return .other }
            if other == base { return .local }
        }
        return localTime > otherTime ? .local : .other
    }

    /// A field merged element by element (`TaskField.Merge.elementwise`): the other side's
    /// elements in its order, then what this side added, less what either side took away since
    /// `base`. Nil for a field that does not merge so.
    static func mergeElements(base: FieldValue, local: FieldValue, other: FieldValue) -> FieldValue? {
        guard case .tags(let base) = base, case .tags(let local) = local, case .tags(let other) = other else { return nil }
        let takenAway = Set(base).subtracting(local).union(Set(base).subtracting(other))
        var merged = other.filter { !takenAway.contains($0) }
        for element in local where !takenAway.contains(element) && !merged.contains(element) { merged.append(element) }
        return .tags(merged)
    }
}
