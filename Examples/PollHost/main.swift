// poll-host-example: a host loop of its own (poll(2) over its descriptors) that drives
// EventLoop.main one iteration at a time with runOnce(blocking: false), the way a toolkit's or a
// game's main loop would. Messages arrive on a pipe in bursts; the host reads a burst, hands each
// message to the view model, then runs one iteration of our loop: its ready callbacks (timers,
// watches, the main dispatch queue, so @MainActor tasks too), then the flush, where the view draws
// once for the whole burst.
import ViewModelKit

#if canImport(Glibc)
import Glibc
#endif

/// The view model: the messages received so far.
final class InboxViewModel: ObservableObject {
    @Published private(set) var messages: [String] = []

    func receive(_ message: String) {
        messages.append(message)
    }
}

/// The view: one line per draw.
final class InboxView: ViewModelObserver {
    @ViewModel var inbox = InboxViewModel()
    private(set) var draws = 0

    init() {
        bindViewModels()  // the first draw, now
    }

    func updateView() {
        draws += 1
        print("  updateView #\(draws): \(inbox.messages.count) messages, last: \(inbox.messages.last ?? "-")")
    }
}

/// The host's own input: a pipe. A real host would watch a socket or a terminal; writing the
/// bursts ourselves keeps the output the same on every run.
struct HostInput {
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var ends: [Int32] = [0, 0]
        precondition(pipe(&ends) == 0, "pipe: \(errno)")
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
    }

    func send(_ messages: [String]) {
        let bytes = Array(messages.map { $0 + "\n" }.joined().utf8)
        precondition(bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) } == bytes.count)
    }

    /// Every message waiting in the pipe.
    func readAvailable() -> [String] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            data += buffer[0..<count]
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

let loop = EventLoop.main
let view = InboxView()
let input = HostInput()
let bursts: [[String]] = [["hello"], ["one", "two", "three"], [], ["four", "five"]]

for (turn, burst) in bursts.enumerated() {
    input.send(burst)
    if turn == 3 {
        // Work for the main actor runs inside the host's next runOnce (EventLoop.main drains the
        // main dispatch queue), and coalesces with the burst.
        Task { @MainActor in view.inbox.receive("from a main-actor task") }
    }
    // The host's poll: its own descriptors only. libevent's are not visible to it, so the timeout
    // is bounded (10 ms) to give the loop's timers and cross-thread wake-ups a turn.
    var descriptor = pollfd(fd: input.readEnd, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, 10)
    let messages = ready > 0 ? input.readAvailable() : []
    print("host turn \(turn + 1): poll read \(messages.count) messages")
    for message in messages { view.inbox.receive(message) }
    // One iteration of our loop: ready callbacks, then the flush (one updateView at most).
    loop.runOnce(blocking: false)
}
print("done: \(view.inbox.messages.count) messages in \(bursts.count) host turns, \(view.draws) draws")
