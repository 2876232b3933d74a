import Foundation
import LoopScheduler
import PodcastEngine
import PodcastWeb

#if canImport(Glibc)
import Glibc
#endif

// The observers of the library: a live table on a terminal or JSON lines otherwise, and with
// `--http` the web dashboard, all on the same loop. Made after the daemon started, so the first
// (synchronous) frame already lists the feeds. Each frame or batch of lines confirms the
// announcements it showed (at least once).
extension DaemonSession {
    func makeViews(_ parts: Parts) {
        let daemon = parts.daemon
        let writeFailed = outputFailureHandler(parts)
        makeOutputQueue(parts.loop, onError: writeFailed)
        let delivered = confirmDelivery(daemon)
        let write = writer()
        // The real terminal's height: a frame never has more lines than the screen.
        let screenHeight: Int? = console.descriptor == nil ? nil : Console.terminalHeight()
        if console.isTerminal && !options.json {
            terminal = TerminalView(
                library: daemon.library, scheduler: parts.scheduler,
                renderer: TerminalRenderer(width: console.width, height: screenHeight, ansi: true), write: write,
                delivered: delivered,
                onWriteError: writeFailed, downloads: downloads?.model ?? DownloadsViewModel())
            watchTerminalSize(parts.loop)
        } else {
            lines = JSONLinesView(
                library: daemon.library, scheduler: parts.scheduler, write: write, delivered: delivered,
                onWriteError: writeFailed)
        }
    }

    // A failed write (stdout closed, disk full, reader gone) confirms nothing, so the
    // announcements stay pending for the next start; the daemon stops with status 5 rather than
    // poll on with nowhere to report.
    private func outputFailureHandler(_ parts: Parts) -> (any Error) -> Void {
        let loop = parts.loop
        let console = self.console
        return { [weak daemon = parts.daemon] error in
            if error is NonBlockingOutput.Busy { return }  // retried when the queue drains
            guard self.outputState != .failed else { return }
            self.outputState = .failed
            console.err(
                "podcast-watch: cannot write to stdout (\(error)); stopping, the unwritten announcements stay pending\n"
            )
            self.exitCode = .outputError
            daemon?.stop()
            loop.stop()
        }
    }

    // A pipe, socket or terminal is written without blocking the loop (a reader that stops
    // reading must not freeze signals and polling); a regular file is written directly.
    private func makeOutputQueue(_ loop: EventLoop, onError: @escaping (any Error) -> Void) {
        guard let fd = console.descriptor, NonBlockingOutput.supports(fd: fd) else { return }
        let queue = NonBlockingOutput(fd: fd, loop: loop, bound: DaemonSession.outputBound)
        queue.onError = { onError($0) }
        queue.onDrained = {
            if self.outputState == .waitingForRoom {
                self.outputState = .open
                self.lines?.updateView()
                self.terminal?.updateView()
            }
            self.finishIfIdle(loop)
        }
        output = queue
    }

    // Announcements count as delivered only once their bytes reached stdout.
    private func confirmDelivery(_ daemon: PodcastDaemon<LoopScheduler>) -> (Int) -> Void {
        let output = self.output
        return { [weak daemon] sequence in
            if let output {
                output.afterWritten { daemon?.outputDelivered(throughSequence: sequence) }
            } else {
                daemon?.outputDelivered(throughSequence: sequence)
            }
        }
    }

    // Written and, for a file, synced before anything counts as delivered. While the queue is
    // full nothing more is taken: the view keeps its lines (or frame) for later.
    private func writer() -> (String) throws -> Void {
        let output = self.output
        let console = self.console
        return { text in
            if let output {
                if output.isFull {
                    if self.outputState == .open { self.outputState = .waitingForRoom }
                    throw NonBlockingOutput.Busy()
                }
                try output.enqueue(text)
            } else {
                try console.write(text)
                try console.flush()
            }
        }
    }

    // A resized terminal gets a frame at its new width at once (the real width: narrower frames
    // are cut, not wrapped).
    private func watchTerminalSize(_ loop: EventLoop) {
        guard let terminal else { return }
        let winch = try? loop.onSignal(SIGWINCH) { [weak terminal] in
            guard let terminal else { return }
            terminal.renderer.width = Console.terminalWidth()
            if terminal.renderer.height != nil { terminal.renderer.height = Console.terminalHeight() }
            terminal.updateView()
        }
        if let winch { registrations.append(winch) }
    }

    // --http: the web dashboard, a second observer of the same library, on the same loop. An
    // address that cannot be served stops the session with status 7.
    func startDashboard(_ parts: Parts) {
        guard let address = options.http, let webMetrics = parts.webMetrics else { return }
        do {
            let dashboard = try WebDashboard(
                loop: parts.loop, scheduler: parts.scheduler, store: store, daemon: parts.daemon, address: address,
                token: options.httpToken, publicOrigin: options.httpPublicOrigin, metrics: webMetrics,
                offLoop: parts.workers, downloads: downloads,
                downloadFolders: [options.downloadDirectory, options.downloadFallbackDirectory].compactMap { $0 })
            web = dashboard
            console.err(
                DaemonSession.dashboardBanner(
                    dashboard, tokenGiven: options.httpToken != nil, stderrIsTerminal: isatty(2) == 1,
                    tokenFile: (store.database.path as NSString).deletingLastPathComponent + "/http-token"))
        } catch {
            console.err("podcast-watch: cannot serve the dashboard: \(error)\n")
            exitCode = .addressUnavailable
            parts.daemon.stop()
            parts.loop.stop()
        }
    }
}
