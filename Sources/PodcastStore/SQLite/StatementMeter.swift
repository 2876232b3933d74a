import CSQLite3

/// Counts the work SQLite does on one connection: statements run and the virtual-machine steps,
/// full-scan steps and sorts they took (SQLite's `sqlite3_trace_v2` `SQLITE_TRACE_PROFILE` event
/// and `sqlite3_stmt_status` counters). Tests use it to prove that a poll's store work does not
/// grow with the number of subscriptions: an index lookup is a constant number of VM steps,
/// whatever the table's size; a scan is not.
///
/// Installing it replaces any other trace callback of the connection; `stop()` (or releasing the
/// meter) removes it. Same thread rules as the `Database`.
final class StatementMeter {
    /// What the statements run since the last `reset()` cost.
    struct Work: Equatable, CustomStringConvertible {
        /// Statements run (each execution counts, cached or not).
        var statements = 0
        /// SQLite VM steps (`SQLITE_STMTSTATUS_VM_STEP`).
        var vmSteps = 0
        /// Steps of full table or index scans (`SQLITE_STMTSTATUS_FULLSCAN_STEP`).
        var fullScanSteps = 0
        /// Sorts (`SQLITE_STMTSTATUS_SORT`).
        var sorts = 0
        /// Executions per SQL text.
        var bySQL: [String: Int] = [:]
        /// VM steps per SQL text.
        var stepsBySQL: [String: Int] = [:]

        var description: String {
            "\(statements) statements, \(vmSteps) VM steps, \(fullScanSteps) full-scan steps, \(sorts) sorts"
        }
    }

    private let database: Database
    private(set) var work = Work()
    private var active = false

    /// Starts counting on `database`.
    init(_ database: Database) {
        self.database = database
        let me = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_trace_v2(
            database.handle, UInt32(SQLITE_TRACE_PROFILE),
            { _, context, statement, _ in
                guard let context, let statement else { return 0 }
                let meter = Unmanaged<StatementMeter>.fromOpaque(context).takeUnretainedValue()
                meter.record(OpaquePointer(statement))
                return 0
            }, me)
        active = true
    }

    deinit { stop() }

    /// Stops counting (the connection's trace callback is removed).
    func stop() {
        guard active else { return }
        active = false
        sqlite3_trace_v2(database.handle, 0, nil, nil)
    }

    /// Starts the counts again from zero.
    func reset() { work = Work() }

    private func record(_ statement: OpaquePointer) {
        work.statements += 1
        // resetFlg 1: each execution is counted once, since a cached statement runs many times.
        let steps = Int(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 1))
        work.vmSteps += steps
        work.fullScanSteps += Int(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1))
        work.sorts += Int(sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_SORT, 1))
        let sql = sqlite3_sql(statement).map { String(cString: $0) } ?? "?"
        work.bySQL[sql, default: 0] += 1
        work.stepsBySQL[sql, default: 0] += steps
    }
}
