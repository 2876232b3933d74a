import Foundation
import ViewModelKit

/// Case 5: values through `PassthroughSubject → map → filter → removeDuplicates → sink`, and
/// `@Published` sets with a `$x` sink and an `objectWillChange` sink, against hand-written
/// closures doing the same work.
enum PublisherChain {
    static func run(_ settings: RunSettings) -> [Row] {
        let values = settings.size(10_000_000, quick: 200_000)
        let sets = settings.size(10_000_000, quick: 200_000)
        // LOOP_BENCH_ROW=word: only the rows whose name contains it (for profiling one row).
        let only = ProcessInfo.processInfo.environment["LOOP_BENCH_ROW"]
        var rows: [Row] = []
        let chainName = "5 subject→map→filter→removeDuplicates→sink"
        if only.map({ chainName.contains($0) }) ?? true {
            let (chain, chainFloor) = measurePair(
                runs: settings.runs, { publisherChain(values) }, { closureChain(values) })
            rows.append(
                Row(
                    name: chainName, unit: "ns/value", better: .lower, value: chain,
                    baselineName: "hand-written closure chain", baseline: chainFloor,
                    target: "<= 100 ns/value", met: chain.median <= 100,
                    note: "\(values) values"))
        }
        let publishedName = "5 @Published set ($x sink + objectWillChange sink)"
        if only.map({ publishedName.contains($0) }) ?? true {
            let (published, publishedFloor) = measurePair(
                runs: settings.runs, { publishedSets(sets) }, { closureSets(sets) })
            rows.append(
                Row(
                    name: publishedName, unit: "ns/set", better: .lower, value: published,
                    baselineName: "property calling two closures", baseline: publishedFloor,
                    target: "<= 120 ns/set", met: published.median <= 120,
                    note: "\(sets) sets"))
        }
        return rows
    }

    static func publisherChain(_ count: Int) -> Double {
        let subject = PassthroughSubject<Int, Never>()
        let cancellable =
            subject
            .map { Work.transform($0) }
            .filter { Work.keep($0) }
            .removeDuplicates()
            .sink { Work.consume($0) }
        let start = nowNanoseconds()
        for value in 0..<count { subject.send(value) }
        let elapsed = nowNanoseconds() - start
        cancellable.cancel()
        return Double(elapsed) / Double(count)
    }

    static func closureChain(_ count: Int) -> Double {
        let chain = ClosureChain.make()
        let send = chain.send
        let start = nowNanoseconds()
        for value in 0..<count { send(value) }
        let elapsed = nowNanoseconds() - start
        withExtendedLifetime(chain) {}
        return Double(elapsed) / Double(count)
    }

    final class Model: ObservableObject {
        @Published var x = 0
    }

    static func publishedSets(_ count: Int) -> Double {
        let model = Model()
        let values = model.$x.sink { Work.consume($0) }
        let willChange = model.objectWillChange.sink { Work.consume(1) }
        let start = nowNanoseconds()
        for value in 0..<count { model.x = value }
        let elapsed = nowNanoseconds() - start
        values.cancel()
        willChange.cancel()
        return Double(elapsed) / Double(count)
    }

    static func closureSets(_ count: Int) -> Double {
        let model = ClosureProperty.make()
        let start = nowNanoseconds()
        for value in 0..<count { model.x = value }
        let elapsed = nowNanoseconds() - start
        blackhole(model.x)
        return Double(elapsed) / Double(count)
    }
}
