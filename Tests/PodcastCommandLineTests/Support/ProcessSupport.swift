import Foundation
import XCTest

/// Runs the built `podcast-watch` binary to completion with a chosen stdout (a path opened for
/// writing, a pipe whose reader is already gone, or closed) and collects stderr.
struct BinaryRun {
    enum Stdout {
        case collected
        case file(String)
        case closedPipe, closed
    }

    let status: Int32
    let stdout: String
    let stderr: String

    static func binary() throws -> String {
        guard let path = DaemonProcessTests.binary else {
            throw XCTSkip("podcast-watch binary not built next to the tests")
        }
        return path
    }

    /// Runs `podcast-watch arguments…`; gives up (status -1) after 20 s.
    static func run(
        _ arguments: [String], stdout: Stdout = .collected, currentDirectory: String? = nil,
        environment: [String: String] = [:]
    ) throws -> BinaryRun {
        let binary = try binary()
        let process = Process()
        let errPipe = Pipe()
        let outPipe = Pipe()
        switch stdout {
        case .collected:
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.standardOutput = outPipe
        case .file(let path):
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: path)
        case .closedPipe:
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            try outPipe.fileHandleForReading.close()  // the reader is gone before the first write
            process.standardOutput = outPipe
        case .closed:
            // `>&-`: the shell closes fd 1, then execs the binary.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec \"$0\" \"$@\" >&-", binary] + arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardError = errPipe
        try process.run()
        if case .closedPipe = stdout { try? outPipe.fileHandleForWriting.close() }
        let errData = errPipe.fileHandleForReading.readDataToEndOfFile()
        var outData = Data()
        if case .collected = stdout { outData = outPipe.fileHandleForReading.readDataToEndOfFile() }
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            process.terminate()
            return BinaryRun(status: -1, stdout: "", stderr: String(decoding: errData, as: UTF8.self))
        }
        return BinaryRun(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
