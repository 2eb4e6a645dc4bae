/// The two sections of the list, in display order.
public enum Section: String, CaseIterable, Sendable, Hashable {
    /// "Top Priority": where new tasks go.
    case priority
    /// "Bonus": nice to have.
    case bonus

    /// The heading a person reads.
    public var title: String {
        switch self {
        case .priority: "Top Priority"
        case .bonus: "Bonus"
        }
    }

    /// The section a "move" sends a task to.
    public var other: Section {
        self == .priority ? .bonus : .priority
    }
}
