import Foundation
import Testing

/// Runs the built `task-list` example with piped input, as a script would.
@Suite struct TaskListExitTests {
    /// The binary next to the test bundle (built by `swift build --build-tests`).
    private static var binary: String? {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [folder, folder.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("task-list").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    private struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    private func run(_ arguments: [String], input: String) throws -> Run {
        let binary = try #require(Self.binary, "task-list is built with the tests")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let inPipe = Pipe()
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = errPipe
        try process.run()
        inPipe.fileHandleForWriting.write(Data(input.utf8))
        try inPipe.fileHandleForWriting.close()
        // stderr is small; read stdout to its end first so the child never blocks on a full pipe.
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        let err = errPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    @Test func aSaveThatFailsAtExitIsReportedOnStderrWithAFailingStatus() throws {
        // The folder does not exist: loading finds no file (an empty list), every save fails.
        let missing = FileManager.default.temporaryDirectory
            .appendingPathComponent("task-list-missing-\(UUID().uuidString)")
        let path = missing.appendingPathComponent("tasks.json").path
        let result = try run(["--file", path], input: "add buy milk\n")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("task-list: the last changes are not saved: cannot save \(path): "))
        #expect(result.stderr.components(separatedBy: "\n").count == 2)  // one line
        #expect(result.stdout.contains("  1. buy milk"))
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func aSuccessfulRunExitsZeroWithTheFileWritten() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("task-list-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("tasks.json").path
        let result = try run(["--file", path], input: "add buy milk\nadd call home\n")
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let titles = (saved as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(titles == ["buy milk", "call home"])
    }
}
