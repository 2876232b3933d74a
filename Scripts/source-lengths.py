#!/usr/bin/env python3
"""Reports Swift files and functions that outgrow the layout rule.

Usage: source-lengths.py [--max-file N] [--max-function N] [--list] DIR...

A file counts its lines. A function is a `func`, `init`, `deinit`, `subscript` or computed
property (a `var` whose line opens a body), counted from its declaration line to the line of its
closing brace, blank lines and comments included (what a reader scrolls through). Braces inside
string literals (single-line, multi-line and raw) and comments are skipped. Exits 1 when anything
is over a limit, listing each offender; `--list` prints every function's length as well.
"""

import os
import re
import sys

DECL = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|"
    r"mutating|nonmutating|nonisolated|convenience|required|dynamic|lazy|isolated|consuming|"
    r"borrowing|indirect|private\(set\)|fileprivate\(set\)|internal\(set\)|public\(set\)|"
    r"package\(set\))\s+)*"
    r"(func\s+[^\s(<]+|init[?!]?|deinit|subscript|var\s+[A-Za-z_`][\w`]*)")


def strip_code(text):
    """Returns the text with string literals and comments blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:])):
            hashes = 0
            while text[i + hashes] == "#":
                hashes += 1
            j = i + hashes
            multi = text.startswith('"""', j)
            quote = '"""' if multi else '"'
            j += len(quote)
            close = quote + "#" * hashes
            escape = "\\" + "#" * hashes
            while j < n:
                if text.startswith(escape + "(", j):
                    # Interpolation: skip to its balanced closing parenthesis.
                    k, depth = j + len(escape) + 1, 1
                    while k < n and depth:
                        if text[k] == "(":
                            depth += 1
                        elif text[k] == ")":
                            depth -= 1
                        k += 1
                    j = k
                elif text.startswith(escape, j):
                    j += len(escape) + 1
                elif text.startswith(close, j):
                    j += len(close)
                    break
                elif not multi and text[j] == "\n":
                    break
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    """Yields (name, first line, length in lines) for each function-like body in the file."""
    with open(path, encoding="utf-8") as f:
        code = strip_code(f.read())
    lines = code.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for number, line in enumerate(lines):
        match = DECL.match(line)
        if not match:
            continue
        name = match.group(1)
        is_var = name.startswith("var")
        if is_var and ("{" not in line or re.search(r"=\s*[^=]", line.split("{")[0])):
            continue
        # Find the body's opening brace: the first `{` outside parentheses, brackets and angle
        # brackets, unless the declaration ends first (a requirement in a protocol).
        i = offsets[number] + match.end()
        depth, body = 0, None
        while i < len(code):
            c = code[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif c == "{" and depth == 0:
                body = i
                break
            elif c == "\n" and depth == 0:
                rest = code[i + 1:].lstrip()
                before = code[offsets[number]:i].rstrip()
                continues = rest.startswith(("->", "where", "throws", "async", "rethrows", "{", "."))
                if not continues and not before.endswith(("->", ",", "(", "&", ":", "where")):
                    break
            i += 1
        if body is None:
            continue
        depth, j = 0, body
        while j < len(code):
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        last = code.count("\n", 0, j)
        yield name, number + 1, last - number + 1


def main(argv):
    max_file, max_function, listing, roots = 600, 80, False, []
    args = iter(argv)
    for arg in args:
        if arg == "--max-file":
            max_file = int(next(args))
        elif arg == "--max-function":
            max_function = int(next(args))
        elif arg == "--list":
            listing = True
        else:
            roots.append(arg)
    files = sorted(
        os.path.join(d, f) for root in roots for d, _, fs in os.walk(root) for f in fs if f.endswith(".swift"))
    over, longest_file, longest_function, count = [], (0, ""), (0, ""), 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            length = sum(1 for _ in f)
        longest_file = max(longest_file, (length, path))
        if length > max_file:
            over.append(f"{path}: {length} lines (file limit {max_file})")
        for name, line, size in functions(path):
            count += 1
            where = f"{path}:{line} {name}"
            longest_function = max(longest_function, (size, where))
            if listing:
                print(f"{size:5} {where}")
            if size > max_function:
                over.append(f"{where}: {size} lines (function limit {max_function})")
    print(f"source-lengths: {len(files)} files, {count} functions; longest file {longest_file[0]} lines "
          f"({longest_file[1]}), longest function {longest_function[0]} lines ({longest_function[1]})")
    for line in over:
        print("  over: " + line)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
