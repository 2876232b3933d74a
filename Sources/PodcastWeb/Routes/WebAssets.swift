/// The dashboard's script and style sheet, served from `/static/` (same origin, so the
/// Content-Security-Policy can forbid inline script and every outside source). No build step,
/// no outside asset.
///
/// The script only makes the page live: it opens `/events` (Server-Sent Events) and applies
/// each `snapshot` or `update` event to the DOM, building elements with `textContent` only,
/// so text from a feed is never parsed as HTML in the browser either. The one exception is an
/// episode's show notes, loaded when its `<details>` opens: `show_notes_html` of
/// `/api/episodes/ID`, which is `HTMLSanitizer`'s output (allow-listed elements and attributes,
/// http/https/mailto URLs), and the CSP still forbids any script or outside image in it. Its
/// markup mirrors `DashboardPage.row` and `DashboardPage.item`.
public enum WebAssets {
    /// `/static/app.js`.
    public static let script = #"""
        "use strict";
        (function () {
          var meta = document.querySelector('meta[name="csrf"]');
          var csrf = meta ? meta.getAttribute("content") : "";
          var order = ["waiting", "polling", "ok", "backing-off", "failing", "disabled"];
          function el(tag, cls, text) {
            var e = document.createElement(tag);
            if (cls) e.className = cls;
            if (text !== undefined && text !== null) e.textContent = text;
            return e;
          }
          function display(iso) { return iso.replace("T", " ").slice(0, 16) + " UTC"; }
          function timeCell(iso) {
            var td = el("td");
            if (!iso) { td.textContent = "\u2014"; return td; }
            var t = el("time", null, display(iso));
            t.setAttribute("datetime", iso);
            td.appendChild(t);
            return td;
          }
          function action(path, label) {
            var f = el("form");
            f.method = "post";
            f.action = path;
            var i = el("input");
            i.type = "hidden"; i.name = "csrf"; i.value = csrf;
            f.appendChild(i);
            var b = el("button", null, label);
            b.type = "submit";
            f.appendChild(b);
            return f;
          }
          function row(feed) {
            var tr = el("tr");
            tr.id = "feed-" + feed.id;
            var name = el("td", "feed");
            name.appendChild(el("span", "title", feed.title || feed.url));
            name.appendChild(el("small", "url", feed.url));
            tr.appendChild(name);
            var st = el("td");
            st.appendChild(el("span", "status s-" + feed.status, feed.status));
            tr.appendChild(st);
            tr.appendChild(timeCell(feed.last_check));
            tr.appendChild(timeCell(feed.next_poll));
            tr.appendChild(el("td", "num", String(feed.episode_count)));
            var err = el("td", "error", feed.last_error || "");
            if (feed.hook_error) err.appendChild(el("small", "hook", "hook failing: " + feed.hook_error));
            var r = feed.hook_retry;
            if (r) {
              var text = "hook retry " + r.attempt + (r.attempts ? "/" + r.attempts : "") + " due " + display(r.due);
              if (r.error) text += ": " + r.error;
              if (r.pending > 1) text += " (" + r.pending + " episodes owe one)";
              err.appendChild(el("small", "hook", text));
            }
            tr.appendChild(err);
            var act = el("td", "actions");
            act.appendChild(action("/feeds/" + feed.id + "/poll", "Poll"));
            act.appendChild(action("/feeds/" + feed.id + "/remove", "Remove"));
            tr.appendChild(act);
            return tr;
          }
          function control(path, label, done) {
            var b = el("button", "control", label);
            b.type = "button";
            b.addEventListener("click", function () {
              b.disabled = true;
              fetch(path, { method: "POST", credentials: "same-origin",
                            headers: { "Content-Type": "application/json" }, body: "{}" })
                .then(function (r) { b.textContent = r.ok ? done : "failed (HTTP " + r.status + ")"; })
                .catch(function () { b.textContent = label; b.disabled = false; });
            });
            return b;
          }
          function item(e) {
            var li = el("li");
            li.appendChild(el("span", "podcast", e.podcast_title || ""));
            li.appendChild(document.createTextNode(" "));
            var href = e.link || e.url;
            var title = e.title || "(untitled)";
            if (href && /^https?:\/\//i.test(href)) {
              var a = el("a", null, title);
              a.setAttribute("href", href);
              a.setAttribute("rel", "noopener noreferrer nofollow");
              li.appendChild(a);
            } else {
              li.appendChild(el("span", "episode", title));
            }
            if (e.published) {
              li.appendChild(document.createTextNode(" "));
              var t = el("time", null, display(e.published));
              t.setAttribute("datetime", e.published);
              li.appendChild(t);
            }
            if (e.episode_id !== null && e.episode_id !== undefined) {
              li.appendChild(document.createTextNode(" "));
              li.appendChild(control("/api/episodes/" + e.episode_id + "/download", "Download", "queued"));
              var d = el("details", "notes");
              d.setAttribute("data-episode", String(e.episode_id));
              d.appendChild(el("summary", null, "Show notes"));
              li.appendChild(d);
            }
            return li;
          }
          function loadNotes(d) {
            if (d.getAttribute("data-loaded")) return;
            d.setAttribute("data-loaded", "loading");
            var old = d.querySelector(".notes-body");
            if (old) old.remove();  // an earlier attempt's error: try again
            var box = el("div", "notes-body", "Loading\u2026");
            d.appendChild(box);
            fetch("/api/episodes/" + encodeURIComponent(d.getAttribute("data-episode")), { credentials: "same-origin" })
              .then(function (r) { if (!r.ok) throw new Error("HTTP " + r.status); return r.json(); })
              .then(function (j) {
                var ep = j.episode || {};
                if (ep.show_notes_html) {
                  box.innerHTML = ep.show_notes_html;  // HTMLSanitizer's output only (see above)
                } else {
                  box.textContent = ep.description || "No show notes.";
                }
                d.setAttribute("data-loaded", "yes");
              })
              .catch(function (err) {
                box.textContent = "Could not load the show notes (" + err.message + "); close and open to retry.";
                d.removeAttribute("data-loaded");
              });
          }
          document.addEventListener("toggle", function (ev) {
            var d = ev.target;
            if (d && d.tagName === "DETAILS" && d.classList.contains("notes") && d.open) loadNotes(d);
          }, true);
          function countsText(c) {
            var parts = [c.feeds + (c.feeds === 1 ? " feed" : " feeds")];
            order.forEach(function (s) { if (c[s] > 0) parts.push(s + " " + c[s]); });
            parts.push(c.new_since_start + " new since start");
            return parts.join(" \u00b7 ");
          }
          function emptyRow() {
            var tr = el("tr", "empty");
            var td = el("td", null, "No feeds yet: add one above.");
            td.colSpan = 7;
            tr.appendChild(td);
            return tr;
          }
          function place(body, tr, id) {
            var rows = body.querySelectorAll("tr[id^='feed-']");
            for (var i = 0; i < rows.length; i++) {
              if (Number(rows[i].id.slice(5)) > id) { body.insertBefore(tr, rows[i]); return; }
            }
            body.appendChild(tr);
          }
          function showDownloads(d) {
            var list = document.getElementById("downloads");
            while (list.firstChild) list.removeChild(list.firstChild);
            d.active.forEach(function (x) {
              var li = el("li");
              li.id = "download-" + x.episode_id;
              li.setAttribute("data-bytes", String(x.bytes));
              li.appendChild(el("span", "podcast", x.podcast_title || ""));
              li.appendChild(document.createTextNode(" "));
              li.appendChild(el("span", "episode", x.episode_title || "(untitled)"));
              var bar = el("progress");
              if (x.total) { bar.max = x.total; bar.value = x.bytes; }
              li.appendChild(bar);
              li.appendChild(el("small", "bytes", x.bytes + (x.total ? " of " + x.total : "") + " bytes"));
              li.appendChild(document.createTextNode(" "));
              li.appendChild(control("/api/episodes/" + x.episode_id + "/cancel", "Cancel", "cancelled"));
              list.appendChild(li);
            });
            document.getElementById("downloads-summary").textContent = d.active.length + " downloading \u00b7 "
              + d.waiting + " waiting \u00b7 " + d.finished + " finished \u00b7 " + d.failed + " failed";
          }
          function apply(data, whole) {
            var body = document.getElementById("feeds");
            if (whole) { while (body.firstChild) body.removeChild(body.firstChild); }
            (data.removed || []).forEach(function (id) {
              var old = document.getElementById("feed-" + id);
              if (old) old.remove();
            });
            (data.feeds || []).forEach(function (feed) {
              var tr = row(feed);
              var old = document.getElementById(tr.id);
              if (old) body.replaceChild(tr, old); else place(body, tr, feed.id);
            });
            var empty = body.querySelector("tr.empty");
            var any = body.querySelector("tr[id^='feed-']");
            if (any && empty) empty.remove();
            if (!any && !empty) body.appendChild(emptyRow());
            if (data.episodes) {
              var list = document.getElementById("episodes");
              while (list.firstChild) list.removeChild(list.firstChild);
              data.episodes.forEach(function (e) { list.appendChild(item(e)); });
            }
            if (data.counts) document.getElementById("counts").textContent = countsText(data.counts);
            if (data.downloads) showDownloads(data.downloads);
            document.body.setAttribute("data-updates", String(Number(document.body.getAttribute("data-updates") || 0) + 1));
          }
          if (!window.EventSource) return;
          var live = document.getElementById("live");
          var source = new EventSource("/events");
          source.addEventListener("open", function () { live.hidden = false; });
          source.addEventListener("error", function () { live.hidden = true; });
          source.addEventListener("snapshot", function (m) { apply(JSON.parse(m.data), true); });
          source.addEventListener("update", function (m) { apply(JSON.parse(m.data), false); });
        })();

        """#

    /// `/static/app.css`: readable from a phone (the table scrolls sideways in its box).
    public static let style = """
        :root { color-scheme: light dark; --muted: #6b7280; --ok: #15803d; --bad: #b91c1c; --warn: #b45309; }
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 72rem; padding: 0 1rem 2rem; }
        header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 1rem; }
        h1 { font-size: 1.4rem; margin: 1rem 0 0.25rem; }
        h2 { font-size: 1.1rem; margin: 1.5rem 0 0.5rem; }
        #counts { color: var(--muted); margin: 0; }
        .live { color: var(--ok); margin: 0; }
        .live::before { content: "\\25CF "; }
        .tools { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
        .tools form, .import { display: flex; flex-wrap: wrap; gap: 0.4rem; }
        input[type=url] { min-width: 16rem; flex: 1; }
        input, button { font: inherit; padding: 0.3rem 0.5rem; }
        .table-wrap { overflow-x: auto; margin-top: 0.75rem; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid #8884; vertical-align: top; }
        td.feed { max-width: 22rem; overflow-wrap: anywhere; }
        .title { display: block; font-weight: 600; }
        .url { color: var(--muted); }
        .num { text-align: right; }
        .error { color: var(--bad); max-width: 18rem; overflow-wrap: anywhere; }
        .error .hook { display: block; color: var(--warn); }
        .actions { white-space: nowrap; }
        .actions form { display: inline; }
        .status { font-weight: 600; }
        .s-ok { color: var(--ok); }
        .s-failing, .s-disabled { color: var(--bad); }
        .s-backing-off { color: var(--warn); }
        .s-waiting, .s-polling { color: var(--muted); }
        .notice { padding: 0.5rem 0.75rem; border-radius: 0.3rem; background: #15803d22; }
        .notice.error { background: #b91c1c22; }
        #episodes { padding-left: 1.5rem; }
        #episodes li { margin: 0.2rem 0; overflow-wrap: anywhere; }
        .podcast { color: var(--muted); }
        time { color: var(--muted); white-space: nowrap; }
        details.notes { margin: 0.1rem 0 0.4rem; }
        details.notes summary { color: var(--muted); cursor: pointer; }
        .notes-body { border-left: 3px solid #8884; padding: 0 0.75rem; margin-top: 0.3rem; overflow-wrap: anywhere; }
        .notes-body img { max-width: 100%; height: auto; }
        #downloads progress { margin: 0 0.5rem; vertical-align: middle; }
        #downloads li { margin: 0.2rem 0; overflow-wrap: anywhere; }
        button.control { font-size: 0.85em; padding: 0.1rem 0.4rem; }
        @media (max-width: 40rem) { th:nth-child(4), td:nth-child(4) { display: none; } }

        """
}
