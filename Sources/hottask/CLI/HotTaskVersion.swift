/// HotTask's version, in one place.
enum HotTaskVersion {
    static let current = "0.1.0"
    /// What `--version` and `-V` print.
    static let line = "hottask \(current)"
}
