#!/usr/bin/env python3
"""`make test-readme` (part of `make test`): the README's quick starts, run as written.

1. Library users: a scratch package whose manifest is the README's `Package.swift` lines (the
   dependency's URL replaced by a path to this repository, through a link named as the URL's
   last component, so the `package:` name the README uses is the one SwiftPM gives it) and whose
   program is the README's "pattern in 25 lines"; it must build and print what
   Examples/ReadmePattern/expected-output.txt says.
2. Self-hosters, from source: the commands of "From source, with your own feeds", one by one, in
   a scratch HOME (so the state and config are the scratch's), with the README's placeholder
   feed URL served by a loopback server (a bundled sample feed), `FEED.xml` a sample file, and
   the dashboard's port a free one; `run --http` is started, its dashboard asked for the feed,
   then stopped with SIGTERM. The Debian package's commands are run by `make test-deb`
   (Scripts/test-deb-installed.sh) inside its throwaway system, from `--deb-commands`.

A README edit that breaks a command fails this test. Usage: Scripts/test-readme.py [--deb-commands]
(the latter prints the Debian quick start's commands after `dpkg -i`, for test-deb).
Environment: SWIFT (default `swift`).
"""

import http.server
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWIFT = os.environ.get("SWIFT", "swift")
PLACEHOLDER_FEED = "https://feeds.example.org/show.xml"
SAMPLES = os.path.join(ROOT, "Sources", "podcast-watch", "SampleFeeds")


def fail(message):
    sys.exit(f"test-readme: FAILED: {message}")


def section_blocks(heading):
    """The fenced blocks (language, text) under `heading` up to the next heading."""
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    start = text.find("\n" + heading + "\n")
    if start < 0:
        fail(f"the README has no section '{heading}'")
    rest = text[start + len(heading) + 2:]
    following = re.search(r"^#{1,6} ", rest, re.M)
    body = rest[:following.start()] if following else rest
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^```(\w*)\n(.*?)^```\s*$", body, re.M | re.S)]


def commands(block):
    """The command lines of a shell block, comments after `#` dropped."""
    lines = []
    for line in block.splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def run(arguments, **options):
    result = subprocess.run(arguments, capture_output=True, text=True, **options)
    if result.returncode != 0:
        fail(f"{shlex.join(arguments)} exited {result.returncode}:\n{result.stdout}{result.stderr}")
    return result.stdout


# 1. Library users.
def library_quick_start(scratch):
    manifest = [text for language, text in section_blocks("### Library users: Package.swift") if language == "swift"]
    program = [text for language, text in section_blocks("## The pattern in 25 lines") if language == "swift"]
    if len(manifest) != 1 or len(program) != 1:
        fail("expected one Package.swift block and one program in the README")
    lines = manifest[0]
    url = re.search(r'\.package\(url: "([^"]+)"[^)]*\)', lines)
    if not url:
        fail("the README's Package.swift lines name no .package(url:)")
    name = re.sub(r"\.git$", "", url.group(1).rstrip("/").rsplit("/", 1)[-1])
    # The repository under the name SwiftPM would give the URL (a path dependency is named by
    # its folder).
    os.symlink(ROOT, os.path.join(scratch, name))
    package = os.path.join(scratch, "app")
    os.makedirs(os.path.join(package, "Sources", "App"))
    lines = lines.replace(url.group(0), f'.package(path: "../{name}")')
    with open(os.path.join(package, "Package.swift"), "w") as f:
        f.write("// swift-tools-version:6.0\nimport PackageDescription\n\nlet package = Package(\n"
                f'    name: "App",\n{lines}\n)\n')
    with open(os.path.join(package, "Sources", "App", "main.swift"), "w") as f:
        f.write(program[0])
    run([SWIFT, "build"], cwd=package)
    binary = os.path.join(run([SWIFT, "build", "--show-bin-path"], cwd=package).strip(), "App")
    out = run([binary])
    expected = open(os.path.join(ROOT, "Examples", "ReadmePattern", "expected-output.txt")).read()
    if out != expected:
        fail(f"the README's program printed {out!r}, expected {expected!r}")
    print(f"test-readme: the README's Package.swift lines ({name}) and its program build and run")


# 2. Self-hosters, from source.
class Feeds(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path = os.path.join(SAMPLES, "tidepool-radio.xml") if self.path == "/show.xml" else None
        if path is None:
            self.send_response(404)
            self.end_headers()
            return
        body = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def source_quick_start(scratch):
    blocks = [text for _, text in section_blocks("### From source, with your own feeds")]
    if len(blocks) != 1:
        fail("expected one block in 'From source, with your own feeds'")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feeds)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    feed_url = f"http://127.0.0.1:{server.server_address[1]}/show.xml"
    home = os.path.join(scratch, "home")
    os.makedirs(home)
    env = {"PATH": os.environ["PATH"], "HOME": home, "LANG": "C.UTF-8"}
    ran = []
    try:
        for line in commands(blocks[0]):
            line = line.replace(PLACEHOLDER_FEED, feed_url)
            line = line.replace("FEED.xml", os.path.join(SAMPLES, "the-slow-build.xml"))
            arguments = shlex.split(line)
            if arguments[0] == "swift":
                arguments[0] = SWIFT
            if arguments[0] == "make":
                arguments.append(f"SWIFT={SWIFT}")
            if "run" in arguments and "--http" in arguments:
                port = free_port()
                arguments[arguments.index("--http") + 1] = str(port)
                dashboard(arguments, env, port, feed_url)
            else:
                out = run(arguments, cwd=ROOT, env=env)
                if arguments[1:2] == ["add"] and "Subscribed to Tidepool Radio" not in out:
                    fail(f"add printed {out!r}")
                if "show" in arguments and '"title":"The Slow Build"' not in out:
                    fail(f"show printed no channel title: {out[:200]!r}")
            ran.append(arguments[1] if arguments[0].endswith("podcast-watch") else arguments[0])
    finally:
        server.shutdown()
    print(f"test-readme: the README's from-source commands ran: {', '.join(ran)}")


def dashboard(arguments, env, port, feed_url):
    """`run --http PORT` until its dashboard lists the feed, then SIGTERM: it must exit 0."""
    daemon = subprocess.Popen(arguments + ["--json"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        listed = False
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/feeds", timeout=5) as response:
                    listed = feed_url in response.read().decode()
                if listed:
                    break
            except OSError:
                pass
            if daemon.poll() is not None:
                break
            time.sleep(0.05)
        if not listed:
            fail(f"the dashboard on port {port} never listed {feed_url}")
    finally:
        if daemon.poll() is None:
            daemon.send_signal(signal.SIGTERM)
        status = daemon.wait(timeout=30)
        errors = daemon.stderr.read()
    if status != 0:
        fail(f"run --http exited {status}: {errors}")


def deb_commands():
    """The Debian quick start's commands after `dpkg -i`, with the placeholder feed a sample."""
    blocks = [text for _, text in section_blocks("### Self-hosting: the Debian package")]
    lines = commands(blocks[0])
    installed = [i for i, line in enumerate(lines) if "dpkg -i" in line]
    if not installed:
        fail("the Debian quick start has no 'dpkg -i' line")
    sample = "file:///usr/share/podcast-watch/samples/the-slow-build.xml"
    for line in lines[installed[0] + 1:]:
        print(line.replace(PLACEHOLDER_FEED, sample))


def main():
    if sys.argv[1:] == ["--deb-commands"]:
        deb_commands()
        return
    scratch = tempfile.mkdtemp(prefix="podcast-watch-readme.")
    try:
        source_quick_start(scratch)
        library_quick_start(scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
