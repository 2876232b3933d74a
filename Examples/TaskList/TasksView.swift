import Foundation
import ViewModelKit

/// A small stand-in for a toolkit's view controller: a titled screen that writes lines.
@MainActor
class TerminalScreen {
    let title: String
    let write: (String) -> Void

    init(title: String, write: @escaping (String) -> Void) {
        self.title = title
        self.write = write
    }
}

/// The view: draws the task list in the terminal and saves it. It is a subclass that assigns its
/// `@ViewModel` in its own initialiser after `super.init`, as CombineViewModel's example does;
/// that assignment binds the view model and draws the first frame at once. `updateView()` runs
/// once per loop iteration in which the list changed, diffs the list it drew last against the
/// new one, prints what happened and saves.
@MainActor
final class TasksView: TerminalScreen, ViewModelObserver {
    @ViewModel private var taskList: TaskList
    private var drawn: [TaskItem]?
    private let store: TaskStore

    init(tasks: [TaskItem], store: TaskStore, write: @escaping (String) -> Void) {
        self.store = store
        super.init(title: "Tasks", write: write)
        taskList = TaskList(tasks: tasks)
    }

    func updateView() {
        let tasks = taskList.tasks
        if let drawn {
            let changes = tasks.difference(from: drawn).inferringMoves()
            guard !changes.isEmpty || tasks != drawn else { return }
            for change in changes {
                switch change {
                case .insert(let offset, let task, let movedFrom):
                    if movedFrom != nil {
                        write("  moved   \(Self.safe(task.title)) to \(offset + 1)")
                    } else if let old = drawn.first(where: { $0.id == task.id }) {
                        write("  renamed \(Self.safe(old.title)) to \(Self.safe(task.title))")
                    } else {
                        write("  added   \(Self.safe(task.title))")
                    }
                case .remove(_, let task, let movedTo):
                    if movedTo == nil, !tasks.contains(where: { $0.id == task.id }) {
                        write("  removed \(Self.safe(task.title))")
                    }
                }
            }
            store.save(tasks) { [weak self] failure in self?.write("error: \(failure)") }
        }
        drawn = tasks
        draw(tasks)
    }

    private func draw(_ tasks: [TaskItem]) {
        write("\(title) (\(tasks.count)):")
        for (index, task) in tasks.enumerated() {
            write(String(format: "%3d. ", index + 1) + Self.safe(task.title))
        }
    }

    /// Runs one command line; false for `quit`.
    func handle(_ line: String) -> Bool {
        let words = line.split(separator: " ", maxSplits: 1).map(String.init)
        guard let command = words.first else { return true }
        let rest = words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : ""
        switch command {
        case "add":
            guard !rest.isEmpty else { return complain("add needs a title") }
            taskList.appendNew(title: rest)
        case "del", "done":
            guard let index = Self.index(rest), taskList.delete(at: index) != nil else {
                return complain("\(command) needs a task number from 1 to \(taskList.tasks.count)")
            }
        case "mv":
            let numbers = rest.split(separator: " ").compactMap { Self.index(String($0)) }
            guard numbers.count == 2, taskList.move(from: numbers[0], to: numbers[1]) else {
                return complain("mv needs two task numbers from 1 to \(taskList.tasks.count)")
            }
        case "rename":
            let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let index = Self.index(parts[0]), taskList.rename(at: index, to: parts[1]) else {
                return complain("rename needs a task number and a title")
            }
        case "list":
            draw(taskList.tasks)
        case "help":
            write(Self.help)
        case "quit":
            return false
        default:
            return complain("unknown command \(Self.safe(command)); try help")
        }
        return true
    }

    static let help = """
        commands: add TITLE | del N | mv FROM TO | rename N TITLE | list | help | quit
        (task numbers start at 1; end of input quits too)
        """

    private func complain(_ message: String) -> Bool {
        write("error: \(message)")
        return true
    }

    /// A 1-based task number as a 0-based index.
    private static func index(_ text: String) -> Int? {
        guard let number = Int(text), number >= 1 else { return nil }
        return number - 1
    }

    /// A title made safe for the terminal: control characters (escape sequences included) are
    /// shown as U+FFFD, so a title from the file or the keyboard cannot drive the terminal.
    static func safe(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map {
                    $0.properties.generalCategory == .control ? "\u{FFFD}" : $0
                }))
    }
}
