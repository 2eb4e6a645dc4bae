import Foundation
import HotTaskCore
import Testing

@testable import CalDAV

/// Reading a calendar home's listing as the servers people run write it: only the calendars
/// that take tasks are offered, with the name a person would recognise.
@Suite("Discovery")
struct DiscoveryTests {
    func calendars(_ xml: String, home: String) throws -> [TaskCalendar] {
        let homeURL = try #require(URL(string: home))
        let answer = try #require(PropfindAnswer(Data(xml.utf8), answering: homeURL))
        return CalendarDiscovery.taskCalendars(in: answer, home: homeURL)
    }

    @Test("Cyrus: CDATA display names; Inbox and Outbox are schedule collections, not calendars; an events-only calendar is left out")
    func cyrus() throws {
        let found = try calendars(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
            <D:response><D:href>/dav/calendars/user/u/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/dav/calendars/user/u/Default/</D:href><D:propstat><D:prop>
              <D:resourcetype><D:collection/><C:calendar/></D:resourcetype><D:displayname><![CDATA[personal]]></D:displayname>
              <C:supported-calendar-component-set><C:comp name="VEVENT"/><C:comp name="VTODO"/></C:supported-calendar-component-set>
            </D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/dav/calendars/user/u/Inbox/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/><C:schedule-inbox/></D:resourcetype></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/dav/calendars/user/u/Outbox/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/><C:schedule-outbox/></D:resourcetype></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/dav/calendars/user/u/events/</D:href><D:propstat><D:prop>
              <D:resourcetype><D:collection/><C:calendar/></D:resourcetype><D:displayname>Events</D:displayname>
              <C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>
            </D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            </D:multistatus>
            """, home: "https://cyrus.example/dav/calendars/user/u/")
        #expect(found == [TaskCalendar(name: "personal", url: "https://cyrus.example/dav/calendars/user/u/Default/")])
    }

    @Test("a display name with control characters or an escape sequence becomes a name a list can have; one of only those, the path's")
    func hostileNames() throws {
        let found = try calendars(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
            <D:response><D:href>/u/work/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype>
              <D:displayname>  Work\u{1B}[2J\u{7}  \u{200B}plans\t\tQ4 </D:displayname></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/u/home/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype>
              <D:displayname>\u{1B}\u{7}</D:displayname></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/u/long/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype>
              <D:displayname>\(String(repeating: "a", count: 70))</D:displayname></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            </D:multistatus>
            """, home: "https://dav.example/u/")
        #expect(
            found == [
                TaskCalendar(name: "Work[2J plans Q4", url: "https://dav.example/u/work/"),
                TaskCalendar(name: "home", url: "https://dav.example/u/home/"),
                TaskCalendar(name: String(repeating: "a", count: 60), url: "https://dav.example/u/long/"),
            ])
        #expect(found.allSatisfy { ListNameRule.check($0.name) == nil })
    }

    @Test(
        "SOGo: the home reports a component set but is not a calendar; personal.ics is a file; its calendars are also outboxes; a calendar without a set takes tasks"
    )
    func sogo() throws {
        let found = try calendars(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
            <D:response><D:href>/SOGo/dav/u/Calendar/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/></D:resourcetype>
              <C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/SOGo/dav/u/Calendar/personal/</D:href><D:propstat><D:prop>
              <D:resourcetype><D:collection/><calendar xmlns="urn:ietf:params:xml:ns:caldav"/><vevent-collection xmlns="http://groupdav.org/"/><vtodo-collection xmlns="http://groupdav.org/"/><schedule-outbox xmlns="urn:ietf:params:xml:ns:caldav"/></D:resourcetype><D:displayname>Personal Calendar</D:displayname>
              <C:supported-calendar-component-set><C:comp name="VEVENT"/><C:comp name="VFREEBUSY"/><C:comp name="VTODO"/></C:supported-calendar-component-set>
            </D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>
            <D:response><D:href>/SOGo/dav/u/Calendar/personal.ics</D:href><D:propstat><D:status>HTTP/1.1 200 OK</D:status><D:prop><D:resourcetype/><D:displayname>Personal Calendar</D:displayname></D:prop></D:propstat>
              <D:propstat><D:status>HTTP/1.1 404 Not Found</D:status><D:prop><C:supported-calendar-component-set/></D:prop></D:propstat></D:response>
            <D:response><D:href>/SOGo/dav/u/Calendar/todo%20list/</D:href><D:propstat><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype></D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>
              <D:propstat><D:prop><D:displayname/></D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat></D:response>
            </D:multistatus>
            """, home: "http://127.0.0.1:20000/SOGo/dav/u/Calendar/")
        #expect(
            found == [
                TaskCalendar(name: "Personal Calendar", url: "http://127.0.0.1:20000/SOGo/dav/u/Calendar/personal/"),
                TaskCalendar(name: "todo list", url: "http://127.0.0.1:20000/SOGo/dav/u/Calendar/todo%20list/"),
            ])
        #expect(found[1].segment == "todo list")
    }

    @Test("a new calendar's path segment comes from its name")
    func slugs() {
        #expect(CalendarDiscovery.slug("HotTask") == "hottask")
        #expect(CalendarDiscovery.slug("Work & Home!") == "work-home")
        #expect(CalendarDiscovery.slug("Tâches à faire") == "taches-a-faire")
        #expect(CalendarDiscovery.slug("日本").count == 36, "nothing left: a UUID")
    }
}

@Suite("Choosing a calendar by name")
struct CalendarNameTests {
    let calendars = [
        TaskCalendar(name: "Work", url: "https://example.org/dav/u/work-tasks/"),
        TaskCalendar(name: "shared", url: "https://example.org/dav/u/shared/"),
        TaskCalendar(name: "Personal", url: "https://example.org/dav/u/Home/"),
    ]

    @Test("--calendar matches a display name, then a path segment, exactly and then ignoring case")
    func matching() {
        #expect(TaskCalendar.named("Work", in: calendars)?.url == "https://example.org/dav/u/work-tasks/")
        #expect(TaskCalendar.named("work-tasks", in: calendars)?.url == "https://example.org/dav/u/work-tasks/")
        #expect(TaskCalendar.named("Shared", in: calendars)?.url == "https://example.org/dav/u/shared/")
        #expect(TaskCalendar.named("WORK", in: calendars)?.url == "https://example.org/dav/u/work-tasks/")
        #expect(TaskCalendar.named("home", in: calendars)?.url == "https://example.org/dav/u/Home/")
        #expect(TaskCalendar.named("Errands", in: calendars) == nil)
    }
}
