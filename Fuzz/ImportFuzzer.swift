// libFuzzer entry point for `make fuzz`. Compiled into one module together with
// Sources/HotTaskCore (hence no import), with -sanitize=fuzzer,address.

/// Any bytes: the import parser, the store decoder and the change-log reader must refuse them
/// cleanly or accept them; whatever is accepted must survive being written and read back
/// unchanged; and the fast store reader must agree with the strict one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let batch = try? ImportBatch.parse(bytes) {
        var list = TaskList()
        list.apply(list.importing(batch).changes, clock: Clock(milliseconds: 1))
        for task in list.all where (try? CaptionRule.clean(task.caption)) != task.caption {
            fatalError("an imported caption breaks the input rule: \(task.caption.debugDescription)")
        }
        let header = SnapshotHeader(generation: .random(), clock: Clock(milliseconds: 1), list: list)
        guard let reloaded = try? StoreDocument.decode(StoreDocument.encode(list, header: header)), reloaded.list == list else {
            fatalError("an accepted import does not survive a save and a load")
        }
    }
    // The fast store reader may only accept what the strict one accepts, with the same result.
    if let fast = JSONParser.decodeStoreFast(bytes), (try? StoreDocument.decodeStrictly(bytes)) != fast {
        fatalError("the fast store reader accepted what the strict one refuses or reads differently")
    }
    // Each line as a change-log record: a record read must be written and read back the same.
    for line in bytes.split(separator: 0x0A) {
        guard case .success(let record) = ChangeLog.decodeRecord(Array(line)) else { continue }
        guard case .success(let again) = ChangeLog.decodeRecord(Array(ChangeLog.encode(record).dropLast())), again == record else {
            fatalError("a log record read does not survive being written again")
        }
    }
    return 0
}
