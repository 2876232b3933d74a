import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes the one way a `@ViewModel`/`@ViewModels` default value can go undrawn loud.
///
/// A default value (`@ViewModel var m = M()`) is created before its observer exists, and Swift
/// gives a property wrapper no hook that runs once the enclosing instance does: until something
/// reaches the observer (an assignment, a read, `$m`, `bindViewModels()`), no code can know which
/// observer to update. So a model changed only by others, in an observer that nobody reaches,
/// would never be drawn. The watch subscribes to the default models' `objectWillChange` from the
/// start; if one of them changes while the property is still unbound, it reports the declaration
/// once (per declaration site) on stderr, naming the fix. Binding ends the watch (its
/// subscription is cancelled and a change racing with the bind is not reported).
///
/// Thread rules: created and ended on the observer's thread; the change callback runs on the
/// model's thread and touches only atomics.
final class UnboundDefaultWatch: @unchecked Sendable {
    /// Where the property is declared, as `File.swift:line`.
    let site: String
    private let declaration: String
    private let bound = Atomic<Bool>(false)
    private let reported = Atomic<Bool>(false)
    private var subscriptions: [AnyCancellable] = []

    /// Starts watching the `ObservableObject`s among `models` (other models never signal, and an
    /// `@Observable` model is only tracked by `updateView()`, so there is nothing to watch).
    /// `declaration` names the property's kind and type in the report (`@ViewModel Counter`).
    init(models: [AnyObject], declaration: String, file: StaticString, line: UInt) {
        site = "\(file):\(line)"
        self.declaration = declaration
        for model in models {
            guard let observable = model as? any ObservableObject else { continue }
            subscriptions.append(watch(observable))
        }
    }

    private func watch<O: ObservableObject>(_ model: O) -> AnyCancellable {
        model.objectWillChange.sink(receiveValue: { [weak self] _ in self?.modelChanged() })
    }

    /// The property bound: no report from now on. Observer's thread.
    func end() {
        bound.store(true, ordering: .releasing)
        let ended = subscriptions
        subscriptions = []
        for subscription in ended { subscription.cancel() }
    }

    private func modelChanged() {
        guard !bound.load(ordering: .acquiring),
            !reported.exchange(true, ordering: .relaxed)
        else { return }
        UnboundDefaultWatch.report(
            "ViewModelKit: the default value of \(declaration) declared at \(site) changed "
                + "before its observer was bound, so the observer is not drawn: call bindViewModels() "
                + "at the end of the observer's init, or assign the property there",
            site: site)
    }

    // Sites already reported, so one mistake gives one line however many observers it makes;
    // the messages are kept for tests (one per site, so this stays small).
    private static let reports = Mutex<[String: String]>([:])

    private static func report(_ message: String, site: String) {
        let first = reports.withLock { reports in
            if reports[site] != nil { return false }
            reports[site] = message
            return true
        }
        guard first else { return }
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The report made for a declaration site, if any. For tests.
    static func report(for site: String) -> String? {
        reports.withLock { $0[site] }
    }
}
