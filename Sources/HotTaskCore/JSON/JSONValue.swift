/// A parsed JSON document. Numbers keep their value as a Double; objects reject duplicate keys.
indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A short name of the kind of value, for messages ("expected a string, found a number").
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON text that could not be parsed, with where it went wrong.
struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    let message: String
    /// Byte offset from the start of the text (0-based).
    let offset: Int
    /// 1-based line and column (column counted in bytes).
    let line: Int
    let column: Int

    var description: String {
        "\(message) at line \(line), column \(column) (byte \(offset))"
    }
}
