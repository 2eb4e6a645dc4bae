import FoundationEssentials
import Glibc

/// A subtask's parent (issue 54) as Tasks.org, Nextcloud Tasks, jtx Board and Apple Reminders
/// write it: `RELATED-TO;RELTYPE=PARENT:<the parent's UID>`. A RELATED-TO without RELTYPE means
/// PARENT (RFC 5545 §3.2.15); one of another RELTYPE (CHILD, SIBLING…) is no parent and stays
/// as it came.
extension TodoMapping {
    /// The place and UID of the VTODO's first parent relation; nil for none.
    static func parentRelation(of todo: ICalComponent) -> (index: Int, uid: String)? {
        for (index, property) in todo.properties.enumerated() where property.name == "RELATED-TO" {
            let type = relationType(property.parameters) ?? "PARENT"
            let uid = property.text.trimmingBlanks()
            if type == "PARENT", !uid.isEmpty { return (index, uid) }
        }
        return nil
    }

    /// The parent's local id (`id(forUID:)`), as the store keeps it; nil for none.
    static func readParent(_ todo: ICalComponent) -> UUID? {
        parentRelation(of: todo).map { id(forUID: $0.uid) }
    }

    /// The parent written as HotTask holds it: the relation there is kept as it came when it
    /// names the same task; another parent replaces it (its parameters written as
    /// `RELTYPE=PARENT`), and none takes it away. `uid` is the parent's UID when known
    /// (else the one HotTask gives an id).
    static func setParent(_ parent: UUID?, uid: String? = nil, on todo: inout ICalComponent) {
        let relation = parentRelation(of: todo)
        guard relation.map({ id(forUID: $0.uid) }) != parent else { return }
        guard let parent else {
            if let relation { todo.properties.remove(at: relation.index) }
            return
        }
        let property = ICalProperty(name: "RELATED-TO", parameters: ";RELTYPE=PARENT", value: ICalendar.escape(uid ?? Self.uid(for: parent)))
        if let relation { todo.properties[relation.index] = property } else { todo.properties.append(property) }
    }

    /// RELTYPE's value in a property's parameters text (`;RELTYPE=PARENT`), in capitals.
    private static func relationType(_ parameters: String) -> String? {
        for parameter in parameters.split(separator: ";") {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingBlanks().uppercased() == "RELTYPE" else { continue }
            let isQuoteOrSpace: (Character) -> Bool = { $0 == "\"" || $0 == " " }
            return String(parts[1].drop(while: isQuoteOrSpace).reversed().drop(while: isQuoteOrSpace).reversed()).uppercased()
        }
        return nil
    }
}
