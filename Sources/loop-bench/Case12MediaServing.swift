import CLibevent
import Foundation
import LoopScheduler
import PodcastEngine
import PodcastStore
import PodcastWeb

#if canImport(Glibc)
import Glibc
#endif

/// Case 12: serving a downloaded file (`/media/ID/NAME`) to N clients at once, each reading the
/// whole file, beside Debian's nginx serving the same file from the same folder (sendfile on,
/// one worker, started by the bench on loopback) in the same run; and the loop's lateness to a
/// 5 ms repeating timer while the clients stream, beside the same timer on the idle loop. The
/// comparison row is left out, with a message, where nginx is not installed.
enum MediaServingBench {
    static func run(_ settings: RunSettings) -> [Row] {
        let bytes = settings.size(64 << 20, quick: 8 << 20)
        let clients = settings.size(8, quick: 4)
        let fixture = MediaFixture(bytes: bytes)
        defer { fixture.stop() }
        var rows: [Row] = []
        let note = "\(clients) clients each reading a \(bytes >> 20) MiB file over loopback"
        if let nginx = Nginx(root: fixture.folder) {
            defer { nginx.stop() }
            let (ours, theirs) = measurePair(
                runs: settings.runs,
                { throughput(port: fixture.port, path: fixture.path, clients: clients, bytes: bytes) },
                { throughput(port: nginx.port, path: "/" + fixture.name, clients: clients, bytes: bytes) })
            rows.append(
                Row(
                    name: "12 media file to \(clients) clients", unit: "MB/s", better: .higher, value: ours,
                    baselineName: "nginx, sendfile, 1 worker", baseline: theirs, note: note))
        } else {
            FileHandle.standardError.write(
                Data("loop-bench: case 12: no nginx (Debian's nginx package): the nginx comparison is skipped\n".utf8))
        }
        var served: [Double] = []
        let (busy, idle) = measurePair(
            runs: settings.runs,
            {
                fixture.resetLateness()
                served.append(throughput(port: fixture.port, path: fixture.path, clients: clients, bytes: bytes))
                return fixture.maxLatenessMilliseconds
            },
            {
                fixture.resetLateness()
                usleep(200_000)
                return fixture.maxLatenessMilliseconds
            })
        rows.append(
            Row(
                name: "12 loop timer lateness while streaming", unit: "ms (max)", better: .lower, value: busy,
                baselineName: "the same timer, idle loop", baseline: idle,
                note: "a 5 ms repeating timer on the serving loop; \(note) at "
                    + "\(Int(Stats(samples: served).median)) MB/s"))
        return rows
    }

    /// MB/s (10^6 bytes) over `clients` parallel whole-file GETs of a `bytes` long file.
    static func throughput(port: UInt16, path: String, clients: Int, bytes: Int) -> Double {
        let group = DispatchGroup()
        let total = Locked(0)
        let start = nowNanoseconds()
        for _ in 0..<clients {
            group.enter()
            Thread {
                let n = readWhole(port: port, path: path)
                precondition(n > bytes, "the server did not send the whole file (\(n) bytes)")
                total.withLock { $0 += n }
                group.leave()
            }.start()
        }
        group.wait()
        let seconds = Double(nowNanoseconds() - start) / 1e9
        return Double(total.withLock { $0 }) / seconds / 1e6
    }

    // Bytes received for `GET path` (headers included), read to the end of the connection.
    private static func readWhole(port: UInt16, path: String) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(connected == 0, "cannot connect to the media server")
        let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            total += n
        }
        return total
    }

    /// A file recorded as a completed download, our server on a loop thread of its own, and a
    /// lateness probe on that loop.
    final class MediaFixture: @unchecked Sendable {
        let loop: EventLoop
        let folder: String
        let name = "episode.mp3"
        var path = ""
        var port: UInt16 = 0
        private var server: HTTPServer?
        private var probe: EventRegistration?
        private let lateness = Locked(0.0)
        private let done = DispatchSemaphore(value: 0)

        init(bytes: Int) {
            loop = try! EventLoop()
            let dir = NSTemporaryDirectory() + "loop-bench-media-\(getpid())"
            folder = dir + "/media"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = folder + "/" + name
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            for i in chunk.indices { chunk[i] = UInt8(truncatingIfNeeded: i &* 31 &+ 7) }
            _ = FileManager.default.createFile(atPath: file, contents: nil)
            let handle = FileHandle(forWritingAtPath: file)!
            for _ in 0..<(bytes >> 20) { handle.write(Data(chunk)) }
            try? handle.close()
            let store = try! FeedStore(path: dir + "/state.sqlite")
            let feed = try! store.add(url: "https://feeds.example.com/show.xml", title: "Show")
            try! store.database.run(
                "INSERT INTO episodes (feed_id, identity, title, first_seen, enclosure_url, enclosure_type) "
                    + "VALUES (?1, 'e', 'Episode', 0, 'https://cdn.example.com/e.mp3', 'audio/mpeg')",
                .integer(feed.id))
            let episode = store.database.lastInsertRowID
            let ledger = DownloadLedger(store: store)
            _ = try! ledger.enqueue(
                episodeID: episode, feedID: feed.id, url: "https://cdn.example.com/e.mp3", total: nil, queued: Date(),
                candidate: { _ in file })
            try! ledger.markDone(episodeID: episode, bytes: Int64(bytes), finished: Date(), seconds: 1)
            path = "/media/\(episode)/\(name)"
            let router = WebRouter(
                data: WebLibraryData(library: LibraryViewModel(), store: store), control: NoControl(),
                access: WebAccess(token: nil), metrics: WebMetrics(), hub: nil,
                offLoop: WorkerPool(loop: loop, threads: 1),
                downloads: WebDownloads(store: store, folders: [folder], queue: nil))
            server = try! HTTPServer(loop: loop) { router.reply($0) }
            try! server!.bind(address: "127.0.0.1", port: 0)
            port = server!.port
            var expected = nowNanoseconds() + 5_000_000
            probe = loop.scheduleRepeatingTimer(every: .milliseconds(5)) { [lateness] in
                let now = nowNanoseconds()
                let late = now > expected ? Double(now - expected) / 1e6 : 0
                lateness.withLock { $0 = max($0, late) }
                expected = now + 5_000_000
            }
            let loop = self.loop
            let done = self.done
            Thread {
                try? loop.run()
                done.signal()
            }.start()
        }

        func resetLateness() { lateness.withLock { $0 = 0 } }
        var maxLatenessMilliseconds: Double { lateness.withLock { $0 } }

        func stop() {
            let finished = DispatchSemaphore(value: 0)
            let fixture = self
            loop.execute {
                fixture.probe?.cancel()
                fixture.server?.close()
                finished.signal()
            }
            finished.wait()
            loop.stop()
            done.wait()
            loop.shutdown()
            try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent)
        }
    }

    /// Debian's nginx serving `root` on a free loopback port, or `nil` where it is not installed.
    final class Nginx {
        let port: UInt16
        private let process = Process()
        private let prefix: String

        init?(root: String) {
            guard let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile)
            else { return nil }
            prefix = NSTemporaryDirectory() + "loop-bench-nginx-\(getpid())"
            try? FileManager.default.createDirectory(atPath: prefix + "/logs", withIntermediateDirectories: true)
            port = Nginx.freePort()
            let conf = """
                daemon off; worker_processes 1; pid \(prefix)/nginx.pid; error_log \(prefix)/logs/error.log;
                events { worker_connections 256; }
                http { access_log off; sendfile on; tcp_nopush on; default_type application/octet-stream;
                  client_body_temp_path \(prefix)/body; proxy_temp_path \(prefix)/proxy;
                  fastcgi_temp_path \(prefix)/fastcgi; uwsgi_temp_path \(prefix)/uwsgi; scgi_temp_path \(prefix)/scgi;
                  server { listen 127.0.0.1:\(port); root \(root); } }
                """
            _ = FileManager.default.createFile(atPath: prefix + "/nginx.conf", contents: Data(conf.utf8))
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf"]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            for _ in 0..<200 where !Nginx.accepts(port) { usleep(10_000) }
            guard Nginx.accepts(port) else {
                stop()
                return nil
            }
        }

        func stop() {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: prefix)
        }

        private static func freePort() -> UInt16 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    _ = bind(fd, $0, length)
                    return getsockname(fd, $0, &length)
                }
            }
            return UInt16(bigEndian: address.sin_port)
        }

        private static func accepts(_ port: UInt16) -> Bool {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
        }
    }
}

/// A value behind a lock, shared by the client threads and the loop thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
