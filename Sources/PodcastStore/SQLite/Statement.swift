import CSQLite3
import Foundation

/// A prepared SQLite statement (`sqlite3_stmt`) with typed binds and column reads.
///
/// Parameters are 1-based (`?1`), columns 0-based, as in SQLite's C API. Same thread rule as its
/// `Database`. The compiled statement comes from, and on release goes back to, the database's
/// statement cache (reset, bindings cleared), so running the same SQL again skips
/// `sqlite3_prepare_v2`.
public final class Statement {
    private let database: Database
    private let handle: OpaquePointer
    private let sql: String

    init(database: Database, sql: String) throws {
        self.handle = try database.checkOutStatement(sql)
        self.database = database
        self.sql = sql
    }

    deinit {
        database.checkInStatement(handle, sql: sql)
    }

    /// Binds `value` to parameter `index` (1-based).
    public func bind(_ value: SQLValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .null:
            rc = sqlite3_bind_null(handle, index)
        case .integer(let v):
            rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v):
            rc = sqlite3_bind_double(handle, index, v)
        case .text(let v):
            rc = v.utf8CString.withUnsafeBufferPointer {
                pw_sqlite3_bind_text_transient(handle, index, $0.baseAddress, Int32($0.count - 1))
            }
        case .blob(let v):
            rc = v.withUnsafeBytes {
                pw_sqlite3_bind_blob_transient(
                    handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count))
            }
        }
        if rc != SQLITE_OK {
            throw error(rc, "binding parameter \(index)")
        }
    }

    /// Binds `values` to parameters `1...values.count`.
    public func bind(_ values: [SQLValue]) throws {
        for (i, value) in values.enumerated() {
            try bind(value, at: Int32(i + 1))
        }
    }

    /// Advances: `true` when a row is available, `false` when the statement is done. Throws
    /// `StoreError.sqlite` (for example on a constraint violation).
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error(rc, "running \(Database.abbreviate(sql))")
        }
    }

    /// Rewinds to run again, and clears the bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// True when column `index` of the current row is NULL.
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as an integer; `nil` for NULL.
    public func int64(_ index: Int32) -> Int64? {
        isNull(index) ? nil : sqlite3_column_int64(handle, index)
    }

    /// Column `index` as an `Int`; `nil` for NULL.
    public func int(_ index: Int32) -> Int? {
        int64(index).map { Int($0) }
    }

    /// Column `index` as a double; `nil` for NULL.
    public func double(_ index: Int32) -> Double? {
        isNull(index) ? nil : sqlite3_column_double(handle, index)
    }

    /// Column `index` as a boolean (non-zero is true); `nil` for NULL.
    public func bool(_ index: Int32) -> Bool? {
        int64(index).map { $0 != 0 }
    }

    /// Column `index` as UTF-8 text; `nil` for NULL.
    public func string(_ index: Int32) -> String? {
        guard !isNull(index), let text = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes; `nil` for NULL.
    public func data(_ index: Int32) -> Data? {
        guard !isNull(index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Column `index` read as REAL Unix seconds; `nil` for NULL.
    public func date(_ index: Int32) -> Date? {
        double(index).map { Date(timeIntervalSince1970: $0) }
    }

    private func error(_ rc: Int32, _ context: String) -> StoreError {
        StoreError.sqlite(code: rc, message: database.lastMessage, context: context)
    }
}
