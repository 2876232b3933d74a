import PodcastFeeds

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
        // 1 → 2: announcements waiting to be delivered (output written, hook started). Rows of an
        // older file were announced by a version that had no such state: they count as delivered.
        """
        ALTER TABLE episodes ADD COLUMN announce_pending INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX episodes_announce_pending ON episodes(feed_id) WHERE announce_pending;
        """,
        // 2 → 3: interval_seconds becomes nullable, NULL meaning "the default" (so `run
        // --interval` can tell it from an explicit 3600). Version 1 stored the default as 3600,
        // indistinguishable from an explicit 1h: those become NULL, as the daemon treated them.
        """
        ALTER TABLE feeds ADD COLUMN own_interval INTEGER CHECK (own_interval IS NULL OR own_interval >= 1);
        UPDATE feeds SET own_interval = NULLIF(interval_seconds, 3600);
        ALTER TABLE feeds DROP COLUMN interval_seconds;
        ALTER TABLE feeds RENAME COLUMN own_interval TO interval_seconds;
        """,
        // 3 → 4: feed ids are never reused (scripts key on them). SQLite's plain rowid takes
        // max(id) + 1, so removing the newest feed handed its id to the next `add`. A high-water
        // mark rather than AUTOINCREMENT: turning the key into AUTOINCREMENT means rebuilding
        // `feeds`, which episodes and the URL history reference with ON DELETE CASCADE. `add`
        // takes `high + 1`; the trigger raises the mark on every insert, whatever its source.
        // (A feed removed before this version may have had its id given away already.)
        """
        CREATE TABLE feed_id_high_water (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            high INTEGER NOT NULL
        );
        INSERT INTO feed_id_high_water VALUES (1, coalesce((SELECT max(id) FROM feeds), 0));
        CREATE TRIGGER feeds_raise_id_high_water AFTER INSERT ON feeds BEGIN
            UPDATE feed_id_high_water SET high = max(high, NEW.id);
        END;
        """,
        // 4 → 5: the outcome of the last hook run per feed (after its retries), so `list` and
        // the views show a failing hook. NULL: no hook failed since the last success.
        """
        ALTER TABLE feeds ADD COLUMN hook_error TEXT;
        """,
        // Hook attempts still owed (a retry waiting out its delay, a hook killed at shutdown),
        // so a stop or a crash loses none: read back at the next start. A new table only, so it
        // stacks on any other branch's migration.
        """
        CREATE TABLE hook_retries (
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            attempt INTEGER NOT NULL CHECK (attempt >= 1),   -- the attempt to run next (1-based)
            due REAL NOT NULL,                               -- Unix seconds
            last_error TEXT                                  -- how the previous attempt ended
        );
        """,
        // Downloads: one row per episode queued for download, and two per-feed
        // settings (NULL: follow `run`'s). Only new tables and added columns, so it stacks on
        // other migrations in any order. `path` is the final file; `path || '.part'` holds the
        // bytes until it is complete. A row is the store's proof that it created the file:
        // retention deletes nothing else.
        """
        ALTER TABLE feeds ADD COLUMN download INTEGER CHECK (download IS NULL OR download IN (0, 1));
        ALTER TABLE feeds ADD COLUMN keep INTEGER CHECK (keep IS NULL OR keep >= 0);
        CREATE TABLE downloads (
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
            url TEXT NOT NULL,
            path TEXT NOT NULL UNIQUE,
            state TEXT NOT NULL DEFAULT 'pending'
                CHECK (state IN ('pending', 'downloading', 'done', 'failed', 'deleted')),
            bytes INTEGER NOT NULL DEFAULT 0,
            total INTEGER,
            etag TEXT,
            last_modified TEXT,
            attempts INTEGER NOT NULL DEFAULT 0,
            error TEXT,
            next_retry REAL,
            queued REAL NOT NULL,
            finished REAL,
            seconds REAL
        );
        CREATE INDEX downloads_feed_done ON downloads(feed_id, finished) WHERE state = 'done';
        """,
        // The attempt limit in force when a hook retry was recorded (`run --hook-retries` + 1),
        // so `list` can say "retry 2/4" (NULL for rows written before). An added column only.
        """
        ALTER TABLE hook_retries ADD COLUMN attempts INTEGER CHECK (attempts IS NULL OR attempts >= 1);
        """,
        // An episode's show notes as the web dashboard shows them: `Episode.showNotesHTML`, the
        // sanitiser's output (NULL: the item had no HTML body, or was stored before this column
        // and its feed has not been fetched since). An added column only.
        """
        ALTER TABLE episodes ADD COLUMN show_notes_html TEXT;
        """,
        // The local podcast feeds: one long random secret per feed (feed_id 0: the whole
        // library) carried in the feed's URL, since podcast apps send no bearer header; rotating
        // one replaces its row. And downloads asked for from the command line (`download
        // --episode`, `--all`) that only a running daemon can name and start: it takes them at
        // its next start or SIGHUP. New tables only, so it stacks on other migrations.
        """
        CREATE TABLE local_feed_secrets (
            feed_id INTEGER PRIMARY KEY,                     -- 0: the whole library
            secret TEXT NOT NULL UNIQUE
        );
        CREATE TRIGGER feeds_drop_local_feed_secret AFTER DELETE ON feeds BEGIN
            DELETE FROM local_feed_secrets WHERE feed_id = OLD.id;
        END;
        CREATE TABLE download_requests (
            episode_id INTEGER PRIMARY KEY REFERENCES episodes(id) ON DELETE CASCADE,
            requested REAL NOT NULL                          -- Unix seconds
        );
        """,
        // The show's `podcast:guid` as its last parsed document gave it (lowercased; NULL: none
        // yet), the identity of a show across URLs: two subscriptions with one guid are the same
        // show. An added column and its index only.
        """
        ALTER TABLE feeds ADD COLUMN podcast_guid TEXT;
        CREATE INDEX feeds_podcast_guid ON feeds(podcast_guid) WHERE podcast_guid IS NOT NULL;
        """,
    ]
}
