#!/usr/bin/env python3
"""Every public type of the public libraries has a `///` doc comment (`make docs` and `make test` run it).

DocC builds a page for every public symbol whether or not it is documented, so an undocumented
type would not fail the docs build: this check does. It reads the sources as text: a `public` or
`open` class, struct, enum, protocol or actor (top level or nested) needs a `///` line (or the end
of a `/** */` block) directly above it, attributes allowed in between. Where OpenMapKit differs from
Apple's MapKit, that comment says so.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["OpenMapKit", "MapWindow"]
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:final|indirect|nonisolated)\s+)*(?:public|open)\s+"
                         r"(?:(?:final|indirect)\s+)*(class|struct|enum|protocol|actor)\s+(\w+)")
ATTRIBUTE = re.compile(r"^\s*@\w+(\(.*\))?\s*$")

undocumented, total = [], 0
for module in MODULES:
    for path in sorted((ROOT / "Sources" / module).rglob("*.swift")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            match = DECLARATION.match(line)
            if not match:
                continue
            total += 1
            above = number - 1
            while above >= 0 and ATTRIBUTE.match(lines[above]):
                above -= 1
            previous = lines[above].strip() if above >= 0 else ""
            if not (previous.startswith("///") or previous.endswith("*/")):
                undocumented.append(f"{path.relative_to(ROOT)}:{number + 1}: {match.group(1)} {match.group(2)}")
if undocumented:
    print(f"{len(undocumented)} of {total} public types have no doc comment:", *undocumented, sep="\n  ")
    sys.exit(1)
print(f"All {total} public types of {', '.join(MODULES)} have a doc comment.")
