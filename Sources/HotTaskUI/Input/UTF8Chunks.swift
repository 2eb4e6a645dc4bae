/// Decodes UTF-8 that arrives in blocks of any size (a read can end inside a character):
/// the unfinished end of a block waits for the next one. Bytes that are not UTF-8 become
/// U+FFFD, each at once, so nothing after them is held back.
public struct UTF8Chunks: Sendable {
    private var unfinished: [UInt8] = []

    public init() {}

    /// The scalars `bytes` complete, with any unfinished character from the last block first.
    public mutating func decode(_ bytes: some Collection<UInt8>) -> String.UnicodeScalarView {
        var block = unfinished
        block.append(contentsOf: bytes)
        unfinished.removeAll()
        // An unfinished character is at most 3 bytes long: its lead byte says how long it must be.
        let end = block.count
        guard end > 0 else { return String.UnicodeScalarView() }
        for back in 1...min(3, end) {
            let byte = block[end - back]
            guard byte & 0xC0 == 0x80 else {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                if byte >= 0xC2, byte <= 0xF4, length > back {
                    unfinished = Array(block[(end - back)...])
                    block.removeLast(back)
                }
                break
            }
        }
        return String(decoding: block, as: UTF8.self).unicodeScalars
    }

    /// Nothing more is coming (a pause): an unfinished character is U+FFFD.
    public mutating func flush() -> String.UnicodeScalarView {
        defer { unfinished.removeAll() }
        return String(decoding: unfinished, as: UTF8.self).unicodeScalars
    }
}
