import Foundation
import Testing

@testable import PodcastKit

/// The units in contrib/systemd (issue 17): hardened as documented, Type=notify, and their
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

    @Test func userUnitWritesOnlyItsState() throws {
        #expect(try directives("user/podcast-watch.service")["ReadWritePaths"] == ["%S/podcast-watch -%h/Podcasts"])
        #expect(try directives("system/podcast-watch.service")["StateDirectory"] == ["podcast-watch"])
    }
}
