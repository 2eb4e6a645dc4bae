import Foundation

@testable import HotTaskCore

/// Tasks and dates with fixed values, so expectations can be written out in full.
public enum Fixtures {
    /// 2026-11-21T10:00:00Z.
    public static let baseDate = Date(timeIntervalSince1970: 1_795_255_200)

    /// `baseDate` plus whole hours.
    public static func date(hours: Int) -> Date {
        baseDate.addingTimeInterval(TimeInterval(hours * 3600))
    }

    /// A fixed id built from `number` in hex, e.g. `f0000007-0000-4000-8000-000000000007`; its
    /// first 8 characters name it alone among fixture ids.
    public static func id(_ number: Int) -> UUID {
        let hex = String(number, radix: 16)
        func padded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - hex.count)) + hex }
        return UUID(uuidString: "f" + padded(7) + "-0000-4000-8000-" + padded(12))!
    }

    /// A task with fixed id and dates; `hours` shifts creation (and modification) from `baseDate`.
    public static func task(
        _ caption: String, id number: Int, section: Section = .priority, completed: Bool = false,
        hours: Int = 0, modifiedHours: Int? = nil
    ) -> TaskItem {
        TaskItem(
            id: id(number), caption: caption, section: section, completed: completed,
            createdAt: date(hours: hours), completedAt: completed ? date(hours: modifiedHours ?? hours) : nil,
            modifiedAt: date(hours: modifiedHours ?? hours))
    }

    /// A small list: two Top Priority tasks (the second completed) and one Bonus task.
    public static func sampleList() -> TaskList {
        TaskList([
            task("Buy milk", id: 1),
            task("Call mum", id: 2, completed: true, hours: 1, modifiedHours: 2),
            task("Read a book", id: 3, section: .bonus, hours: 3),
        ])
    }
}

/// A Taskwarrior `task export` with one task of each status HotTask knows.
public enum TaskwarriorSample {
    public static let pending =
        #"{"id":1,"description":"Pay rent","entry":"20261121T100000Z","modified":"20261121T110000Z","priority":"H","status":"pending","uuid":"a1b2c3d4-0000-4000-8000-000000000001","urgency":7.8,"tags":["home"]}"#
    public static let waiting =
        #"{"id":2,"description":"Renew passport","entry":"20261121T100000Z","modified":"20261121T100000Z","priority":"M","status":"waiting","uuid":"a1b2c3d4-0000-4000-8000-000000000002","wait":"20270101T000000Z"}"#
    public static let completed =
        #"{"id":0,"description":"Book flights","end":"20261121T120000Z","entry":"20261120T090000Z","modified":"20261121T130000Z","status":"completed","uuid":"a1b2c3d4-0000-4000-8000-000000000003","annotations":[{"entry":"20261121T120000Z","description":"seat 12A"}]}"#
    public static let deleted =
        #"{"id":0,"description":"Old idea","end":"20261121T120000Z","entry":"20261120T090000Z","modified":"20261121T120000Z","status":"deleted","uuid":"a1b2c3d4-0000-4000-8000-000000000004"}"#
    public static let recurring =
        #"{"id":3,"description":"Water plants","entry":"20261120T090000Z","mask":"--","modified":"20261120T090000Z","recur":"weekly","status":"recurring","uuid":"a1b2c3d4-0000-4000-8000-000000000005"}"#
    public static let low =
        #"{"id":4,"description":"  Tidy\tdesk  ","entry":"20261119T080000Z","priority":"L","status":"pending","uuid":"a1b2c3d4-0000-4000-8000-000000000006"}"#

    public static let all = [pending, waiting, completed, deleted, recurring, low]
    public static var asArray: String { "[\n" + all.joined(separator: ",\n") + "\n]\n" }
    public static var asLines: String { all.joined(separator: "\n") + "\n" }

    public static func uuid(_ last: Int) -> UUID { UUID(uuidString: "a1b2c3d4-0000-4000-8000-00000000000\(last)")! }

    public static func date(_ text: String) -> Date { Timestamp.parseTaskwarrior(text)! }
}
