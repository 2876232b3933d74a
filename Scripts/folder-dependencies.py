#!/usr/bin/env python3
"""Prints which folders of a Swift module use which others, and fails on a cycle.

Usage: folder-dependencies.py Sources/MODULE...

A folder uses another when one of its files names a top-level type (struct, class, enum,
protocol, actor, typealias) declared in the other folder of the same module. Comments and string literals are
skipped. This is a name-level approximation (a local name that shadows a type reads as a use),
so it errs towards reporting too many edges, never too few. Exits 1 if any module's folder
graph has a cycle, naming one.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
strip_code = __import__("source-lengths").strip_code

# Top-level declarations only (a nested type is named through its parent, which is counted).
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|open)\s+)*"
    r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)",
    re.M)
IDENTIFIER = re.compile(r"\b[A-Z]\w*")


def module_graph(root):
    folders = {}
    for directory, _, names in os.walk(root):
        for name in names:
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                folder = os.path.relpath(directory, root).split(os.sep)[0]
                with open(path, encoding="utf-8") as f:
                    folders.setdefault(folder, []).append(strip_code(f.read()))
    owner = {}
    for folder, texts in folders.items():
        for text in texts:
            for name in DECLARATION.findall(text):
                owner.setdefault(name, folder)
    edges = {folder: set() for folder in folders}
    for folder, texts in folders.items():
        for text in texts:
            for name in set(IDENTIFIER.findall(text)):
                other = owner.get(name)
                if other and other != folder:
                    edges[folder].add(other)
    return edges


def find_cycle(edges):
    state = {}
    stack = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def main(roots):
    failed = False
    for root in roots:
        edges = module_graph(root)
        print(os.path.basename(root.rstrip("/")))
        for folder in sorted(edges):
            print(f"  {folder} -> {', '.join(sorted(edges[folder])) or '(none)'}")
        cycle = find_cycle(edges)
        if cycle:
            failed = True
            print("  cycle: " + " -> ".join(cycle))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
