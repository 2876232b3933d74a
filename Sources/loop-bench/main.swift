import Foundation
import LoopScheduler

// loop-bench: the benchmarks, each beside its baseline measured in the same run.
//   loop-bench [--quick] [--json FILE] [--corpus DIR] [--subject-only] [--feeds N] [FILTER...]
//   loop-bench --compare-cmo USER.json CMO.json [--json FILE]
// FILTER selects cases by number ("1", "5") or by a word of their name ("timers").

let usage = """
    usage: loop-bench [--quick] [--json FILE] [--corpus DIR] [--subject-only] [--feeds N] [FILTER...]
           loop-bench --compare-cmo USER.json CMO.json [--json FILE]
      --quick        every case at a small size (CI: checks the benchmarks run, asserts no speed)
      --subject-only skip the baselines (for profiling our side under valgrind --tool=callgrind)
      --json FILE    also write the rows as JSON: [{"name", "unit", "value", "baseline", "ratio", ...}]
      --corpus DIR   feed corpus for case 7 (default: ../shared/corpus, ../../shared/corpus, then
                     /work/shared/corpus)
      --feeds N      feeds in case 8 (default 100000, 60 with --quick; LOOP_BENCH_DEBUG=1 in the
                     environment prints RSS and heap in use after each of its phases)
      --compare-cmo  no measuring: the case-5 chain of the no-flag run (USER.json) against the
                     LOOPMVVM_CMO=1 run (CMO.json), each against its own closure baseline (`make bench`)
      FILTER         case numbers 1-11 or words of case names (local, cross, timers, coalescing,
                     chain, operators, memory, parsing, daemon, host, downloads,
                     dashboard); default all

    """

struct BenchCase {
    let number: Int
    let name: String
    let body: (RunSettings) -> [Row]
}

var quick = false
var jsonPath: String?
var corpusRoot: String?
var filters: [String] = []
var cmoComparison: (user: String, cmo: String)?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--quick": quick = true
    case "--subject-only": subjectOnly = true
    case "--json":
        guard let path = arguments.next() else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        jsonPath = path
    case "--feeds":
        guard let value = arguments.next(), let count = Int(value), count > 0 else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        DaemonScale.feedCountOverride = count
    case "--compare-cmo":
        guard let user = arguments.next(), let cmo = arguments.next() else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        cmoComparison = (user, cmo)
    case "--corpus":
        guard let path = arguments.next() else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
        corpusRoot = path
    case "-h", "--help":
        print(usage, terminator: "")
        exit(0)
    default:
        if argument.hasPrefix("-") {
            FileHandle.standardError.write(Data("loop-bench: unknown option \(argument)\n\(usage)".utf8))
            exit(2)
        }
        filters.append(argument.lowercased())
    }
}

let corpus =
    corpusRoot
    // The second entry is the same place seen from Benchmarks/ (`make bench` runs there).
    ?? ["../shared/corpus", "../../shared/corpus", "/work/shared/corpus"].first {
        FileManager.default.fileExists(atPath: $0)
    }
    ?? "../shared/corpus"

/// Writes the rows as JSON to `path`; a failure ends the run with status 1.
func writeJSON(_ rows: [Row], to path: String) {
    do {
        try Output.json(rows).write(to: URL(fileURLWithPath: path))
    } catch {
        FileHandle.standardError.write(Data("loop-bench: cannot write \(path): \(error)\n".utf8))
        exit(1)
    }
}

if let cmoComparison {
    let rows = CMOComparison.run(userPath: cmoComparison.user, cmoPath: cmoComparison.cmo)
    if rows.isEmpty { exit(1) }
    Output.printTable(rows)
    if let jsonPath { writeJSON(rows, to: jsonPath) }
    exit(0)
}

let cases: [BenchCase] = [
    BenchCase(number: 1, name: "local scheduling", body: LocalScheduling.run),
    BenchCase(number: 2, name: "cross-thread scheduling", body: CrossThreadScheduling.run),
    BenchCase(number: 3, name: "timers", body: Timers.run),
    BenchCase(number: 4, name: "coalescing", body: Coalescing.run),
    BenchCase(number: 5, name: "publisher chain", body: PublisherChain.run),
    BenchCase(number: 5, name: "operators merge flatmap combinelatest zip", body: OperatorChains.run),
    BenchCase(number: 6, name: "memory", body: Memory.run),
    BenchCase(number: 7, name: "feed parsing", body: { FeedParsingBench.run($0, corpusRoot: corpus) }),
    BenchCase(number: 8, name: "daemon scale", body: DaemonScale.run),
    BenchCase(number: 9, name: "host loop", body: HostLoopBench.run),
    BenchCase(number: 10, name: "downloads", body: DownloadsBench.run),
    BenchCase(number: 11, name: "dashboard web", body: DashboardBench.run),
    BenchCase(number: 12, name: "media serving", body: MediaServingBench.run),
]

let selected = cases.filter { bench in
    filters.isEmpty || filters.contains { $0 == String(bench.number) || bench.name.contains($0) }
}
if selected.isEmpty {
    FileHandle.standardError.write(Data("loop-bench: no case matches \(filters)\n\(usage)".utf8))
    exit(2)
}

// The main loop must exist on the main thread before anything uses it.
precondition(Thread.isMainThread)
_ = EventLoop.main

let settings = RunSettings(quick: quick)
var rows: [Row] = []
let started = Date()
for bench in selected {
    FileHandle.standardError.write(Data("loop-bench: case \(bench.number) (\(bench.name))...\n".utf8))
    let caseStart = Date()
    rows += bench.body(settings)
    FileHandle.standardError.write(
        Data(
            String(format: "loop-bench: case %d took %.1f s\n", bench.number, Date().timeIntervalSince(caseStart)).utf8)
    )
}

print(
    "loop-bench \(quick ? "--quick " : "")(\(settings.runs) runs per figure after one warm-up; median [min-max]; ↓ lower is better, ↑ higher is better)"
)
Output.printTable(rows)
print(String(format: "total %.1f s; checksum %d", Date().timeIntervalSince(started), blackholeAccumulator))

if let jsonPath { writeJSON(rows, to: jsonPath) }
