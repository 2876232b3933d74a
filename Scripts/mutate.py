#!/usr/bin/env python3
"""`make mutate`: checks that the suite still catches the core promises' mutations.

Each line of Scripts/mutants.tsv names a source file, an exact text in it, a replacement and the
test(s) expected to fail. The mutants are applied one at a time to a scratch copy of the package
(by default $TMPDIR/loopmvvm-mutate-<uid>-<folder name>, kept between runs so each build is
incremental), each followed by an incremental `swift build --build-tests` and a
`swift test --skip-build --filter <its tests>`. First the named tests run once on the unmutated
copy: a test that fails there proves nothing. Prints a table; exits 1 if any mutant survived or
could not be judged (text not found or not unique, build failed, the filter ran no test).

Usage: Scripts/mutate.py [--list FILE] [--scratch DIR] [--only SUBSTRING ...]
Environment: SWIFT (default `swift`), MUTATE_TIMEOUT (seconds per test run, default 900).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT = os.environ.get("SWIFT", "swift")
TIMEOUT = int(os.environ.get("MUTATE_TIMEOUT", "900"))


class Mutant:
    def __init__(self, number, path, find, replace, tests, promise):
        self.number, self.path, self.find, self.replace = number, path, find, replace
        self.tests, self.promise = tests, promise
        self.result, self.seconds, self.detail = "", 0.0, ""


def unescape(text):
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            out.append({"n": "\n", "t": "\t", "\\": "\\"}.get(text[i + 1], "\\" + text[i + 1]))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def read_list(path):
    mutants = []
    with open(path, encoding="utf-8") as f:
        for line_number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 5:
                sys.exit(f"mutate: {path}:{line_number}: expected 5 TAB-separated fields, found {len(fields)}")
            mutants.append(
                Mutant(len(mutants) + 1, fields[0], unescape(fields[1]), unescape(fields[2]), fields[3], fields[4]))
    return mutants


def sync(scratch):
    """Copies the package's tracked and untracked (not ignored) files into `scratch`, rewriting only
    the files whose bytes differ, so that the scratch build stays incremental."""
    listed = subprocess.run(
        ["git", "-C", ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True).stdout.decode().split("\0")
    wanted = set()
    for name in filter(None, listed):
        source = os.path.join(ROOT, name)
        if not os.path.isfile(source) or os.path.islink(source):
            continue
        wanted.add(name)
        target = os.path.join(scratch, name)
        with open(source, "rb") as f:
            data = f.read()
        if os.path.isfile(target):
            with open(target, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
        shutil.copymode(source, target)
    # Files deleted from the package go from the scratch copy too (its build output stays).
    for folder in ("Sources", "Tests", "Examples"):
        for directory, _, files in os.walk(os.path.join(scratch, folder)):
            for name in files:
                relative = os.path.relpath(os.path.join(directory, name), scratch)
                if relative not in wanted:
                    os.remove(os.path.join(directory, name))


def run(arguments, cwd, log, timeout=None):
    with open(log, "w") as out:
        try:
            return subprocess.run(arguments, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            out.write(f"\nmutate: timed out after {timeout} s\n")
            return None


def tests_run(log):
    """Tests that ran, XCTest's and Swift Testing's together."""
    with open(log, errors="replace") as f:
        text = f.read()
    # A test that crashed the XCTest process leaves no "Executed" line, only its start.
    executed = re.findall(r"Executed (\d+) tests?,", text)
    count = int(executed[-1]) if executed else len(re.findall(r"Test Case '[^']*' started", text))
    count += sum(int(n) for n in re.findall(r"Test run with (\d+) tests?", text)[-1:])
    return count


def build(scratch, log):
    return run([SWIFT, "build", "--build-tests"], scratch, log)


def test(scratch, pattern, log):
    return run([SWIFT, "test", "--skip-build", "--filter", pattern], scratch, log, TIMEOUT)


def main():
    parser = argparse.ArgumentParser(description="Apply each listed mutant to a scratch copy; fail if one survives.")
    parser.add_argument("--list", default=os.path.join(ROOT, "Scripts", "mutants.tsv"))
    parser.add_argument(
        "--scratch",
        default=os.path.join(
            os.environ.get("TMPDIR", "/tmp"), f"loopmvvm-mutate-{os.getuid()}-{os.path.basename(ROOT)}"))
    parser.add_argument("--only", nargs="*", default=[], help="run only mutants whose line contains one of these")
    options = parser.parse_args()

    mutants = read_list(options.list)
    if options.only:
        mutants = [m for m in mutants if any(s in f"{m.path}\t{m.tests}\t{m.promise}" for s in options.only)]
    if not mutants:
        sys.exit("mutate: no mutants selected")
    scratch, logs = options.scratch, os.path.join(options.scratch, ".build", "mutate")
    started = time.monotonic()
    os.makedirs(scratch, exist_ok=True)
    sync(scratch)
    os.makedirs(logs, exist_ok=True)
    print(f"mutate: {len(mutants)} mutants, scratch copy {scratch}", flush=True)

    # Every mutation must apply to the current text, exactly once.
    originals = {}
    for m in mutants:
        path = os.path.join(scratch, m.path)
        if m.path not in originals:
            originals[m.path] = open(path, encoding="utf-8").read() if os.path.isfile(path) else None
        text = originals[m.path]
        found = 0 if text is None else text.count(m.find)
        if found != 1:
            m.result, m.detail = "ERROR", f"text found {found} times in {m.path}"

    # The unmutated copy: builds, and every named test passes there.
    if build(scratch, os.path.join(logs, "baseline-build.log")) != 0:
        sys.exit(f"mutate: the unmutated copy does not build (see {logs}/baseline-build.log)")
    # Each filter alone: it must run at least one test, and pass.
    for number, pattern in enumerate(sorted({m.tests for m in mutants if not m.result}), 1):
        baseline_log = os.path.join(logs, f"baseline-test-{number:02}.log")
        status = test(scratch, pattern, baseline_log)
        ran = tests_run(baseline_log)
        for m in mutants:
            if m.tests == pattern and not m.result and (status != 0 or ran == 0):
                m.result = "ERROR"
                m.detail = f"unmutated, the filter {'ran no test' if ran == 0 else 'fails'} ({baseline_log})"
    print("mutate: the unmutated copy builds; each filter runs and passes unless said below", flush=True)

    try:
        for m in mutants:
            if m.result:
                print(f"  #{m.number:<2} {m.result}: {m.detail}", flush=True)
                continue
            begin = time.monotonic()
            path = os.path.join(scratch, m.path)
            with open(path, "w", encoding="utf-8") as f:
                f.write(originals[m.path].replace(m.find, m.replace, 1))
            build_log = os.path.join(logs, f"{m.number:02}-build.log")
            test_log = os.path.join(logs, f"{m.number:02}-test.log")
            if build(scratch, build_log) != 0:
                m.result, m.detail = "ERROR", f"the mutant does not build ({build_log})"
            else:
                status = test(scratch, m.tests, test_log)
                ran = tests_run(test_log)
                if status is None:
                    m.result, m.detail = "caught", f"timed out after {TIMEOUT} s"
                elif ran == 0:
                    m.result, m.detail = "ERROR", f"the filter ran no test ({test_log})"
                elif status != 0:
                    m.result, m.detail = "caught", f"{ran} tests run"
                else:
                    m.result, m.detail = "SURVIVED", f"{ran} tests passed ({test_log})"
            with open(path, "w", encoding="utf-8") as f:
                f.write(originals[m.path])
            m.seconds = time.monotonic() - begin
            print(f"  #{m.number:<2} {m.result} in {m.seconds:.0f} s: {m.promise}", flush=True)
    finally:
        for relative, text in originals.items():
            if text is not None:
                with open(os.path.join(scratch, relative), "w", encoding="utf-8") as f:
                    f.write(text)

    print()
    print(f"{'#':>2}  {'result':<8}  {'s':>4}  {'file':<52}  test")
    for m in mutants:
        print(f"{m.number:>2}  {m.result:<8}  {m.seconds:>4.0f}  {m.path:<52}  {m.tests}")
    bad = [m for m in mutants if m.result != "caught"]
    total = time.monotonic() - started
    print(f"\nmutate: {len(mutants) - len(bad)} of {len(mutants)} caught in {total:.0f} s")
    for m in bad:
        print(f"mutate: #{m.number} {m.result}: {m.promise} ({m.detail})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
