#!/usr/bin/env python3
"""Writes ICU's data trimmed to what HotTask reads, for the static release build.

    Packaging/trim-icu-data.py SWIFTC BUILD_FOLDER

Foundation links ICU's whole data package (34 MB) from the toolchain's lib_FoundationICU.a.
HotTask reads time zones, the Gregorian calendar and root or English formats from it; other
locales, converters, break dictionaries, transliterators and spell-out rules are left out
(4.3 MB stay). A locale left out falls back to root, as ICU does for any locale it lacks.
Writes BUILD_FOLDER/icu-data/icu_data.dat and icu_data.h for Sources/CICUData/icu_data.S.
When the toolchain is not laid out as expected it says so and writes nothing: the build then
links the full data, and the package test's size limit fails."""
import glob, os, re, shutil, struct, subprocess, sys, tempfile

LOCALE = re.compile(r'^[a-z]{2,3}(_[A-Za-z0-9]+)*_?\.res$')
KEPT_LOCALES = {'root.res', 'en.res', 'en_US.res', 'en_US_POSIX.res', 'pool.res', 'res_index.res'}
ICU_MAGIC = b'\xda\x27'


def kept(name):
    """Whether an item ("icudt76l/zone/en.res") stays."""
    tree, _, leaf = name.split('/', 1)[1].rpartition('/')
    if leaf.endswith(('.cnv', '.dict', '.spp')) or leaf == 'unames.icu' or tree in ('translit', 'rbnf'):
        return False
    return not LOCALE.match(leaf) or leaf in KEPT_LOCALES


def items_of(blob):
    """The package's header and its (name, bytes) items, in the order of its table."""
    header = struct.unpack_from('<H', blob, 0)[0]
    count = struct.unpack_from('<I', blob, header)[0]
    table = [struct.unpack_from('<II', blob, header + 4 + 8 * i) for i in range(count)]
    starts = [header + data for _, data in table] + [len(blob)]
    names = [blob[header + name:blob.index(b'\0', header + name)] for name, _ in table]
    return blob[:header], [(names[i], blob[starts[i]:starts[i + 1]]) for i in range(count)]


def package(header, items):
    """A common data package: the header, a table of name and data offsets, names, data
    aligned to 16 bytes (ICU reads items in place)."""
    table_size = 4 + 8 * len(items)
    names = b''.join(name + b'\0' for name, _ in items)
    first = (table_size + len(names) + 15) // 16 * 16
    table, body, name_at = [struct.pack('<I', len(items))], b'', table_size
    for name, data in items:
        table.append(struct.pack('<II', name_at, first + len(body)))
        name_at += len(name) + 1
        body += data + b'\0' * (-len(data) % 16)
    return header + b''.join(table) + names + b'\0' * (first - table_size - len(names)) + body


def packaged_data(swiftc):
    """ICU's symbol name and data bytes from the toolchain's static archive."""
    toolchain = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which(swiftc) or swiftc)))
    archive = os.path.join(toolchain, 'lib', 'swift_static', 'linux', 'lib_FoundationICU.a')
    members = subprocess.run(['ar', 't', archive], capture_output=True, text=True, check=True).stdout.split()
    if 'icu_packaged_data.cpp.o' not in members:
        raise ValueError(f'{archive} has no icu_packaged_data.cpp.o')
    with tempfile.TemporaryDirectory() as work:
        member = os.path.join(work, 'data.o')
        with open(member, 'wb') as out:
            subprocess.run(['ar', 'p', archive, 'icu_packaged_data.cpp.o'], stdout=out, check=True)
        symbols = subprocess.run(['nm', '-S', member], capture_output=True, text=True, check=True).stdout
        found = re.search(r'^0+ ([0-9a-f]+) R (icudt\d+_dat)$', symbols, re.M)
        if not found:
            raise ValueError('no icudtNN_dat symbol at the start of .rodata')
        raw = os.path.join(work, 'data.bin')
        subprocess.run(['objcopy', '-O', 'binary', '--only-section=.rodata', member, raw], check=True)
        blob = open(raw, 'rb').read()
    if len(blob) != int(found.group(1), 16) or blob[2:4] != ICU_MAGIC:
        raise ValueError('the data is not one ICU package')
    return found.group(2), blob


def write_if_changed(path, data):
    if os.path.exists(path) and open(path, 'rb').read() == data:
        return False
    with open(path + '.new', 'wb') as out:
        out.write(data)
    os.replace(path + '.new', path)
    return True


def stale_builds(build):
    """The assembled data of earlier builds: its dependency file does not name a header it did
    not find, so it is built again only when removed."""
    return glob.glob(os.path.join(build, '*', '*', 'CICUData.build')) + glob.glob(os.path.join(build, '*', 'CICUData.build'))


def keep_full_data(build, problem):
    """No trimmed data, and none left from an earlier toolchain: the build links the full data."""
    print(f'trim-icu-data: keeping ICU\'s full data: {problem}', file=sys.stderr)
    shutil.rmtree(os.path.join(build, 'icu-data'), ignore_errors=True)
    for stale in stale_builds(build):
        shutil.rmtree(stale, ignore_errors=True)
    return 0


def main():
    swiftc, build = sys.argv[1], os.path.abspath(sys.argv[2])
    try:
        symbol, blob = packaged_data(swiftc)
        header, items = items_of(blob)
    except (OSError, ValueError, subprocess.CalledProcessError) as problem:
        return keep_full_data(build, problem)
    chosen = [(name, data) for name, data in items if kept(name.decode())]
    trimmed = package(header, chosen)
    # Read back as ICU would: every kept item whole, by the same name, in the table's order.
    again = items_of(trimmed)[1]
    if [n for n, _ in again] != [n for n, _ in chosen] or any(not d.startswith(o) for (_, d), (_, o) in zip(again, chosen)):
        return keep_full_data(build, 'the trimmed package does not read back')
    folder = os.path.join(build, 'icu-data')
    os.makedirs(folder, exist_ok=True)
    data_path = os.path.join(folder, 'icu_data.dat')
    changed = write_if_changed(data_path, trimmed)
    definitions = f'#define HOTTASK_ICU_SYMBOL {symbol}\n#define HOTTASK_ICU_DATA "{data_path}"\n'
    changed = write_if_changed(os.path.join(folder, 'icu_data.h'), definitions.encode()) or changed
    if changed:
        for stale in stale_builds(build):
            shutil.rmtree(stale, ignore_errors=True)
    print(f'ICU data: {len(trimmed) / 1e6:.1f} MB of {len(blob) / 1e6:.1f} MB ({symbol})', file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
