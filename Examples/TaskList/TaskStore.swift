import Dispatch
import Foundation
import Synchronization

/// The task list's JSON file. Loading happens once, before the loop runs; saving happens off the
/// loop thread, on a serial queue, so a slow disk never delays a redraw, and each save replaces
/// the file atomically (a crash mid-write leaves the previous list).
final class TaskStore: Sendable {
    /// Why the file could not be used. The file itself is never overwritten after a load error.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let url: URL
    private let queue = DispatchQueue(label: "task-list.store")
    // The failure of the last save, if it failed: the file then does not hold the list shown.
    // Kept here (not only reported through the main actor) because at exit the loop has stopped
    // and a report queued for it would never run.
    private let lastFailure = Mutex<Failure?>(nil)

    init(url: URL) {
        self.url = url
    }

    /// The saved tasks; an empty list when the file does not exist yet.
    func load() throws(Failure) -> [TaskItem] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return []
        } catch {
            throw Failure(description: "cannot read \(url.path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode([TaskItem].self, from: data)
        } catch {
            throw Failure(
                description: "\(url.path) is not a task list (\(error)); fix or move it away, it is left untouched")
        }
    }

    /// Writes `tasks` on the store's queue; `onError` runs on the main actor if the write fails.
    func save(_ tasks: [TaskItem], onError: @escaping @MainActor @Sendable (Failure) -> Void) {
        let url = url
        queue.async {
            do {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(tasks).write(to: url, options: .atomic)
                self.lastFailure.withLock { $0 = nil }  // the file holds the latest list again
            } catch {
                let failure = Failure(description: "cannot save \(url.path): \(error.localizedDescription)")
                self.lastFailure.withLock { $0 = failure }
                DispatchQueue.main.async { MainActor.assumeIsolated { onError(failure) } }
            }
        }
    }

    /// Waits until every save queued so far is done (at exit); returns the failure of the last
    /// one, if it failed (the file then lacks the latest changes).
    func flush() -> Failure? {
        queue.sync {}
        return lastFailure.withLock { $0 }
    }
}
