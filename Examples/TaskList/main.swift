// task-list: a task list drawn in the terminal and kept in a JSON file, in the shape of
// CombineViewModel's example app: a @MainActor view model with `@Published private(set) var
// tasks`, and a view that assigns its @ViewModel after super.init and diffs old against new in
// updateView(). Commands come from standard input (one per line; `help` lists them), read on a
// thread of their own and run on the main loop, so a burst of commands in one iteration gives
// one redraw.
//
//   swift run task-list [--file PATH]     (default: tasks.json in the current directory)
import Foundation
import ViewModelKit

var path = "tasks.json"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--file":
        guard let value = arguments.popFirst(), !value.isEmpty else {
            FileHandle.standardError.write(Data("task-list: --file needs a path\n".utf8))
            exit(2)
        }
        path = value
    case "-h", "--help":
        print("usage: task-list [--file PATH]\n" + TasksView.help)
        exit(0)
    default:
        FileHandle.standardError.write(
            Data("task-list: unknown argument \(TasksView.safe(argument)); try --help\n".utf8))
        exit(2)
    }
}

let store = TaskStore(url: URL(fileURLWithPath: path))
let saved: [TaskItem]
do {
    saved = try store.load()
} catch {
    FileHandle.standardError.write(Data("task-list: \(error)\n".utf8))
    exit(1)
}
if loopFailed { exit(1) }

let loop = EventLoop.main
let view = TasksView(tasks: saved, store: store) { print($0) }  // draws the first frame now

// Standard input is read off the loop thread; each line is handed to the main actor (which
// runs on the loop through the main dispatch queue), in order.
let reader = Thread {
    while let line = readLine() {
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                if !view.handle(line) { loop.stop() }
            }
        }
    }
    DispatchQueue.main.async { loop.stop() }
}
reader.start()

var loopFailed = false
do {
    try loop.run()
} catch {
    FileHandle.standardError.write(Data("task-list: the loop failed: \(error)\n".utf8))
    loopFailed = true
}
// A save that failed at the end (piped input ends, the loop stops, the report queued for the
// main actor never runs) must not be lost: say so and exit non-zero.
if let failure = store.flush() {
    FileHandle.standardError.write(Data("task-list: the last changes are not saved: \(failure)\n".utf8))
    exit(1)
}
if loopFailed { exit(1) }
