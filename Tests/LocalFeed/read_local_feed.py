#!/usr/bin/env python3
"""Reads podcast-watch's local podcast feed the way podcast apps' parsers do.

Usage: read_local_feed.py FEED_URL [SOURCE_FILE ...]

Fetches FEED_URL, parses it with feedparser and with podcastparser (both from PyPI, installed
in the test venv by `make test-venv`), fetches every enclosure whole and again in two byte
ranges, and prints one JSON object: each parser's episodes (title, guid, enclosure url, length,
type, published as Unix seconds), and the sha256 of each enclosure as fetched whole and as
reassembled from the ranges, and of each SOURCE_FILE. The Swift test compares all of it with
the store and the files the loopback server served.
"""
import calendar
import hashlib
import json
import sys
import urllib.request

import feedparser
import podcastparser


def fetch(url, byte_range=None):
    request = urllib.request.Request(url)
    if byte_range:
        request.add_header("Range", "bytes=%s" % byte_range)
    with urllib.request.urlopen(request, timeout=20) as response:
        return response.status, response.read()


def main():
    feed_url = sys.argv[1]
    status, document = fetch(feed_url)
    parsed = feedparser.parse(document)
    from_feedparser = []
    for entry in parsed.entries:
        enclosure = entry.enclosures[0] if entry.enclosures else {}
        from_feedparser.append({
            "title": entry.get("title"),
            "guid": entry.get("id"),
            "url": enclosure.get("href"),
            "length": int(enclosure.get("length", -1)),
            "type": enclosure.get("type"),
            "published": calendar.timegm(entry.published_parsed) if entry.get("published_parsed") else None,
        })
    import io
    pod = podcastparser.parse(feed_url, io.BytesIO(document))
    from_podcastparser = []
    for episode in pod["episodes"]:
        enclosure = episode["enclosures"][0] if episode["enclosures"] else {}
        from_podcastparser.append({
            "title": episode.get("title"),
            "guid": episode.get("guid"),
            "url": enclosure.get("url"),
            "length": enclosure.get("file_size"),
            "type": enclosure.get("mime_type"),
            "published": episode.get("published"),
        })
    hashes = {}
    for item in from_feedparser:
        whole_status, whole = fetch(item["url"])
        half = item["length"] // 2
        first_status, first = fetch(item["url"], "0-%d" % (half - 1))
        rest_status, rest = fetch(item["url"], "%d-" % half)
        hashes[item["url"]] = {
            "whole": hashlib.sha256(whole).hexdigest(),
            "ranges": hashlib.sha256(first + rest).hexdigest(),
            "statuses": [whole_status, first_status, rest_status],
        }
    sources = {}
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            sources[path] = hashlib.sha256(f.read()).hexdigest()
    print(json.dumps({
        "status": status,
        "channel_title": parsed.feed.get("title"),
        "bozo": bool(parsed.bozo),
        "feedparser": from_feedparser,
        "podcastparser_title": pod.get("title"),
        "podcastparser": from_podcastparser,
        "enclosures": hashes,
        "sources": sources,
    }))


if __name__ == "__main__":
    main()
