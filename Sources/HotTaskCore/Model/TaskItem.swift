import Foundation

/// One task. `id` never changes; everything else may.
public struct TaskItem: Equatable, Hashable, Sendable, Identifiable {
    public var id: UUID
    public var caption: String
    public var section: Section
    public var completed: Bool
    public var createdAt: Date
    /// Set while `completed` is true, nil otherwise.
    public var completedAt: Date?
    public var modifiedAt: Date

    public init(
        id: UUID = UUID(),
        caption: String,
        section: Section = .priority,
        completed: Bool = false,
        createdAt: Date,
        completedAt: Date? = nil,
        modifiedAt: Date? = nil
    ) {
        self.id = id
        self.caption = caption
        self.section = section
        self.completed = completed
        self.createdAt = createdAt
        self.completedAt = completed ? (completedAt ?? createdAt) : nil
        self.modifiedAt = modifiedAt ?? createdAt
    }
}
