#!/usr/bin/env python3
"""The web dashboard in a real browser (Debian's chromium, headless), driven over the
Chrome DevTools Protocol with a minimal WebSocket client (Python standard library only).

Against `podcast-watch run --http` polling feeds from a loopback HTTP server, it checks that:
  1. the page loads and shows the feeds, with a hostile feed title shown as text (no <img>
     element made, no dialog opened, no script run);
  2. the page updates live (no reload) when a feed gains an episode and is polled;
  3. adding a feed from the form works (the new feed appears, then its title once polled);
  4. with scripts off the page still lists the feeds;
  5. no JavaScript dialog opened at any time;
  6. an episode downloaded with its Download button shows its progress live on the page (bytes
     grow, it offers Cancel, then it is counted finished) and is served back at its media URL;
and takes a screenshot of the dashboard.

Exit status 0 on success, 1 on a failed check, 0 with a line starting "SKIP:" only when the
browser cannot start (missing, or unable to run on this machine).

Usage: dashboard_test.py --binary PATH/podcast-watch [--screenshot FILE.png]
"""
import argparse
import base64
import http.server
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HOSTILE = "<img src=x onerror=alert(1)></script><script>alert(2)</script>"


def xml_escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# Show notes with a script, event handlers and javascript: URLs around harmless markup.
NOTES = ("<p>Crabs <b>swap shells</b> in <a href=\"https://example.org/shells\" onclick=\"alert(5)\">chains</a>.</p>"
         "<script>alert(6)</script><img src=\"https://example.org/x.png\" onerror=\"alert(7)\">"
         "<a href=\"javascript:alert(8)\">more</a>")


def rss(title, items):
    entries = "".join(
        "<item><guid>{0}</guid><title>{1}</title><link>https://example.org/{0}</link>"
        "<pubDate>{2}</pubDate>{3}<enclosure url=\"https://example.org/{0}.mp3\" type=\"audio/mpeg\" length=\"1\"/></item>".format(
            item[0], xml_escape(item[1]), item[2],
            "<description>{}</description>".format(xml_escape(item[3])) if len(item) > 3 else "")
        for item in items)
    return ("<?xml version=\"1.0\" encoding=\"utf-8\"?><rss version=\"2.0\"><channel><title>{}</title>"
            "<link>https://example.org/</link>{}</channel></rss>").format(xml_escape(title), entries).encode()


SLOW_MEDIA = bytes((i * 31 + 7) % 251 for i in range(1_500_000))


class Feeds(http.server.BaseHTTPRequestHandler):
    feeds = {}
    lock = threading.Lock()

    def do_GET(self):
        if self.path == "/slow.mp3":
            # 1.5 MB in 50 pieces 50 ms apart: long enough for the page to see it grow.
            self.send_response(200)
            self.send_header("Content-Type", "audio/mpeg")
            self.send_header("Content-Length", str(len(SLOW_MEDIA)))
            self.end_headers()
            for start in range(0, len(SLOW_MEDIA), 30000):
                self.wfile.write(SLOW_MEDIA[start:start + 30000])
                self.wfile.flush()
                time.sleep(0.05)
            return
        with Feeds.lock:
            body = Feeds.feeds.get(self.path)
        if body is None:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/rss+xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class WebSocket:
    """RFC 6455 client, text frames only: enough for the DevTools protocol."""

    def __init__(self, url):
        match = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        host, port, path = match.group(1), int(match.group(2)), match.group(3)
        self.sock = socket.create_connection((host, port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            ("GET {} HTTP/1.1\r\nHost: {}:{}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: {}\r\nSec-WebSocket-Version: 13\r\n\r\n").format(path, host, port, key).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError("websocket handshake failed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake refused: " + head.decode(errors="replace"))
        self.buffer = b""

    def send(self, text):
        payload = text.encode()
        header = bytearray([0x81])
        n = len(payload)
        if n < 126:
            header.append(0x80 | n)
        elif n < 65536:
            header += bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            header += bytes([0x80 | 127]) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        header += mask
        self.sock.sendall(bytes(header) + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise RuntimeError("websocket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = int.from_bytes(self._read(2), "big")
            elif n == 127:
                n = int.from_bytes(self._read(8), "big")
            payload = self._read(n)
            opcode = b0 & 0x0F
            if opcode == 0x9 or opcode == 0xA:  # ping / pong: ignored
                continue
            if opcode == 0x8:
                raise RuntimeError("websocket closed by the browser")
            message += payload
            if b0 & 0x80:
                return message.decode()


class DevTools:
    def __init__(self, url):
        self.ws = WebSocket(url)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.receive())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError("{}: {}".format(method, message["error"]))
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError("script failed: {}: {}".format(expression, result["exceptionDetails"]))
        return result["result"].get("value")

    def wait_for(self, expression, timeout=15, what=None):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if self.evaluate(expression):
                    return True
            except RuntimeError:
                pass  # the page is navigating
            time.sleep(0.1)
        raise AssertionError("timed out waiting for " + (what or expression))

    def dialogs(self):
        return [e for e in self.events if e.get("method") == "Page.javascriptDialogOpening"]


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok: " + message)


def start_browser(workdir):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        return None, "chromium is not installed (make deps installs it)"
    profile = os.path.join(workdir, "profile")
    process = subprocess.Popen(
        [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--no-default-browser-check", "--remote-debugging-port=0",
         "--remote-debugging-address=127.0.0.1", "--user-data-dir=" + profile, "--window-size=1100,760",
         "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    lines = []
    while time.time() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        lines.append(line)
        match = re.search(r"DevTools listening on (ws://\S+)", line)
        if match:
            threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
            return (process, match.group(1)), None
    process.kill()
    return None, "chromium did not start: " + "".join(lines[-5:]).strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshot")
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="pw-browser-")
    processes = []
    try:
        browser, why = start_browser(workdir)
        if browser is None:
            print("SKIP: browser test: " + why)
            return 0
        processes.append(browser[0])

        Feeds.feeds["/tidepool.xml"] = rss("Tidepool Radio", [
            ("tp-1", "Barnacles Stand Their Ground", "Mon, 20 May 2024 06:00:00 GMT"),
            ("tp-2", "Anemones Never Hurry", "Mon, 27 May 2024 06:00:00 GMT")])
        Feeds.feeds["/hostile.xml"] = rss(HOSTILE, [("h-1", "</script><svg onload=alert(3)>", "Tue, 04 Jun 2024 06:00:00 GMT")])
        Feeds.feeds["/slow-build.xml"] = rss("The Slow Build", [
            ("sb-1", "Chapter 1: The Quote", "Sat, 14 Sep 2024 08:00:00 GMT")])
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feeds)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = "http://127.0.0.1:{}".format(server.server_address[1])

        state = os.path.join(workdir, "state")
        for path in ["/tidepool.xml", "/hostile.xml"]:
            subprocess.run([args.binary, "--state", state, "add", base + path], check=True, stdout=subprocess.DEVNULL)
        daemon = subprocess.Popen(
            [args.binary, "--state", state, "run", "--json", "--interval", "1d", "--http", "127.0.0.1:0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, XDG_DATA_HOME=os.path.join(workdir, "data")))  # downloads land there
        processes.append(daemon)
        dashboard = None
        deadline = time.time() + 30
        while time.time() < deadline and dashboard is None:
            line = daemon.stderr.readline()
            if not line:
                break
            match = re.search(r"dashboard at (http://\S+/)", line)
            if match:
                dashboard = match.group(1)
        check(dashboard is not None, "the daemon printed its dashboard URL")
        threading.Thread(target=lambda: daemon.stderr.read(), daemon=True).start()

        with urllib.request.urlopen(browser[1].replace("ws://", "http://").split("/devtools")[0] + "/json/list") as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        devtools = DevTools(pages[0]["webSocketDebuggerUrl"])
        devtools.call("Page.enable")
        devtools.call("Runtime.enable")
        devtools.call("Page.navigate", url=dashboard)
        devtools.wait_for("document.readyState === 'complete' && !!document.getElementById('feeds')", what="the page")

        # 1. The feeds, once both first polls finished; the hostile title as text.
        devtools.wait_for(
            "document.querySelectorAll('#feeds tr[id^=\"feed-\"] .s-ok').length === 2", what="both feeds ok")
        titles = devtools.evaluate(
            "Array.from(document.querySelectorAll('#feeds .title')).map(e => e.textContent)")
        check(titles == ["Tidepool Radio", HOSTILE], "the page lists both feeds, the hostile title as text: {}".format(titles))
        check(devtools.evaluate("document.images.length") == 0, "no <img> element was made from a feed")
        check(devtools.evaluate("document.scripts.length") == 1, "the only script is /static/app.js")
        devtools.wait_for("!document.getElementById('live').hidden", what="the live event stream")
        check(True, "the page opened its event stream")

        # 2. Live: feed 1 gains an episode and is polled; the page changes without a reload.
        devtools.evaluate("window.__notReloaded = true")
        before = devtools.evaluate("document.querySelector('#feed-1 .num').textContent")
        Feeds.feeds["/tidepool.xml"] = rss("Tidepool Radio", [
            ("tp-1", "Barnacles Stand Their Ground", "Mon, 20 May 2024 06:00:00 GMT"),
            ("tp-2", "Anemones Never Hurry", "Mon, 27 May 2024 06:00:00 GMT"),
            ("tp-3", "The Hermit Crab Housing Market", "Mon, 03 Jun 2024 06:00:00 GMT", NOTES)])
        request = urllib.request.Request(
            dashboard + "api/feeds/1/poll", data=b"{}", method="POST", headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request) as r:
            check(r.status == 202, "POST /api/feeds/1/poll was accepted")
        devtools.wait_for("document.querySelector('#feed-1 .num').textContent === '3'", what="the new episode count")
        check(before == "2", "feed 1 had 2 episodes before the poll")
        check(devtools.evaluate("window.__notReloaded === true"), "the page updated live, without a reload")
        check("The Hermit Crab Housing Market" in devtools.evaluate("document.getElementById('episodes').textContent"),
              "the new episode is in the newest-episodes list")

        # 2b. Its show notes open in place: the sanitiser's markup, no script, handler or javascript: URL.
        opened = devtools.evaluate(
            "(function () { var li = Array.from(document.querySelectorAll('#episodes li'))"
            ".find(function (l) { return l.textContent.indexOf('Hermit Crab') >= 0; });"
            " var d = li && li.querySelector('details.notes'); if (!d) return false; d.open = true; return true; })()")
        check(opened, "the new episode offers its show notes")
        devtools.wait_for("!!document.querySelector('details.notes[data-loaded=\"yes\"] .notes-body b')",
                          what="the show notes")
        notes = devtools.evaluate("document.querySelector('details.notes[data-loaded=\"yes\"] .notes-body').innerHTML")
        check("<b>swap shells</b>" in notes and 'href="https://example.org/shells"' in notes,
              "the show notes keep their markup: {}".format(notes))
        for bad in ["<script", "onclick", "onerror", "javascript:"]:
            check(bad not in notes.lower(), "the show notes carry no {}: {}".format(bad, notes))
        check(devtools.evaluate("document.scripts.length") == 1, "the show notes added no script")

        # 3. Add a feed from the form (a plain form post, then the page again).
        devtools.evaluate(
            "document.querySelector('form.add input[name=url]').value = '{}/slow-build.xml';"
            "document.querySelector('form.add').requestSubmit(); true".format(base))
        try:
            devtools.wait_for("location.search === '?done=added' && document.readyState === 'complete'", what="the form post")
        except AssertionError:
            print(devtools.evaluate("location.href + ' ' + document.body.innerText.slice(0, 300)"))
            raise
        check("Feed added" in devtools.evaluate("document.querySelector('.notice').textContent"), "the page says the feed was added")
        devtools.wait_for(
            "(document.querySelector('#feed-3 .title') || {}).textContent === 'The Slow Build'",
            what="the added feed's title after its first poll")
        check(True, "the feed added from the form was polled and shows its title")

        # 4. With scripts off the page still lists everything (server-rendered), minus the live part.
        devtools.call("Emulation.setScriptExecutionDisabled", value=True)
        devtools.call("Page.navigate", url=dashboard)
        devtools.wait_for("document.readyState === 'complete' && location.search === ''", what="the page without scripts")
        rows = devtools.evaluate("document.querySelectorAll('#feeds tr[id^=\"feed-\"]').length")
        check(rows == 3, "with scripts off the page lists the 3 feeds ({})".format(rows))
        check(devtools.evaluate("document.getElementById('live').hidden") is True, "with scripts off there is no live part")
        devtools.call("Emulation.setScriptExecutionDisabled", value=False)
        devtools.call("Page.navigate", url=dashboard)
        devtools.wait_for("!document.getElementById('live').hidden", what="the live page again")

        # 6. A download asked for through the API: its progress grows on the page, live.
        Feeds.feeds["/mirror.xml"] = (
            "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Mirror</title><item><guid>m-1</guid>"
            "<title>Long Tide</title><pubDate>Sun, 06 Oct 2024 06:00:00 GMT</pubDate>"
            "<enclosure url=\"{}/slow.mp3\" type=\"audio/mpeg\" length=\"{}\"/></item></channel></rss>").format(
                base, len(SLOW_MEDIA)).encode()
        add = urllib.request.Request(
            dashboard + "api/feeds", data=json.dumps({"url": base + "/mirror.xml"}).encode(), method="POST",
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(add) as r:
            feed_id = json.load(r)["feed"]["id"]
        episode_id = None
        deadline = time.time() + 15
        while episode_id is None and time.time() < deadline:
            with urllib.request.urlopen(dashboard + "api/episodes?feed={}".format(feed_id)) as r:
                episodes = json.load(r)["episodes"]
            episode_id = episodes[0]["id"] if episodes else None
            time.sleep(0.05)
        check(episode_id is not None, "the mirror feed was polled")
        # Its Download button in the newest-episodes list (a JSON POST from the page).
        devtools.wait_for(
            "Array.from(document.querySelectorAll('#episodes li')).some(l => l.textContent.indexOf('Long Tide') >= 0)",
            what="the mirror episode in the newest list")
        clicked = devtools.evaluate(
            "(function () { var li = Array.from(document.querySelectorAll('#episodes li'))"
            ".find(function (l) { return l.textContent.indexOf('Long Tide') >= 0; });"
            " var b = li && li.querySelector('button.control'); if (!b) return false; b.click(); return true; })()")
        check(clicked, "the episode offers a Download button, clicked")
        row = "document.getElementById('download-{}')".format(episode_id)
        devtools.wait_for("!!{0} && Number({0}.getAttribute('data-bytes')) > 0".format(row), what="the download row")
        first = devtools.evaluate("Number({}.getAttribute('data-bytes'))".format(row))
        devtools.wait_for("!!{0} && Number({0}.getAttribute('data-bytes')) > {1}"
                          " && {0}.querySelector('button.control').textContent === 'Cancel'".format(row, first),
                          what="the download's bytes growing, with its Cancel button")
        check("Long Tide" in devtools.evaluate("document.getElementById('downloads').textContent"),
              "the download row names the episode")
        devtools.wait_for("document.getElementById('downloads-summary').textContent.indexOf('1 finished') >= 0",
                          what="the download finished")
        check(devtools.evaluate("document.querySelectorAll('#downloads li').length") == 0,
              "the finished download left the list")
        with urllib.request.urlopen(dashboard + "api/episodes/{}".format(episode_id)) as r:
            media_url = json.load(r)["episode"]["media_url"]
        with urllib.request.urlopen(media_url) as r:
            check(r.read() == SLOW_MEDIA, "the downloaded file is served back at {}".format(media_url))

        # 5. No dialog at any time; the screenshot.
        time.sleep(0.5)
        devtools.call("Runtime.evaluate", expression="1")  # collects pending events
        check(devtools.dialogs() == [], "no JavaScript dialog opened")
        if args.screenshot:
            devtools.evaluate("window.scrollTo(0, 0); true")
            shot = devtools.call("Page.captureScreenshot", format="png")
            os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            print("ok: screenshot written to " + args.screenshot)
        server.shutdown()
        return 0
    except AssertionError as failure:
        print("FAIL: " + str(failure))
        return 1
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
