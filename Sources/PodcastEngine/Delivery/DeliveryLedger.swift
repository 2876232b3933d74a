/// The daemon's book of announcements issued but not yet delivered to every output, by episode
/// row id. An announcement counts as delivered once each output it waits for has it: the view
/// (when it confirms what it wrote) and the hook (when one runs). Delivered ids wait in
/// `confirmed` until the daemon writes them to the store in one transaction (after a batch, or
/// at once outside one).
///
/// Pure bookkeeping: no clock, no store, no callbacks. Loop thread only, as the daemon.
struct DeliveryLedger {
    private struct Pending {
        var journalSequence: Int
        var awaitingOutput: Bool
        var awaitingHook: Bool
    }

    private var pending: [Int64: Pending] = [:]
    private var confirmed: [Int64] = []
    /// While true, confirmations gather for one store write (`takeConfirmed()` after the batch).
    var isBatching = false

    /// Announcements issued and not yet delivered everywhere.
    var count: Int { pending.count }

    /// Starts tracking episode `id`'s announcement, written to the library's journal at
    /// `journalSequence`, waiting for the view and/or the hook.
    mutating func track(_ id: Int64, journalSequence: Int, awaitingOutput: Bool, awaitingHook: Bool) {
        pending[id] = Pending(
            journalSequence: journalSequence, awaitingOutput: awaitingOutput, awaitingHook: awaitingHook)
    }

    /// One output has episode `id`'s announcement (`output`: the view, `hook`: the hook; neither:
    /// the caller's own delivery). Returns true when that completed it: it moves to `confirmed`.
    /// An id not tracked (already delivered) returns false.
    mutating func confirm(_ id: Int64, output: Bool, hook: Bool) -> Bool {
        guard var entry = pending[id] else { return false }
        if output { entry.awaitingOutput = false }
        if hook { entry.awaitingHook = false }
        if entry.awaitingOutput || entry.awaitingHook {
            pending[id] = entry
            return false
        }
        pending[id] = nil
        confirmed.append(id)
        return true
    }

    /// The ids still waiting for the view whose journal entry is at or before `sequence`,
    /// ascending.
    func awaitingOutput(throughSequence sequence: Int) -> [Int64] {
        pending.filter { $0.value.awaitingOutput && $0.value.journalSequence <= sequence }.keys.sorted()
    }

    /// The ids delivered since the last call, in the order they completed; forgets them.
    mutating func takeConfirmed() -> [Int64] {
        defer { confirmed = [] }
        return confirmed
    }
}
