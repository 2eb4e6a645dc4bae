import FoundationEssentials
import Glibc

/// What a person types for a task, read one way wherever it is typed: the app's input row and
/// caption editor, `--add` and `--edit`. The caption rule first (`CaptionRule`), then `+word`
/// and `@word` are tags (`TagRule.takingTags`, unless the config's `plus_tags` is off), then a
/// `due:WORD` word is the due date (`DueWord`), read as of `now` in the zone `local`.
public enum TypedTaskRule {
    public struct Reading: Equatable, Sendable {
        public var caption: String
        public var tags: [String]
        public var due: DueDate?

        public init(caption: String, tags: [String], due: DueDate? = nil) {
            self.caption = caption
            self.tags = tags
            self.due = due
        }
    }

    /// `replacing`: the caption an edit replaces, whose length the edit may keep.
    public static func read(
        _ typed: String, takingTags: Bool, now: Date, local: ZoneInfo, replacing old: String? = nil
    ) throws(CaptionError) -> Reading {
        let clean: String
        if let old { clean = try CaptionRule.clean(typed, replacing: old) } else { clean = try CaptionRule.clean(typed) }
        let (text, tags) = takingTags ? TagRule.takingTags(from: clean) : (clean, [])
        let (caption, due) = DueWord.taken(from: text, now: now, local: local)
        return Reading(caption: caption, tags: tags, due: due)
    }
}
