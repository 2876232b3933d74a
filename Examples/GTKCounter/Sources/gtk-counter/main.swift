// gtk-counter: a GTK 4 window whose label a ViewModelKit view model drives, with LoopScheduler's
// main loop running inside GLib's main loop (GLibLoopSource). A loop timer changes the model
// every few milliseconds; the window redraws once per iteration, and counts it.
//
//   gtk-counter                       run until the window is closed
//   gtk-counter --exit-after 3 --clicks 3 --report
//                                     the test's mode: click "+" 3 times and "−" once from one
//                                     loop callback, print "ready" once the window is shown,
//                                     quit after 3 s and print one JSON report line
import CGtk4
import Foundation
import GLibLoop
import ViewModelKit

struct Options {
    var exitAfter: Double?
    var clicks = 0
    var report = false
    var tickMilliseconds = 4

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--exit-after": exitAfter = rest.popFirst().flatMap(Double.init)
            case "--clicks": clicks = rest.popFirst().flatMap(Int.init) ?? 0
            case "--tick-ms": tickMilliseconds = rest.popFirst().flatMap(Int.init) ?? 4
            case "--report": report = true
            default:
                FileHandle.standardError.write("gtk-counter: unknown argument \(argument)\n".data(using: .utf8)!)
                exit(2)
            }
        }
    }
}

let options = Options(CommandLine.arguments)
gtk_init()

/// One line on stdout, written at once (the test reads it while we run).
func say(_ line: String) {
    FileHandle.standardOutput.write((line + "\n").data(using: .utf8)!)
}

let loop = EventLoop.main
let viewModel = CounterViewModel()
let view = CounterWindow(viewModel: viewModel)

let glibSource: GLibLoopSource
do {
    glibSource = try GLibLoopSource(loop: loop)
} catch {
    FileHandle.standardError.write("gtk-counter: \(error)\n".data(using: .utf8)!)
    exit(1)
}
let mainLoop = g_main_loop_new(nil, 0)!
glibSource.onStop = { g_main_loop_quit(mainLoop) }
connect(view.window, "close-request") {
    loop.stop()
    return false
}

let ticker = loop.scheduleRepeatingTimer(every: .milliseconds(options.tickMilliseconds)) {
    viewModel.tick()
}

var pending: [EventRegistration] = []
if options.clicks > 0 || options.report {
    // Once the window is on screen: the test's clicks (all in one callback: one redraw), then
    // "ready" for the screenshot.
    connect(view.window, "map") {
        pending.append(
            loop.scheduleTimer(after: .milliseconds(300)) {
                for _ in 0..<options.clicks { emitClicked(view.plusButton) }
                if options.clicks > 0 { emitClicked(view.minusButton) }
            })
        pending.append(loop.scheduleTimer(after: .milliseconds(700)) { say("ready") })
        return false
    }
}
if let seconds = options.exitAfter {
    pending.append(loop.scheduleTimer(after: .milliseconds(Int(seconds * 1_000))) { loop.stop() })
}

gtk_window_present(cast(view.window))
g_main_loop_run(mainLoop)
ticker.cancel()

if options.report {
    let report: [String: Any] = [
        "count": viewModel.count,
        "ticks": viewModel.ticks,
        "changes": viewModel.changes,
        "redraws": view.redraws,
        "iterations": glibSource.driver.dispatchCount,
        "label": view.shownCountText,
        "expectedLabel": CounterWindow.countText(viewModel),
    ]
    let data = try! JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    say(String(decoding: data, as: UTF8.self))
}
glibSource.destroy()
gtk_window_destroy(cast(view.window))
