#!/usr/bin/env python3
"""Counts how the end-to-end tests check what the program printed or showed, as issue 43
reports it: whole-output comparisons against substring checks.

    python3 Tests/Scripts/output_checks.py [ROOT]

Whole: a call of expectRun, expectOutput or expectScreen; an `==` between a run's stdout,
stderr or a captured screen and an expected value; `.isEmpty` on stdout or stderr (the whole
output is nothing); and each command of a transcript (a `.console` snapshot, or a ```console
block of the README and docs/), whose whole output is compared.
Substring: `.contains(`, `.hasPrefix(` or `.hasSuffix(` on stdout, stderr, a screen or an
output. Counted apart: waits for a fragment of a tmux screen (`waitForText`, and a
`waitForScreen` condition), which are how a test keeps pace with the app more than checks.
"""
import glob
import os
import re
import sys

OUTPUT = r"(?:stdout|stderr|screen|output)"
SUBSTRING = re.compile(r"\b" + OUTPUT + r"\??\.(?:contains|hasPrefix|hasSuffix)\(")
WAIT = re.compile(r"\bwaitForText\(|\bwaitForScreen\(")
WHOLE = re.compile(
    r"\bexpect(?:Run|Output|Screen)\(|\b" + OUTPUT + r"\s*==|==\s*[\w.]*\b" + OUTPUT + r"\b(?!\.)|\b(?:stdout|stderr)\.isEmpty\b")


def transcript_steps(text):
    return sum(1 for line in text.split("\n") if line.startswith("$ "))


def console_blocks(text):
    steps, inside = 0, False
    for line in text.split("\n"):
        if line.startswith("```"):
            inside = line.strip() == "```console"
            continue
        if inside and line.startswith("$ "):
            steps += 1
    return steps


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    whole = substring = waits = 0
    for path in sorted(glob.glob(os.path.join(root, "Tests/EndToEndTests/**/*.swift"), recursive=True)):
        text = open(path, encoding="utf-8").read()
        # Declarations of the helpers are not checks.
        text = re.sub(r"func (?:expectRun|expectOutput|expectScreen|waitForText|waitForScreen)\(", "", text)
        whole += len(WHOLE.findall(text))
        substring += len(SUBSTRING.findall(text))
        waits += len(WAIT.findall(text))
    snapshots = sum(transcript_steps(open(p, encoding="utf-8").read())
                    for p in glob.glob(os.path.join(root, "Tests/EndToEndTests/**/*.console"), recursive=True))
    docs = [os.path.join(root, "README.md")] + glob.glob(os.path.join(root, "docs/*.md"))
    examples = sum(console_blocks(open(p, encoding="utf-8").read()) for p in docs if os.path.exists(p))
    print(f"whole-output comparisons in the end-to-end sources: {whole}")
    print(f"  commands of snapshot transcripts, each compared whole: {snapshots}")
    print(f"  commands of the docs' console examples, each compared whole: {examples}")
    print(f"  in all: {whole + snapshots + examples}")
    print(f"substring checks in the end-to-end sources: {substring}")
    print(f"waits for a fragment of a tmux screen (counted apart): {waits}")


if __name__ == "__main__":
    main()
