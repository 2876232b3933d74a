import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastStore

/// `Database` reuses compiled statements by SQL text; a reused one must behave like a new one.
@Suite struct StatementCacheTests {
    @Test func reusedStatementStartsOverWithNoBindings() throws {
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER, s TEXT)")
        for i in 1...3 { try db.run("INSERT INTO t VALUES (?1, ?2)", .integer(Int64(i)), .text("v\(i)")) }
        let sql = "SELECT s FROM t WHERE i >= ?1 ORDER BY i"
        do {
            let s = try db.prepare(sql, .integer(2))
            #expect(try s.step())
            #expect(s.string(0) == "v2")
            // Released mid-iteration: the next user must start from the first row.
        }
        let again = try db.prepare(sql, .integer(1))
        #expect(try again.step())
        #expect(again.string(0) == "v1")
        // The same SQL while `again` is alive: a second copy, each with its own cursor.
        let other = try db.prepare(sql, .integer(3))
        #expect(try other.step())
        #expect(other.string(0) == "v3")
        #expect(try again.step())
        #expect(again.string(0) == "v2")
        // Bindings were cleared on reuse: an unbound parameter is NULL, which matches nothing.
        #expect(try db.scalarInt("SELECT count(*) FROM t WHERE i >= ?1", .integer(2)) == 2)
        #expect(try db.scalarInt("SELECT count(*) FROM t WHERE i >= ?1") == 0)
    }

    @Test func cachedStatementsSurviveASchemaChange() throws {
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER)")
        try db.run("INSERT INTO t VALUES (1)")
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
        try db.execute("ALTER TABLE t ADD COLUMN j INTEGER")
        try db.run("INSERT INTO t VALUES (2, 3)")
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 2)
    }

    @Test func transactionsStillCommitAndRollBack() throws {
        struct Boom: Error {}
        let dir = TemporaryDirectory()
        let db = try Database(path: dir.file("a.sqlite"))
        try db.execute("CREATE TABLE t (i INTEGER)")
        for round in 0..<3 {
            try db.transaction { _ = try db.run("INSERT INTO t VALUES (?1)", .integer(Int64(round))) }
            try? db.transaction {
                try db.run("INSERT INTO t VALUES (99)")
                throw Boom()
            }
        }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 3)
        #expect(db.isInTransaction == false)
    }
}
