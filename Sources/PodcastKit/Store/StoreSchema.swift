/// The store's schema, as `PRAGMA user_version` migrations: step `i` takes version `i` to `i + 1`.
/// Append new steps; never edit a shipped one.
enum StoreSchema {
    static let migrations: [String] = [
        // 0 → 1: feeds, their URL history, episodes.
        """
        CREATE TABLE feeds (
            id INTEGER PRIMARY KEY,
            url TEXT NOT NULL UNIQUE,
            title TEXT,                      -- given by the user / OPML
            feed_title TEXT,                 -- from the channel
            link TEXT,
            image_url TEXT,
            added REAL NOT NULL,             -- Unix seconds
            interval_seconds INTEGER NOT NULL DEFAULT 3600,
            enabled INTEGER NOT NULL DEFAULT 1,
            etag TEXT,
            last_modified TEXT,
            last_check REAL,
            last_success REAL,
            failure_count INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            last_http_status INTEGER,
            next_poll REAL,
            status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'failing', 'gone')),
            new_episode_count INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE feed_url_history (
            id INTEGER PRIMARY KEY,
            feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
            old_url TEXT NOT NULL,
            new_url TEXT NOT NULL,
            changed_at REAL NOT NULL,
            reason TEXT NOT NULL             -- 'http-301', 'http-308', 'itunes:new-feed-url'
        );
        CREATE INDEX feed_url_history_feed ON feed_url_history(feed_id);
        CREATE TABLE episodes (
            id INTEGER PRIMARY KEY,
            feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
            identity TEXT NOT NULL,
            guid TEXT,
            title TEXT,
            link TEXT,
            published REAL,
            duration REAL,
            description TEXT,
            enclosure_url TEXT,
            enclosure_type TEXT,
            enclosure_length INTEGER,
            enclosure_key TEXT,              -- enclosure_url without query, for duplicate checks
            enclosures_json TEXT NOT NULL DEFAULT '[]',
            first_seen REAL NOT NULL,
            announced INTEGER NOT NULL DEFAULT 0,
            UNIQUE (feed_id, identity)
        );
        CREATE INDEX episodes_enclosure ON episodes(feed_id, enclosure_key);
        CREATE INDEX episodes_recent ON episodes(published DESC, first_seen DESC);
        """,
    ]
}
