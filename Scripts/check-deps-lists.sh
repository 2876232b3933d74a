#!/bin/sh
# `make test-deps-lists`: the Makefile's PKGS_RUN (what `make run` installs) is exactly what
# building podcast-watch needs: the system-library targets podcast-watch depends on, directly or
# through its modules, each with the pkg-config module and the apt provider Package.swift names.
# So `make run` neither misses a library (the build would fail on a fresh machine) nor installs
# one only the tests need (GTK, GLib).
set -eu
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}

needed=$($SWIFT package dump-package | python3 -c '
import json, sys
package = json.load(sys.stdin)
targets = {t["name"]: t for t in package["targets"]}
def names(target):
    for dependency in target["dependencies"]:
        for kind in ("byName", "target"):
            if kind in dependency:
                yield dependency[kind][0]
seen, queue = set(), ["podcast-watch"]
while queue:
    name = queue.pop()
    if name in seen or name not in targets:
        continue
    seen.add(name)
    queue.extend(names(targets[name]))
pairs = []
for name in sorted(seen):
    target = targets[name]
    if target["type"] == "system":
        apt = [p["apt"][0][0] for p in target.get("providers") or [] if "apt" in p]
        pairs.append(target["pkgConfig"] + ":" + (apt[0] if apt else "?"))
print("\n".join(sorted(pairs)))
')
listed=$(printf 'print-pkgs-run:\n\t@echo $(PKGS_RUN)\n' | make -s --no-print-directory -f Makefile -f - print-pkgs-run |
    tr ' ' '\n' | grep . | sort)
if [ "$needed" != "$listed" ]; then
    echo "test-deps-lists: FAILED: PKGS_RUN differs from podcast-watch's system libraries" >&2
    echo "needed (Package.swift):" >&2
    echo "$needed" >&2
    echo "listed (Makefile PKGS_RUN):" >&2
    echo "$listed" >&2
    exit 1
fi
echo "test-deps-lists: PKGS_RUN is exactly podcast-watch's $(echo "$needed" | wc -l) system libraries"
