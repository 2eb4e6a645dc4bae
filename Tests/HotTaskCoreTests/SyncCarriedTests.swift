import Foundation
import TestSupport
import Testing

@testable import HotTaskCore

/// A task imported from an .ics file goes to a server as its file had it (issue 28): its UID,
/// DESCRIPTION, X- properties with their parameters and the VTIMEZONE its DUE names.
@Suite("Sync of imported to-dos")
struct SyncCarriedTests {
    let folder = TemporaryFolder()
    let server = InMemoryCalendar()

    static let file = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Someone//Else//EN",
        "BEGIN:VTIMEZONE", "TZID:Europe/Paris", "BEGIN:STANDARD", "DTSTART:19701025T030000", "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
        "BEGIN:VTODO", "UID:plants-1@example.com", "DTSTAMP:20261101T100000Z", "SUMMARY:Water the plants",
        "DESCRIPTION:Both balconies", "DUE;TZID=Europe/Paris:20261201T090000", "X-MY-THING;X-PARAM=1:hello", "END:VTODO",
        "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    @Test func anImportedToDoGoesUpAsItsFileHadIt() throws {
        let store = TaskStore(path: folder.storePath)
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        try store.commit([TaskList().adding(onTop: TaskItem(caption: "Made here", section: .bonus, createdAt: now))], what: "add", now: now)
        let batch = try ImportBatch.parse(Array(Self.file.utf8))
        try store.commit(try store.load().importing(batch, dates: .runningNow).changes, what: "import", now: now)
        var carried = CarriedFields()
        carried.record(.iCalendar, tasks: batch.tasks, records: batch.carried)
        try carried.save(besides: store)

        let report = try SyncEngine(store: store, collection: server, now: { now }).run()
        #expect(report.pushed == 2)
        let plants = try #require(server.objects["/calendar/plants-1@example.com.ics"], "\(server.objects.keys)")
        for line in [
            "UID:plants-1@example.com", "DESCRIPTION:Both balconies", "DUE;TZID=Europe/Paris:20261201T090000", "X-MY-THING;X-PARAM=1:hello",
            "BEGIN:VTIMEZONE",
        ] {
            #expect(plants.body.contains(line), "\(line) in \(plants.body)")
        }
        let made = try #require(try store.load().all.first { $0.caption == "Made here" })
        #expect(server.objects["/calendar/\(made.id.uuidString.lowercased()).ics"] != nil)
        // The next sync finds both as they are: nothing more to send, no copies.
        let again = try SyncEngine(store: store, collection: server, now: { now }).run()
        #expect(again.pushed == 0 && again.pulled == 0 && server.objects.count == 2, "\(again)")
        #expect(try store.load().count == 2)
    }
}
