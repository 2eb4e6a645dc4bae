// libFuzzer entry point for `make fuzz`. Compiled into one module together with
// Sources/HotTaskCore (hence no import), with -sanitize=fuzzer,address.

/// Any bytes: the import parser and the store decoder must refuse them cleanly or accept them,
/// and whatever is accepted must survive a save and a load unchanged.
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
    _ = try? StoreDocument.decode(bytes)
    return 0
}
