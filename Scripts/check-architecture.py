#!/usr/bin/env python3
"""Checks docs/ARCHITECTURE.md's dependency table against Package.swift.

Usage: check-architecture.py [ARCHITECTURE.md] [PACKAGE-DUMP.json]

Reads the table between `<!-- architecture-table` and `<!-- end architecture-table -->` (one row
per target: `| target | dep, dep |`) and the manifest as `swift package dump-package` prints it
(run here unless a dump is given), and fails naming each target whose listed dependencies
differ, in either direction. Targets the table leaves out are not checked.
"""

import json
import re
import subprocess
import sys


def table(path):
    text = open(path, encoding="utf-8").read()
    block = re.search(r"<!-- architecture-table.*?-->(.*?)<!-- end architecture-table -->", text, re.S)
    if not block:
        sys.exit(f"{path}: no architecture table")
    rows = {}
    for line in block.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("target", "---") or set(cells[0]) <= set("- "):
            continue
        rows[cells[0]] = {d.strip() for d in cells[1].split(",") if d.strip()}
    return rows


def manifest(dump):
    if dump:
        data = json.load(open(dump, encoding="utf-8"))
    else:
        out = subprocess.run(["swift", "package", "dump-package"], check=True, capture_output=True, text=True)
        data = json.loads(out.stdout)
    deps = {}
    for target in data["targets"]:
        names = set()
        for dep in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dep:
                    names.add(dep[kind][0])
        deps[target["name"]] = names
    return deps


def main(argv):
    doc = argv[0] if argv else "docs/ARCHITECTURE.md"
    declared = manifest(argv[1] if len(argv) > 1 else None)
    drawn = table(doc)
    problems = []
    for target, deps in sorted(drawn.items()):
        if target not in declared:
            problems.append(f"{doc}: {target} is not a target of Package.swift")
            continue
        missing = declared[target] - deps
        extra = deps - declared[target]
        if missing:
            problems.append(f"{doc}: {target}: Package.swift also lists {', '.join(sorted(missing))}")
        if extra:
            problems.append(f"{doc}: {target}: Package.swift does not list {', '.join(sorted(extra))}")
    for line in problems:
        print(line)
    print(f"check-architecture: {len(drawn)} targets compared, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
