import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastStore

@Suite struct DatabaseTests {
    @Test func opensInWALWithForeignKeys() throws {
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        #expect(try db.scalarString("PRAGMA journal_mode") == "wal")
        #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try db.scalarInt("PRAGMA busy_timeout") == 5000)
    }

    @Test func typedBindsRoundTrip() throws {
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
        try db.run(
            "INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)", .integer(-7), .real(1.5), .text("héllo\u{0}x"),
            .blob(Data([0, 255, 3])), .null)
        let s = try db.prepare("SELECT i, r, s, b, n FROM t")
        #expect(try s.step())
        #expect(s.int64(0) == -7)
        #expect(s.double(1) == 1.5)
        #expect(s.string(2) == "héllo\u{0}x")
        #expect(s.data(3) == Data([0, 255, 3]))
        #expect(s.string(4) == nil)
        #expect(s.isNull(4))
        #expect(try s.step() == false)
    }

    @Test func transactionRollsBackOnThrow() throws {
        struct Boom: Error {}
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER)")
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
        #expect(db.isInTransaction == false)
    }

    @Test func nestedTransactionRollsBackOnlyInnerPart() throws {
        struct Boom: Error {}
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER)")
        try db.transaction {
            try db.run("INSERT INTO t VALUES (1)")
            try? db.transaction {
                try db.run("INSERT INTO t VALUES (2)")
                throw Boom()
            }
            try db.run("INSERT INTO t VALUES (3)")
        }
        let s = try db.prepare("SELECT group_concat(i) FROM (SELECT i FROM t ORDER BY i)")
        #expect(try s.step())
        #expect(s.string(0) == "1,3")
    }

    /// A nested transaction that succeeds is part of the outer one: committed with it, and
    /// rolled back with it when the outer body fails afterwards.
    @Test func nestedTransactionCommitsAndRollsBackWithTheOuterOne() throws {
        struct Boom: Error {}
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER)")
        try db.transaction {
            try db.run("INSERT INTO t VALUES (1)")
            try db.transaction { _ = try db.run("INSERT INTO t VALUES (2)") }
            #expect(db.isInTransaction)
        }
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (3)")
                try db.transaction { _ = try db.run("INSERT INTO t VALUES (4)") }
                throw Boom()
            }
        }
        // An inner failure the outer body lets through rolls back the whole transaction.
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (5)")
                try db.transaction {
                    try db.run("INSERT INTO t VALUES (6)")
                    throw Boom()
                }
            }
        }
        #expect(db.isInTransaction == false)
        let s = try db.prepare("SELECT group_concat(i) FROM (SELECT i FROM t ORDER BY i)")
        #expect(try s.step())
        #expect(s.string(0) == "1,2")
    }

    @Test func sqlErrorCarriesSQLiteMessage() throws {
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        do {
            try db.run("SELECT * FROM missing")
            Issue.record("expected an error")
        } catch let StoreError.sqlite(_, message, context) {
            #expect(message == "no such table: missing")
            #expect(context.contains("SELECT * FROM missing"))
        }
    }

    @Test func nonDatabaseFileIsReportedAndLeftUntouched() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("notes.txt")
        let content = Data(String(repeating: "this is not a database\n", count: 100).utf8)
        try content.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try FeedStore(path: path)
        } throws: { error in
            guard case StoreError.notADatabase(let p, _) = error else { return false }
            return p == path
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
        #expect(FileManager.default.fileExists(atPath: path + "-wal") == false)
    }

    @Test func truncatedDatabaseIsReportedNotCrashing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("state.sqlite")
        do {
            let store = try FeedStore(path: path)
            try store.add(url: "https://example.com/feed.xml")
        }
        // Keep the 16-byte magic header and scramble the rest of the first page.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for i in 16..<min(bytes.count, 100) { bytes[i] = 0xEE }
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try FeedStore(path: path)
        } throws: { error in
            if case StoreError.notADatabase = error { return true }
            return false
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func migrationsRunOnceAndSetUserVersion() throws {
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        let steps = ["CREATE TABLE a (x)", "CREATE TABLE b (y)"]
        try db.migrate(steps)
        #expect(try db.userVersion == 2)
        try db.migrate(steps)  // no-op: would fail if it ran again ("table a already exists")
        #expect(try db.userVersion == 2)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table'") == 2)
    }

    @Test func newerSchemaIsRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("a.sqlite")
        do {
            let db = try Database(path: path)
            try db.execute("PRAGMA user_version = 99")
        }
        #expect(throws: StoreError.schemaTooNew(path: path, found: 99, supported: StoreSchema.migrations.count)) {
            _ = try FeedStore(path: path)
        }
    }

    @Test func missingDirectoryIsAClearError() throws {
        #expect {
            _ = try Database(path: "/nonexistent-dir-pw/x/state.sqlite")
        } throws: { error in
            guard case StoreError.sqlite(_, _, let context) = error else { return false }
            return context == "opening /nonexistent-dir-pw/x/state.sqlite"
        }
    }
}
