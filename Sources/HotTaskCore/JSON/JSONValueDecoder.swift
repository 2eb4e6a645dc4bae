import FoundationEssentials
import Glibc

/// Codable types read from `JSONParser`'s tree rather than through Foundation's `JSONDecoder`:
/// the sync state (`SyncBase`, 1.6 MB at 2,000 tasks, and the log's `SyncDelta`s) took 110 ms of
/// a sync with nothing to do that way (issue 53). What this cannot read exactly (a number past
/// 2^53, a float where an integer is asked) it refuses, and `decode` asks `JSONDecoder` then, so
/// it never refuses what `JSONDecoder` reads.
enum JSONValueDecoder {
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        if let value = try? decodeTree(type, from: bytes) { return value }
        return try JSONDecoder().decode(type, from: Data(bytes))
    }

    /// Through the tree alone.
    static func decodeTree<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        try Value(from: TreeDecoder(value: try JSONParser.parse(bytes), codingPath: []))
    }

    struct Mismatch: Error {}
}

/// A decoder over one value of the tree.
private struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw JSONValueDecoder.Mismatch() }
        return KeyedDecodingContainer(KeyedTree<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else { throw JSONValueDecoder.Mismatch() }
        return UnkeyedTree(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleTree(value: value, codingPath: codingPath) }
}

/// One value as the containers read it: a string, a boolean, an exact number, or a value of
/// another type read through its own `init(from:)`.
private enum TreeValue {
    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, codingPath: [any CodingKey]) throws -> T {
        if let primitive = try primitive(type, value) { return primitive }
        return try T(from: TreeDecoder(value: value, codingPath: codingPath))
    }

    /// The four kinds the sync state holds, or nil for another type. Any other kind asked of a
    /// single value is refused (`JSONDecoder` reads it then), never read through its own
    /// `init(from:)`, which would ask the same again.
    static func primitive<T>(_ type: T.Type, _ value: JSONValue) throws -> T? {
        // Compared as metatypes and cast unchecked once equal: a dynamic cast per value was a
        // tenth of the decoding.
        if type == String.self {
            guard case .string(let text) = value else { throw JSONValueDecoder.Mismatch() }
            return unsafeBitCast(text, to: T.self)
        }
        if type == Bool.self {
            guard case .bool(let flag) = value else { throw JSONValueDecoder.Mismatch() }
            return unsafeBitCast(flag, to: T.self)
        }
        if type == Int.self {
            guard case .number(let number) = value, abs(number) < 9_007_199_254_740_992, let exact = Int(exactly: number) else {
                throw JSONValueDecoder.Mismatch()
            }
            return unsafeBitCast(exact, to: T.self)
        }
        if type == Double.self {
            guard case .number(let number) = value else { throw JSONValueDecoder.Mismatch() }
            return unsafeBitCast(number, to: T.self)
        }
        return nil
    }
}

private struct KeyedTree<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    let codingPath: [any CodingKey]
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func value(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else { throw JSONValueDecoder.Mismatch() }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try TreeValue.decode(type, try value(key), codingPath: codingPath)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: try value(key), codingPath: codingPath).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: try value(key), codingPath: codingPath).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { throw JSONValueDecoder.Mismatch() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw JSONValueDecoder.Mismatch() }
}

private struct UnkeyedTree: UnkeyedDecodingContainer {
    let array: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0
    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    init(array: [JSONValue], codingPath: [any CodingKey]) {
        self.array = array
        self.codingPath = codingPath
    }

    private mutating func next() throws -> JSONValue {
        guard !isAtEnd else { throw JSONValueDecoder.Mismatch() }
        currentIndex += 1
        return array[currentIndex - 1]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, array[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try TreeValue.decode(type, try next(), codingPath: codingPath) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: try next(), codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: try next(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { throw JSONValueDecoder.Mismatch() }
}

private struct SingleTree: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let primitive = try TreeValue.primitive(type, value) else { throw JSONValueDecoder.Mismatch() }
        return primitive
    }
}
