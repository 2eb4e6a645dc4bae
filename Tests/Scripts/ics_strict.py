#!/usr/bin/env python3
"""Checks iCalendar bodies HotTask wrote (PUT bodies, .ics exports, vdir files) strictly.

Usage: ics_strict.py PATH...   (files, or folders whose *.ics files are checked)

Each file must:
  - be UTF-8 with every line ended by CRLF and no line longer than 75 octets (RFC 5545 §3.1);
  - parse with the `ical` library (PyPI: pydantic models of RFC 5545, strict about values),
    with `icalendar` and with `vobject` (each repeating VTODO's rule expanded by vobject);
  - hold VERSION and PRODID in its VCALENDAR, and one UID and one DTSTAMP in each VTODO;
  - hold, for every TZID= a property names, a VTIMEZONE with that TZID (§3.2.19), each with
    at least one STANDARD or DAYLIGHT holding DTSTART, TZOFFSETFROM and TZOFFSETTO;
  - give every DUE or DTSTART with a TZID this system knows the same offset through its
    VTIMEZONE as the system's zone data gives;
  - in each repeating VTODO (RRULE, §3.3.10 and §3.8.5.3): DTSTART and DUE of one value type,
    UNTIL of DTSTART's (else DUE's) type (a DATE for a dated series, a local time for a
    floating one, a UTC time for one in UTC or a named zone), DTSTART one of the rule's
    occurrences (the first that python-dateutil's rrule gives from it), and every
    RECURRENCE-ID of an override of the series' DTSTART type.

Prints "ok: N files" and exits 0, or prints each problem and exits 1.
"""
import datetime
import os
import re
import sys
import zoneinfo

from dateutil import rrule as dateutil_rrule

try:
    from ical.calendar_stream import IcsCalendarStream
    from ical.timezone import IcsTimezoneInfo
    import icalendar
    import vobject
except ImportError:
    print("ics_strict.py needs ical, icalendar and vobject: python3 -m pip install ical icalendar vobject (make test-deps installs them)",
          file=sys.stderr)
    sys.exit(2)


def unfolded(text):
    lines = []
    for line in text.split("\r\n"):
        if line[:1] in (" ", "\t") and lines:
            lines[-1] += line[1:]
        elif line:
            lines.append(line)
    return lines


def name_and_params(line):
    """NAME, the parameters as a dict, the value (quotes honoured)."""
    quoted = False
    for index, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == ":" and not quoted:
            head, value = line[:index], line[index + 1:]
            parts = re.findall(r'(?:[^;"]|"[^"]*")+', head)
            params = {}
            for part in parts[1:]:
                key, _, val = part.partition("=")
                params[key.upper()] = val.strip('"')
            return parts[0].upper(), params, value
    return None, {}, None


def check(path):
    problems = []
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return [f"{path}: not UTF-8 ({error})"]
    if not text.endswith("\r\n") or "\n" in text.replace("\r\n", ""):
        problems.append(f"{path}: a line not ended by CRLF")
    for number, line in enumerate(text.split("\r\n"), 1):
        if len(line.encode("utf-8")) > 75:
            problems.append(f"{path}: line {number} is {len(line.encode('utf-8'))} octets (at most 75)")
    try:
        calendar = IcsCalendarStream.calendar_from_ics(text)
    except Exception as error:  # the library's own words
        return problems + [f"{path}: ical refuses it: {error}"]
    try:
        icalendar.Calendar.from_ical(text)
    except Exception as error:
        problems.append(f"{path}: icalendar refuses it: {error}")
    try:
        for component in vobject.readOne(text).getChildren():
            if component.name == "VTODO" and "rrule" in component.contents:
                list(component.getrruleset(addRDate=True))[:3]
    except Exception as error:
        problems.append(f"{path}: vobject refuses it: {error!r}")
    stack, counts, zones, named, timed = [], [], {}, [], []
    todos, todo = [], None
    zone = None
    for line in unfolded(text):
        name, params, value = name_and_params(line)
        if name is None:
            problems.append(f"{path}: not a content line: {line[:60]!r}")
            continue
        if name == "BEGIN":
            if value.upper() == "VTODO":
                todo = {}
                todos.append(todo)
            stack.append(value.upper())
            counts.append({})
            if value.upper() == "VTIMEZONE":
                zone = {"tzid": None, "observances": []}
            elif value.upper() in ("STANDARD", "DAYLIGHT") and zone is not None:
                zone["observances"].append(set())
            continue
        if name == "END":
            component, seen = stack.pop(), counts.pop()
            if component == "VCALENDAR":
                for required in ("VERSION", "PRODID"):
                    if seen.get(required) != 1:
                        problems.append(f"{path}: VCALENDAR has {seen.get(required, 0)} {required}")
            if component == "VTODO":
                for required in ("UID", "DTSTAMP"):
                    if seen.get(required) != 1:
                        problems.append(f"{path}: a VTODO has {seen.get(required, 0)} {required}")
            if component == "VTIMEZONE" and zone is not None:
                if not zone["tzid"]:
                    problems.append(f"{path}: a VTIMEZONE without TZID")
                if not zone["observances"]:
                    problems.append(f"{path}: VTIMEZONE {zone['tzid']} has no STANDARD or DAYLIGHT")
                for observance in zone["observances"]:
                    missing = {"DTSTART", "TZOFFSETFROM", "TZOFFSETTO"} - observance
                    if missing:
                        problems.append(f"{path}: VTIMEZONE {zone['tzid']} has an observance without {sorted(missing)}")
                zones[zone["tzid"]] = zone
                zone = None
            continue
        if counts:
            counts[-1][name] = counts[-1].get(name, 0) + 1
        if stack and stack[-1] == "VTODO" and todo is not None and name in ("DTSTART", "DUE", "RRULE", "RECURRENCE-ID", "UID"):
            todo[name] = (params, value)
        if stack and stack[-1] == "VTIMEZONE" and name == "TZID":
            zone["tzid"] = value
        if stack and stack[-1] in ("STANDARD", "DAYLIGHT") and zone is not None and zone["observances"]:
            zone["observances"][-1].add(name)
        if "TZID" in params:
            named.append(params["TZID"])
            if name in ("DUE", "DTSTART") and stack and stack[-1] == "VTODO":
                timed.append((params["TZID"], value))
    for tzid in dict.fromkeys(named):
        if tzid not in zones:
            problems.append(f"{path}: TZID={tzid} is used but the file has no VTIMEZONE for it")
    # The offsets the file's own VTIMEZONEs give, against the system's zone data.
    parsed = {tz.tz_id: tz for tz in calendar.timezones}
    for tzid, value in timed:
        if tzid not in parsed:
            continue
        try:
            system = zoneinfo.ZoneInfo(tzid)
        except Exception:
            continue
        local = datetime.datetime.strptime(value, "%Y%m%dT%H%M%S")
        theirs = IcsTimezoneInfo.from_timezone(parsed[tzid]).utcoffset(local)
        ours = local.replace(tzinfo=system).utcoffset()
        if theirs != ours:
            problems.append(f"{path}: {tzid} {value} is {theirs} by its VTIMEZONE but {ours} by the system's zone data")
    problems += [f"{path}: {problem}" for problem in series_problems(todos)]
    return problems


def kind(params, value):
    """The value type of a DATE or DATE-TIME: date, floating, utc or zone."""
    value = value.strip()
    if params.get("VALUE", "").upper() == "DATE" or len(value) == 8:
        return "date"
    if value.endswith("Z"):
        return "utc"
    return "zone" if "TZID" in params else "floating"


def moment(params, value):
    value = value.strip()
    if len(value) == 8:
        return datetime.datetime.strptime(value, "%Y%m%d")
    if value.endswith("Z"):
        return datetime.datetime.strptime(value, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    local = datetime.datetime.strptime(value, "%Y%m%dT%H%M%S")
    if "TZID" in params:
        try:
            return local.replace(tzinfo=zoneinfo.ZoneInfo(params["TZID"]))
        except Exception:
            return local.replace(tzinfo=datetime.timezone.utc)
    return local


def series_problems(todos):
    problems = []
    masters = {todo["UID"][1]: todo for todo in todos if "UID" in todo and "RECURRENCE-ID" not in todo}
    for todo in todos:
        uid = todo.get("UID", ({}, "?"))[1]
        if "RECURRENCE-ID" in todo:
            master = masters.get(uid)
            start = master and (master.get("DTSTART") or master.get("DUE"))
            if start and kind(*todo["RECURRENCE-ID"]) != kind(*start):
                problems.append(f"{uid}: RECURRENCE-ID {todo['RECURRENCE-ID'][1]} is not of DTSTART's type ({kind(*start)})")
            continue
        if "RRULE" not in todo:
            continue
        start = todo.get("DTSTART") or todo.get("DUE")
        if start is None:
            problems.append(f"{uid}: RRULE without DTSTART or DUE")
            continue
        if "DTSTART" in todo and "DUE" in todo and (kind(*todo["DTSTART"]) == "date") != (kind(*todo["DUE"]) == "date"):
            problems.append(f"{uid}: DTSTART {todo['DTSTART'][1]} and DUE {todo['DUE'][1]} are not of one value type")
        rule = todo["RRULE"][1]
        parts = dict(part.split("=", 1) for part in rule.upper().split(";") if "=" in part)
        until = parts.get("UNTIL")
        if until is not None:
            wanted = {"date": "date", "floating": "floating", "utc": "utc", "zone": "utc"}[kind(*start)]
            if kind({}, until) != wanted:
                problems.append(f"{uid}: UNTIL={until} is a {kind({}, until)} value but the series starts with a {kind(*start)} one")
                continue
        try:
            first = next(iter(dateutil_rrule.rrulestr(rule, dtstart=moment(*start))), None)
        except Exception as error:
            problems.append(f"{uid}: dateutil cannot read RRULE {rule}: {error}")
            continue
        if first is not None and first != moment(*start):
            problems.append(f"{uid}: DTSTART {start[1]} is not an occurrence of {rule} (the first is {first})")
    return problems


def main():
    files = []
    for path in sys.argv[1:]:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, name) for name in os.listdir(path) if name.endswith(".ics"))
        else:
            files.append(path)
    if not files:
        print("no files to check", file=sys.stderr)
        return 1
    problems = [problem for path in files for problem in check(path)]
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"ok: {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
