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
}
