// libFuzzer entry point for `make fuzz`. Compiled into one module together with
// Sources/HotTaskCore (hence no import), with -sanitize=fuzzer,address.

/// Any bytes: the import parser and the store decoder must refuse them cleanly or accept them,
/// whatever is accepted must survive a save and a load unchanged, and the fast store reader
/// must agree with the strict one.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let batch = try? ImportBatch.parse(bytes) {
        var list = TaskList()
        _ = list.merge(batch)
        for task in list.all where (try? CaptionRule.clean(task.caption)) != task.caption {
            fatalError("an imported caption breaks the input rule: \(task.caption.debugDescription)")
        }
        guard let reloaded = try? StoreDocument.decode(StoreDocument.encode(list)), reloaded == list else {
            fatalError("an accepted import does not survive a save and a load")
        }
    }
    // The fast store reader may only accept what the strict one accepts, with the same result.
    if let fast = JSONParser.decodeStoreFast(bytes), (try? StoreDocument.decodeStrictly(bytes)) != fast {
        fatalError("the fast store reader accepted what the strict one refuses or reads differently")
    }
    return 0
}
