#!/usr/bin/env python3
"""The code's size counts, as issue 30 reports them: public declarations per module, `@unchecked
Sendable`, files over 400 lines, and the longest functions (a `func` or `init` line to its
matching closing brace, braces in strings and comments ignored).

    python3 Tests/Scripts/code_counts.py [--top N] [ROOT]
"""
import os
import re
import sys


def swift_files(root):
    for folder, _, names in os.walk(os.path.join(root, "Sources")):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(folder, name)


def code_only(line, in_block):
    """The line without comments and string contents, and whether a /* */ comment is still open."""
    out, i = [], 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_block = end + 2, False
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block, i = True, i + 2
        elif line[i] == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            i += 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_block


DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|open|static|class|final|"
                         r"override|mutating|nonmutating|convenience|required|nonisolated)\s+)*(func\s+([^\s(<]+)|init\??\b)")


def functions(path):
    """(length in lines, name, first line) of each func/init with a body."""
    lines = open(path, encoding="utf-8").read().split("\n")
    codes, in_block = [], False
    for line in lines:
        code, in_block = code_only(line, in_block)
        codes.append(code)
    found = []
    for start, line in enumerate(lines):
        match = DECLARATION.match(codes[start])
        if not match:
            continue
        name = match.group(2) or "init"
        depth, opened = 0, False
        for end in range(start, len(lines)):
            for char in codes[end]:
                if char == "{":
                    depth, opened = depth + 1, True
                elif char == "}":
                    depth -= 1
            if opened and depth <= 0:
                found.append((end - start + 1, name, start + 1))
                break
            if not opened and end > start and codes[end].strip().startswith(("func ", "var ", "let ", "}")):
                break  # a protocol requirement: no body
    return found


def main():
    args = sys.argv[1:]
    top = 5
    if "--top" in args:
        at = args.index("--top")
        top = int(args[at + 1])
        del args[at : at + 2]
    root = args[0] if args else "."
    modules, unchecked, sizes, longest = {}, 0, [], []
    for path in swift_files(root):
        relative = os.path.relpath(path, root)
        module = relative.split(os.sep)[1]
        text = open(path, encoding="utf-8").read()
        lines = text.split("\n")
        modules[module] = modules.get(module, 0) + sum(1 for line in lines if re.match(r"^\s*(public|open) ", line))
        unchecked += text.count("@unchecked Sendable")
        count = text.count("\n")
        if count > 400:
            sizes.append((count, relative))
        longest += [(length, relative, line, name) for length, name, line in functions(path)]
    print("public declarations per module:")
    for module in sorted(modules):
        print(f"  {module}: {modules[module]}")
    print(f"@unchecked Sendable: {unchecked}")
    print("files over 400 lines:")
    for count, relative in sorted(sizes, reverse=True):
        print(f"  {count} {relative}")
    print(f"longest functions (top {top}):")
    for length, relative, line, name in sorted(longest, reverse=True)[:top]:
        print(f"  {length} {name} {relative}:{line}")


if __name__ == "__main__":
    main()
