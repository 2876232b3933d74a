import Foundation
import ViewModelKit

/// One task: an identity that survives renames and moves, and a title.
struct TaskItem: Hashable, Codable, Sendable {
    var id: UUID
    var title: String
}

/// The view model: an ordered list of tasks. It only changes state; it knows nothing of how the
/// list is drawn or stored. `@MainActor`, as view models are in Swift 6.
@MainActor
final class TaskList: ObservableObject {
    @Published private(set) var tasks: [TaskItem]

    init(tasks: [TaskItem] = []) {
        self.tasks = tasks
    }

    /// Appends a task titled `title`.
    @discardableResult
    func appendNew(title: String) -> TaskItem {
        let task = TaskItem(id: UUID(), title: title)
        tasks.append(task)
        return task
    }

    /// Removes the task at `index` (0-based); `nil` if there is none.
    @discardableResult
    func delete(at index: Int) -> TaskItem? {
        guard tasks.indices.contains(index) else { return nil }
        return tasks.remove(at: index)
    }

    /// Moves the task at `source` so that it ends up at `destination` (both 0-based); false if
    /// either is out of range.
    @discardableResult
    func move(from source: Int, to destination: Int) -> Bool {
        guard tasks.indices.contains(source), tasks.indices.contains(destination) else { return false }
        guard source != destination else { return true }
        let task = tasks.remove(at: source)
        tasks.insert(task, at: destination)
        return true
    }

    /// Renames the task at `index`; false if there is none.
    @discardableResult
    func rename(at index: Int, to title: String) -> Bool {
        guard tasks.indices.contains(index) else { return false }
        tasks[index].title = title
        return true
    }
}
