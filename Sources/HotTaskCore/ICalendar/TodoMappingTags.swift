import FoundationEssentials
import Glibc

/// A VTODO's CATEGORIES ↔ tags.
extension TodoMapping {
    /// The tags HotTask reads from a VTODO's CATEGORIES (every one of them: a list of
    /// comma-separated values each), the rule applied.
    static func readTags(_ todo: ICalComponent) -> [String] {
        var categories: [String] = []
        for property in todo.properties where property.name == "CATEGORIES" {
            categories += splitList(property.value).map(ICalendar.unescape)
        }
        return TagRule.cleanKeeping(categories).tags
    }

    /// A list value split at its commas (not at an escaped `\,`), each part still escaped.
    static func splitList(_ value: String) -> [String] {
        var parts: [String] = []
        var part = ""
        var escaping = false
        for character in value {
            if escaping {
                part.append(character)
                escaping = false
            } else if character == "\\" {
                part.append(character)
                escaping = true
            } else if character == "," {
                parts.append(part)
                part = ""
            } else {
                part.append(character)
            }
        }
        parts.append(part)
        return parts.filter { !$0.isEmpty }
    }

    /// CATEGORIES as `tags`: one property, at the place (and with the parameters) of the first
    /// there was; none for no tags.
    static func setTags(_ tags: [String], on todo: inout ICalComponent) {
        let value = tags.map(ICalendar.escape).joined(separator: ",")
        guard let first = todo.properties.firstIndex(where: { $0.name == "CATEGORIES" }) else {
            if !tags.isEmpty { todo.properties.append(ICalProperty(name: "CATEGORIES", value: value)) }
            return
        }
        var property = todo.properties[first]
        property.value = value
        todo.properties.removeAll { $0.name == "CATEGORIES" }
        if !tags.isEmpty { todo.properties.insert(property, at: min(first, todo.properties.count)) }
    }

}
