#!/usr/bin/env python3
"""Checks that the docs quote the adoption client's code verbatim.

The client's sources and its Package.swift mark regions with `// snippet: NAME` and `// snippet-end`. A document
quotes one with a `<!-- snippet: NAME -->` line right before a ```swift block; the block must
equal the region (its common indentation removed). Every region must be quoted somewhere.

    python3 Examples/AdoptionClient/check-snippets.py     # from the repository's root

Exits 1 naming the document, its line and the first differing line, else prints a summary.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLIENT = ROOT / "Examples/AdoptionClient"
DOCS = [ROOT / "Docs/Guides/Adopting.md"] + sorted(
    ROOT.glob("Sources/*/*.docc/AdoptingInAnApp.md"))
MARK = re.compile(r"^\s*<!-- snippet: ([\w-]+) -->\s*$")


def dedent(lines):
    indents = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    cut = min(indents, default=0)
    return [line[cut:] for line in lines]


def regions():
    found = {}
    paths = [CLIENT / "Package.swift"] + sorted((CLIENT / "Sources").rglob("*.swift"))
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        name, start = None, 0
        for number, line in enumerate(lines, 1):
            opening = re.match(r"^\s*// snippet: ([\w-]+)\s*$", line)
            if opening:
                if name or opening.group(1) in found:
                    sys.exit(f"{path.relative_to(ROOT)}:{number}: snippet {opening.group(1)!r} "
                             "opens inside another or twice")
                name, start = opening.group(1), number
            elif line.strip() == "// snippet-end":
                if not name:
                    sys.exit(f"{path.relative_to(ROOT)}:{number}: snippet-end without a snippet")
                found[name] = dedent(lines[start:number - 1])
                name = None
        if name:
            sys.exit(f"{path.relative_to(ROOT)}:{start}: snippet {name!r} is never closed")
    return found


def main():
    snippets = regions()
    quoted, failures = set(), []
    for doc in DOCS:
        if not doc.exists():
            failures.append(f"{doc.relative_to(ROOT)}: missing")
            continue
        lines = doc.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            mark = MARK.match(line)
            if not mark:
                continue
            where, name = f"{doc.relative_to(ROOT)}:{number}", mark.group(1)
            if name not in snippets:
                failures.append(f"{where}: no snippet named {name!r} in the client's sources")
                continue
            if number >= len(lines) or lines[number].strip() != "```swift":
                failures.append(f"{where}: a ```swift block must follow the snippet mark")
                continue
            end = next((i for i in range(number + 1, len(lines))
                        if lines[i].strip() == "```"), None)
            if end is None:
                failures.append(f"{where}: the swift block is never closed")
                continue
            block = dedent(lines[number + 1:end])
            quoted.add(name)
            if block != snippets[name]:
                pairs = zip(block + ["<end>"], snippets[name] + ["<end>"])
                offset, (doc_line, source_line) = next(
                    (i, pair) for i, pair in enumerate(pairs) if pair[0] != pair[1])
                failures.append(f"{doc.relative_to(ROOT)}:{number + 2 + offset}: snippet {name!r} "
                                f"differs from the source: {doc_line.strip()!r} where the source "
                                f"has {source_line.strip()!r}")
    for name in sorted(set(snippets) - quoted):
        failures.append(f"snippet {name!r} is quoted by no document")
    for failure in failures:
        print(failure)
    if failures:
        sys.exit(1)
    print(f"snippets: {len(snippets)} regions, quoted verbatim in {len(DOCS)} documents")


main()
