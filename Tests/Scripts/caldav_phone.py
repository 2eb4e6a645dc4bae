#!/usr/bin/env python3
"""Plays a "phone app" against a CalDAV task list, for the end-to-end tests.

Usage: caldav_phone.py URL COMMAND [args]

URL is the calendar collection, e.g. http://127.0.0.1:5232/u/hot/. It logs in as u / p
(PHONE_AUTH=basic: with Basic, whatever the server offers).
Every command prints JSON on stdout; on failure it prints a message on
stderr and exits non-zero.

Commands:
  make-calendar                 create the collection (VTODO only) if missing
  add SUMMARY [--priority N] [--due YYYYMMDD] [--categories a,b] [--description TEXT] [--sort-order N]
  list                          every VTODO, completed and cancelled included
  edit SUMMARY_MATCH [--summary S]   (SUMMARY_MATCH uid:X matches the UID instead) [--priority N|none] [--status S]
                     [--due YYYYMMDD|YYYYMMDDTHHMMSS[Z]|none [--tzid ZONE]] [--categories a,b]
                     [--description TEXT]  (TEXT's \\n is a line break; empty removes it)
  delete SUMMARY_MATCH
  rename-calendar NAME          give the calendar the display name NAME (PROPPATCH)
  move SUMMARY_MATCH TO_URL     as Tasks.org moves a task to another list: PUT into the calendar at
                                TO_URL with the same UID and body, then DELETE from this one
  put-raw NAME BODY             PUT a body as it is (even one that is not valid iCalendar)
"""

import argparse
import datetime
import json
import os
import sys
from urllib.parse import urlparse

import caldav
from caldav.elements import dav
from caldav.lib import error

SORT_ORDER = "X-APPLE-SORT-ORDER"


# PHONE_AUTH=basic makes the phone send Basic up front: Cyrus offers Digest md5-sess first, which
# its SASL set-up here refuses, and caldav would otherwise choose it; SOGo at times closes the
# connection after the 401 that tells caldav which scheme to use.
# The test server's password (HOTTASK_PHONE_PASSWORD; "p" unless a test sets another).
PASSWORD = os.environ.get("HOTTASK_PHONE_PASSWORD", "p")
AUTH_TYPE = os.environ.get("PHONE_AUTH") or None
# PHONE_CONNECTION_CLOSE=1: a connection per request, as HotTask itself does. SOGo closes kept-alive
# connections without saying so, and a request sent on one then gets no answer.
HEADERS = {"Connection": "close"} if os.environ.get("PHONE_CONNECTION_CLOSE") else None


def open_calendar(url):
    client = caldav.DAVClient(url=url, username="u", password=PASSWORD, auth_type=AUTH_TYPE, headers=HEADERS)
    return client, caldav.Calendar(client=client, url=url)


def parse_date(text, tzid=None):
    """YYYYMMDD (a date), YYYYMMDDTHHMMSSZ (UTC) or YYYYMMDDTHHMMSS (in TZID, else floating)."""
    if "T" not in text:
        return datetime.datetime.strptime(text, "%Y%m%d").date()
    if text.endswith("Z"):
        return datetime.datetime.strptime(text, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    value = datetime.datetime.strptime(text, "%Y%m%dT%H%M%S")
    if tzid:
        from zoneinfo import ZoneInfo

        value = value.replace(tzinfo=ZoneInfo(tzid))
    return value


def split_categories(text):
    return [c.strip() for c in text.split(",") if c.strip()]


def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


def all_todos(cal):
    # include_completed=True: no STATUS filter, so COMPLETED and CANCELLED come too.
    return cal.todos(include_completed=True)


def find_one(cal, summary):
    """The one VTODO whose SUMMARY is `summary` ("uid:X": whose UID is X, for one without a title)."""
    if summary.startswith("uid:"):
        hits = [t for t in all_todos(cal) if str(t.icalendar_component.get("UID", "")) == summary[4:]]
    else:
        hits = [t for t in all_todos(cal) if str(t.icalendar_component.get("SUMMARY", "")) == summary]
    if len(hits) != 1:
        raise SystemExit(f"expected exactly one VTODO with SUMMARY {summary!r}, found {len(hits)}")
    return hits[0]


def int_or_none(value):
    return None if value is None else int(str(value))


def raw_vtodo(todo):
    """The VTODO block as the server sent it (XML parsing turns CRLF into LF)."""
    text = (todo.raw_data or b"").decode("utf-8", "replace")
    start, end = text.find("BEGIN:VTODO"), text.find("END:VTODO")
    if start < 0 or end < 0:
        return todo.icalendar_component.to_ical().decode()
    stop = text.find("\n", end)
    return text[start : len(text) if stop < 0 else stop + 1]


def describe(todo):
    comp = todo.icalendar_component
    status = comp.get("STATUS")
    due = comp.get("DUE")
    categories = []
    # CATEGORIES may appear several times, each with a comma-separated list.
    cats = comp.get("CATEGORIES")
    for prop in cats if isinstance(cats, list) else [cats] if cats is not None else []:
        categories += [str(c) for c in prop.cats]
    last_modified = comp.get("LAST-MODIFIED")
    # The parent, as Tasks.org writes it: RELATED-TO with RELTYPE=PARENT, or with none (RFC 5545).
    related = comp.get("RELATED-TO")
    parent = None
    for prop in related if isinstance(related, list) else [related] if related is not None else []:
        if str(prop.params.get("RELTYPE", "PARENT")).upper() == "PARENT":
            parent = str(prop)
    extra = {} if parent is None else {"parent": parent}
    return extra | {
        "uid": str(comp.get("UID")),
        "summary": str(comp.get("SUMMARY", "")),
        # None when the VTODO has no SUMMARY at all (a to-do without a title).
        "summary_raw": None if "SUMMARY" not in comp else str(comp.get("SUMMARY")),
        "priority": int_or_none(comp.get("PRIORITY")),
        "status": None if status is None else str(status),
        "completed": status is not None and str(status).upper() == "COMPLETED",
        # The raw value as written on the wire, e.g. "20261201" or "20261201T120000Z".
        "due": None if due is None else due.to_ical().decode(),
        "due_tzid": None if due is None else due.params.get("TZID"),
        "categories": categories,
        "description": None if comp.get("DESCRIPTION") is None else str(comp.get("DESCRIPTION")),
        "sort_order": int_or_none(comp.get(SORT_ORDER)),
        "sequence": int_or_none(comp.get("SEQUENCE")),
        "last_modified": None if last_modified is None else last_modified.to_ical().decode(),
        "raw": raw_vtodo(todo),
        # Occurrences changed on their own (VTODOs with RECURRENCE-ID) in the same object.
        "overrides": (todo.raw_data or b"").decode("utf-8", "replace").count("RECURRENCE-ID"),
    }


def cmd_make_calendar(client, cal, args):
    try:
        cal.get_properties([dav.DisplayName()])
        return {"ok": True}  # already there
    except error.NotFoundError:
        pass
    parts = urlparse(args.url)
    cal_id = parts.path.rstrip("/").rsplit("/", 1)[-1]
    # principal() PROPFINDs the client's URL, which must exist: use the root.
    root = caldav.DAVClient(url=f"{parts.scheme}://{parts.netloc}/", username="u", password=PASSWORD, auth_type=AUTH_TYPE, headers=HEADERS)
    root.principal().make_calendar(
        name=cal_id, cal_id=cal_id, supported_calendar_component_set=args.components.split(",")
    )
    return {"ok": True}


def cmd_add(client, cal, args):
    props = {"summary": args.summary}
    if args.priority is not None:
        props["priority"] = args.priority
    if args.due:
        props["due"] = parse_date(args.due, args.tzid)
    if args.categories:
        props["categories"] = split_categories(args.categories)
    if args.description:
        props["description"] = args.description.replace("\\n", "\n")
    if args.sort_order is not None:
        props[SORT_ORDER.lower()] = args.sort_order
    todo = cal.save_todo(**props)
    return {"uid": str(todo.icalendar_component["UID"])}


def cmd_add_raw(client, cal, args):
    """Saves a VCALENDAR exactly as given (a phone app's own properties and parameters)."""
    todo = cal.save_todo(args.ical.replace("\\r\\n", "\r\n"))
    return {"uid": str(todo.icalendar_component["UID"])}


def cmd_put_raw(client, cal, args):
    """PUTs a body exactly as given (bytes the server keeps as they are, even ones that are not
    iCalendar a strict reader takes) under NAME in the calendar."""
    url = args.url.rstrip("/") + "/" + args.name
    response = client.put(url, args.ical.replace("\\r\\n", "\r\n"), {"Content-Type": "text/calendar; charset=utf-8"})
    if response.status not in (200, 201, 204):
        raise SystemExit(f"PUT {url} answered {response.status}")
    return {"status": response.status}


def cmd_list(client, cal, args):
    items = [describe(t) for t in all_todos(cal)]
    return sorted(items, key=lambda d: (d["summary"], d["uid"]))


def cmd_edit(client, cal, args):
    todo = find_one(cal, args.summary_match)
    now = now_utc()
    with todo.edit_icalendar_component() as comp:
        if args.summary is not None:
            comp.pop("SUMMARY", None)
            comp.add("SUMMARY", args.summary)
        if args.priority is not None:
            comp.pop("PRIORITY", None)
            if args.priority.lower() != "none":
                comp.add("PRIORITY", int(args.priority))
        if args.status is not None:
            comp.pop("STATUS", None)
            comp.add("STATUS", args.status.upper())
            if args.status.upper() == "COMPLETED":
                comp.pop("COMPLETED", None)
                comp.add("COMPLETED", now)
            elif args.status.upper() == "NEEDS-ACTION":
                comp.pop("COMPLETED", None)
        if args.due is not None:
            comp.pop("DUE", None)
            if args.due.lower() != "none":
                comp.add("DUE", parse_date(args.due, args.tzid))
        if args.categories is not None:
            comp.pop("CATEGORIES", None)
            if split_categories(args.categories):
                comp.add("CATEGORIES", split_categories(args.categories))
        if args.description is not None:
            comp.pop("DESCRIPTION", None)
            if args.description:
                comp.add("DESCRIPTION", args.description.replace("\\n", "\n"))
        if args.parent is not None:
            # As Tasks.org does: the parent's UID with RELTYPE=PARENT, or no relation.
            comp.pop("RELATED-TO", None)
            if args.parent.lower() != "none":
                comp.add("RELATED-TO", args.parent, parameters={"RELTYPE": "PARENT"})
        for name in ("LAST-MODIFIED", "DTSTAMP"):
            comp.pop(name, None)
            comp.add(name, now)
        sequence = int_or_none(comp.pop("SEQUENCE", None)) or 0
        comp.add("SEQUENCE", sequence + 1)
    # The object came from a REPORT with its ETag, so save() sends If-Match.
    # increase_seqno=False: SEQUENCE was bumped above, exactly once.
    todo.save(increase_seqno=False)
    return {"ok": True}


def cmd_complete_occurrence(client, cal, args):
    """Completes the current occurrence of a repeating to-do as Tasks.org does: DTSTART and DUE
    move to the rule's next occurrence (dateutil from DTSTART), COUNT one less, still open."""
    from dateutil.rrule import rrulestr

    todo = find_one(cal, args.summary_match)
    now = now_utc()
    with todo.edit_icalendar_component() as comp:
        start = comp.get("DTSTART").dt
        rule = comp.get("RRULE").to_ical().decode()
        import datetime as _datetime

        naive = start.replace(tzinfo=None) if hasattr(start, "hour") else _datetime.datetime.combine(start, _datetime.time())
        occurrences = list(rrulestr(rule, dtstart=naive)[:2])
        if len(occurrences) < 2:
            comp.pop("STATUS", None)
            comp.add("STATUS", "COMPLETED")
            comp.add("COMPLETED", now)
        else:
            step = occurrences[1] - occurrences[0]
            for name in ("DTSTART", "DUE"):
                value = comp.get(name)
                if value is not None:
                    moved = value.dt + step
                    comp.pop(name)
                    comp.add(name, moved)
            parts = [p for p in rule.split(";")]
            parts = [("COUNT=%d" % (int(p[6:]) - 1)) if p.upper().startswith("COUNT=") else p for p in parts]
            comp.pop("RRULE")
            comp.add("RRULE", rrulestr_parts(";".join(parts)))
        for name in ("LAST-MODIFIED", "DTSTAMP"):
            comp.pop(name, None)
            comp.add(name, now)
        sequence = int_or_none(comp.pop("SEQUENCE", None)) or 0
        comp.add("SEQUENCE", sequence + 1)
    todo.save(increase_seqno=False)
    return {"ok": True}


def rrulestr_parts(text):
    from icalendar import vRecur

    return vRecur.from_ical(text)


def cmd_delete(client, cal, args):
    find_one(cal, args.summary_match).delete()
    return {"ok": True}


def cmd_delete_all(client, cal, args):
    """Empties the calendar, as a phone app's "delete all" does."""
    todos = all_todos(cal)
    for todo in todos:
        todo.delete()
    return {"deleted": len(todos)}


def cmd_rename_calendar(client, cal, args):
    cal.set_properties([dav.DisplayName(args.name)])
    return {"ok": True}


def cmd_move(client, cal, args):
    todo = find_one(cal, args.summary_match)
    uid = str(todo.icalendar_component["UID"])
    body = (todo.raw_data or b"").decode("utf-8")
    target = args.to_url.rstrip("/") + "/" + uid + ".ics"
    response = client.put(target, body, {"Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"})
    if response.status not in (201, 204):
        raise SystemExit(f"PUT {target} answered {response.status}")
    todo.delete()
    return {"uid": uid, "href": target}


def main():
    parser = argparse.ArgumentParser(description="CalDAV phone-app stand-in for tests")
    parser.add_argument("url")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("rename-calendar")
    p.add_argument("name")
    p.set_defaults(run=cmd_rename_calendar)

    p = sub.add_parser("move")
    p.add_argument("summary_match")
    p.add_argument("to_url")
    p.set_defaults(run=cmd_move)

    p = sub.add_parser("make-calendar")
    p.add_argument("--components", default="VTODO", help="a,b: the component set (VTODO; VEVENT for events only)")
    p.set_defaults(run=cmd_make_calendar)

    p = sub.add_parser("add")
    p.add_argument("summary")
    p.add_argument("--priority", type=int)
    p.add_argument("--due", help="YYYYMMDD, YYYYMMDDTHHMMSSZ, or YYYYMMDDTHHMMSS with --tzid")
    p.add_argument("--tzid", help="the zone of a --due time (Europe/Berlin)")
    p.add_argument("--categories", help="a,b")
    p.add_argument("--description", help="TEXT (\\n is a line break)")
    p.add_argument("--sort-order", type=int)
    p.set_defaults(run=cmd_add)

    p = sub.add_parser("add-raw")
    p.add_argument("ical", help="a whole VCALENDAR; the two characters \\r\\n stand for a line end")
    p.set_defaults(run=cmd_add_raw)

    p = sub.add_parser("put-raw")
    p.add_argument("name", help="the file name in the calendar (bad.ics)")
    p.add_argument("ical", help="the body; the two characters \\r\\n stand for a line end")
    p.set_defaults(run=cmd_put_raw)

    sub.add_parser("list").set_defaults(run=cmd_list)

    p = sub.add_parser("edit")
    p.add_argument("summary_match")
    p.add_argument("--summary")
    p.add_argument("--priority", help="N or none")
    p.add_argument("--status", help="NEEDS-ACTION, IN-PROCESS, COMPLETED, CANCELLED")
    p.add_argument("--due", help="YYYYMMDD, YYYYMMDDTHHMMSSZ, YYYYMMDDTHHMMSS with --tzid, or none")
    p.add_argument("--tzid", help="the zone of a --due time (Europe/Berlin)")
    p.add_argument("--categories", help="a,b (empty string removes them)")
    p.add_argument("--description", help="TEXT (\\n is a line break; empty removes it)")
    p.add_argument("--parent", help="the parent's UID (RELATED-TO;RELTYPE=PARENT), or none")
    p.set_defaults(run=cmd_edit)

    p = sub.add_parser("complete-occurrence")
    p.add_argument("summary_match")
    p.set_defaults(run=cmd_complete_occurrence)

    p = sub.add_parser("delete")
    p.add_argument("summary_match")
    p.set_defaults(run=cmd_delete)

    sub.add_parser("delete-all").set_defaults(run=cmd_delete_all)

    args = parser.parse_args()
    try:
        client, cal = open_calendar(args.url)
        result = args.run(client, cal, args)
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
            sys.exit(1)
        raise
    except Exception as e:  # any library or network failure
        print(f"{args.command} failed: {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
