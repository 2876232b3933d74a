import Dispatch
import Foundation

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
            } catch {
                let failure = Failure(description: "cannot save \(url.path): \(error.localizedDescription)")
                DispatchQueue.main.async { MainActor.assumeIsolated { onError(failure) } }
            }
        }
    }

    /// Waits until every save queued so far is written (at exit).
    func flush() {
        queue.sync {}
    }
}
