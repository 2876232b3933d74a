import Foundation
import PodcastTestSupport
import Testing

@testable import PodcastCommandLine

/// The units in contrib/systemd: hardened as documented, Type=notify, and their
/// ExecStart is a command line podcast-watch accepts.
@Suite struct SystemdUnitTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    func directives(_ unit: String) throws -> [String: [String]] {
        let text = try String(contentsOf: Self.root.appendingPathComponent("contrib/systemd/\(unit)"), encoding: .utf8)
        var result: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("[") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            result[String(line[..<eq]), default: []].append(String(line[line.index(after: eq)...]))
        }
        return result
    }

    @Test(arguments: ["user/podcast-watch.service", "system/podcast-watch.service"])
    func hardenedNotifyUnit(_ unit: String) throws {
        let d = try directives(unit)
        #expect(d["Type"] == ["notify"])
        #expect(d["ProtectSystem"] == ["strict"])
        #expect(d["ProtectHome"] == ["read-only"])
        #expect(d["NoNewPrivileges"] == ["yes"])
        #expect(d["PrivateTmp"] == ["yes"])
        #expect(d["Restart"] == ["on-failure"])
        #expect(d["RestartSec"] == ["10s"])
        #expect(d["RestartPreventExitStatus"] == ["\(ExitCode.usage.rawValue) \(ExitCode.stateLocked.rawValue)"])
        #expect(d["ExecReload"] == ["/bin/kill -HUP $MAINPID"])
        #expect(d["WatchdogSec"]?.count == 1)
        let exec = try #require(d["ExecStart"]?.first).split(separator: " ").map(String.init)
        let invocation = try CommandLineParser.parse(exec.dropFirst())
        #expect(invocation.command == .run(RunOptions(json: true)))
    }

    /// Every writable path has the '-' prefix: without it a folder that does not exist yet
    /// (a fresh account's ~/.local/state/podcast-watch) failed the start with 226/NAMESPACE.
    /// The user unit creates its state directory outside the sandbox before starting.
    @Test func userUnitWritesOnlyItsState() throws {
        let user = try directives("user/podcast-watch.service")
        // The default download folder ($XDG_DATA_HOME/podcast-watch/downloads) is writable and
        // created too: ProtectHome=read-only made `run --download` fail on it.
        #expect(
            user["ReadWritePaths"] == ["-%S/podcast-watch -%h/.local/share/podcast-watch/downloads -%h/Podcasts"])
        #expect(user["ExecStartPre"] == ["+/bin/mkdir -p %S/podcast-watch %h/.local/share/podcast-watch/downloads"])
        #expect(try directives("system/podcast-watch.service")["StateDirectory"] == ["podcast-watch"])
        for unit in ["user/podcast-watch.service", "system/podcast-watch.service"] {
            for paths in try directives(unit)["ReadWritePaths"] ?? [] {
                for path in paths.split(separator: " ") { #expect(path.hasPrefix("-"), "\(unit): \(path)") }
            }
        }
    }

    /// `systemd-analyze verify` accepts both units without a single message (skipped where
    /// systemd is not installed). The binary is swapped for /bin/true, which exists. The units
    /// use only directives Debian 12's systemd 252 knows: RestartSteps and RestartMaxDelaySec
    /// (systemd >= 254) drew an "Unknown key" warning there.
    @Test(arguments: ["user/podcast-watch.service", "system/podcast-watch.service"])
    func systemdAnalyzeVerifies(_ unit: String) throws {
        guard
            let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return }
        let dir = TemporaryDirectory("unit-verify")
        var text = try String(contentsOf: Self.root.appendingPathComponent("contrib/systemd/\(unit)"), encoding: .utf8)
        text = text.replacingOccurrences(of: "%h/.local/bin/podcast-watch", with: "/bin/true")
            .replacingOccurrences(of: "/usr/local/bin/podcast-watch", with: "/bin/true")
        try text.write(toFile: dir.file("podcast-watch.service"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir.file("runtime"), withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: analyze)
        process.arguments = (unit.hasPrefix("user/") ? ["--user"] : []) + ["verify", dir.file("podcast-watch.service")]
        // A user manager's paths come from XDG_RUNTIME_DIR, which a test machine may lack.
        process.environment = ["XDG_RUNTIME_DIR": dir.file("runtime"), "PATH": "/usr/bin:/bin", "HOME": dir.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.isEmpty, "\(output)")
    }
}
