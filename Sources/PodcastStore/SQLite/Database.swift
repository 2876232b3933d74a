import CSQLite3
import Foundation

/// One SQLite connection, opened in WAL mode with foreign keys on and a busy timeout.
///
/// Compiled statements are cached by SQL text (at most `statementCacheCapacity`): a `Statement`
/// takes its compiled form from the cache (or compiles it) and gives it back, reset and with its
/// bindings cleared, when released. A statement in use is never shared: running the same SQL
/// while an earlier `Statement` of it is alive compiles a second copy.
///
/// Not thread-safe: use an instance from one thread at a time (the daemon uses it on its loop
/// thread). Errors are thrown as `StoreError` carrying SQLite's own message. A file that is not a
/// database is reported as `StoreError.notADatabase` and never rewritten.
public final class Database {
    /// The underlying `sqlite3*` handle, valid until the instance is released.
    let handle: OpaquePointer
    /// The path given to `init(path:)` (`":memory:"` for an in-memory database).
    public let path: String

    /// Opens (creating if needed) the database at `path`, then checks it really is one, switches
    /// to WAL journaling, enables foreign keys and sets a busy timeout of `busyTimeout` seconds.
    ///
    /// Throws `StoreError.notADatabase` for a non-database or corrupt file (left untouched), or
    /// `StoreError.sqlite` when the file cannot be opened (missing directory, no permission).
    ///
    /// `owner`, when given, runs right after that first read and before anything is written: it
    /// may throw to refuse the file (the store checks that a non-empty file is its own).
    public init(path: String, busyTimeout: Double = 5, owner: ((Database) throws -> Void)? = nil) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(db)
            throw StoreError.sqlite(code: rc, message: message, context: "opening \(path)")
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(max(0, min(busyTimeout * 1000, Double(Int32.max)))))
        // Reading the schema is the first access to the file: a non-database fails here, before
        // anything (such as the WAL switch) could write to it.
        do {
            _ = try scalarInt("SELECT count(*) FROM sqlite_master")
            try owner?(self)
            if path != ":memory:" {
                let mode = try scalarString("PRAGMA journal_mode=WAL")
                if mode?.lowercased() != "wal" {
                    throw StoreError.sqlite(
                        code: SQLITE_ERROR, message: "journal mode is \(mode ?? "unknown")", context: "enabling WAL")
                }
            }
            try execute("PRAGMA foreign_keys=ON")
        } catch let StoreError.sqlite(code, message, _) where Database.isNotADatabase(code) {
            finalizeCachedStatements()
            sqlite3_close_v2(db)
            throw StoreError.notADatabase(path: path, message: message)
        } catch {
            finalizeCachedStatements()
            sqlite3_close_v2(db)
            throw error
        }
    }

    deinit {
        finalizeCachedStatements()
        sqlite3_close_v2(handle)
    }

    // MARK: Statement cache

    /// How many distinct SQL texts keep a compiled statement between uses.
    static let statementCacheCapacity = 64
    private var statementCache: [String: OpaquePointer] = [:]

    /// A compiled statement for `sql`, from the cache or freshly prepared; the caller owns it
    /// until `checkInStatement`.
    func checkOutStatement(_ sql: String) throws -> OpaquePointer {
        if let cached = statementCache.removeValue(forKey: sql) { return cached }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            sqlite3_finalize(stmt)
            throw StoreError.sqlite(code: rc, message: lastMessage, context: "preparing \(Database.abbreviate(sql))")
        }
        return stmt
    }

    /// Takes back a statement from `checkOutStatement`: reset (ending any read it holds open) and
    /// cached, or finalized when the cache already holds one for `sql` or is full.
    func checkInStatement(_ stmt: OpaquePointer, sql: String) {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
        if statementCache[sql] == nil && statementCache.count < Database.statementCacheCapacity {
            statementCache[sql] = stmt
        } else {
            sqlite3_finalize(stmt)
        }
    }

    private func finalizeCachedStatements() {
        for stmt in statementCache.values { sqlite3_finalize(stmt) }
        statementCache.removeAll()
    }

    static func isNotADatabase(_ code: Int32) -> Bool {
        let primary = code & 0xff
        return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT
    }

    /// Runs one or more SQL statements that return no rows of interest (`sqlite3_exec`).
    public func execute(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let message = err.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(err)
            throw StoreError.sqlite(code: rc, message: message, context: "executing \(Database.abbreviate(sql))")
        }
    }

    /// Compiles `sql` (one statement) into a prepared `Statement`, with `bindings` bound to
    /// `?1...?n` in order. Throws `StoreError.sqlite` on a syntax error.
    public func prepare(_ sql: String, _ bindings: SQLValue...) throws -> Statement {
        let statement = try Statement(database: self, sql: sql)
        try statement.bind(bindings)
        return statement
    }

    /// Runs a statement that returns no rows (INSERT, UPDATE, DELETE) and returns the number of
    /// rows it changed (`sqlite3_changes`).
    @discardableResult
    public func run(_ sql: String, _ bindings: SQLValue...) throws -> Int {
        let statement = try Statement(database: self, sql: sql)
        try statement.bind(bindings)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// The first column of the first row as an integer, `nil` for no row or NULL.
    public func scalarInt(_ sql: String, _ bindings: SQLValue...) throws -> Int64? {
        let statement = try Statement(database: self, sql: sql)
        try statement.bind(bindings)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// The first column of the first row as text, `nil` for no row or NULL.
    public func scalarString(_ sql: String, _ bindings: SQLValue...) throws -> String? {
        let statement = try Statement(database: self, sql: sql)
        try statement.bind(bindings)
        return try statement.step() ? statement.string(0) : nil
    }

    /// The rowid of the last successful INSERT on this connection (`sqlite3_last_insert_rowid`).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// True while a transaction is open (`sqlite3_get_autocommit` is 0).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` ... `COMMIT`, rolled back if `body` throws
    /// (the error is rethrown). Nested calls use a savepoint, so an inner failure rolls back only
    /// the inner part when the outer body catches it.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction {
            savepointCounter += 1
            let name = "sp\(savepointCounter)"
            try execute("SAVEPOINT \(name)")
            do {
                let value = try body()
                try execute("RELEASE \(name)")
                return value
            } catch {
                try? execute("ROLLBACK TO \(name)")
                try? execute("RELEASE \(name)")
                throw error
            }
        }
        // Cached statements rather than `execute`: these run once per feed update.
        try run("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try run("COMMIT")
            return value
        } catch {
            if isInTransaction { _ = try? run("ROLLBACK") }
            throw error
        }
    }

    private var savepointCounter = 0

    /// `PRAGMA user_version`: the schema version this program wrote (0 for a new file).
    public var userVersion: Int {
        get throws { Int(try scalarInt("PRAGMA user_version") ?? 0) }
    }

    /// Brings the schema to `migrations.count` by running, in one transaction each, every step
    /// after the current `PRAGMA user_version` (step `i` moves version `i` to `i + 1`) and then
    /// recording the new version. Throws `StoreError.schemaTooNew` if the file is already newer.
    public func migrate(_ migrations: [String]) throws {
        let current = try userVersion
        if current > migrations.count {
            throw StoreError.schemaTooNew(path: path, found: current, supported: migrations.count)
        }
        for version in current..<migrations.count {
            try transaction {
                try execute(migrations[version])
                try execute("PRAGMA user_version = \(version + 1)")
            }
        }
    }

    var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    static func abbreviate(_ sql: String) -> String {
        let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return flat.count > 60 ? String(flat.prefix(57)) + "..." : flat
    }
}
