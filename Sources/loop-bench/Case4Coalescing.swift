import Dispatch
import Foundation
import LoopScheduler
import ViewModelKit

/// Case 4: 1,000 view models with one observer each; every iteration makes 100 `@Published`
/// changes per model. Ours: `ViewModelObserver` + `@ViewModel` on `EventLoop.main`. Baseline:
/// CombineViewModel's approach re-created over our reactive core: one
/// `DispatchSource.makeUserDataAddSource` on the main queue per observer, its handler calling
/// `updateView()`, the main queue drained by our main loop.
enum Coalescing {
    final class ItemModel: ObservableObject {
        @Published var value = 0
    }

    /// Shared by all observers of one side (main thread only).
    final class Tally: @unchecked Sendable {
        var updates = 0
        var expected = 0
        var lastUpdateNanoseconds: UInt64 = 0

        @inline(__always)
        func update() {
            updates += 1
            if updates == expected { lastUpdateNanoseconds = nowNanoseconds() }
        }
    }

    final class ItemView: ViewModelObserver {
        @ViewModel var model: ItemModel
        let tally: Tally

        init(model: ItemModel, tally: Tally) {
            _model = ViewModel(wrappedValue: model)
            self.tally = tally
        }

        func updateView() {
            tally.update()
            blackhole(model.value)
        }
    }

    /// CombineViewModel-style observer: its own user-data-add source on the main queue.
    final class DispatchItemView: @unchecked Sendable {
        let model: ItemModel
        let tally: Tally
        let source: DispatchSourceUserDataAdd
        var subscription: AnyCancellable?

        init(model: ItemModel, tally: Tally) {
            self.model = model
            self.tally = tally
            source = DispatchSource.makeUserDataAddSource(queue: .main)
            source.setEventHandler { [unowned self] in self.updateView() }
            source.activate()
            subscription = model.objectWillChange.sink { [source] _ in source.add(data: 1) }
        }

        func updateView() {
            tally.update()
            blackhole(model.value)
        }

        deinit {
            subscription?.cancel()
            source.cancel()
        }
    }

    /// The publisher form of the same observer: `model.observe(on: LoopScheduler.main).sink`
    /// (compared with the `@ViewModel` path in docs/PERFORMANCE.md).
    final class PublisherItemView {
        let model: ItemModel
        var token: AnyCancellable?

        init(model: ItemModel, tally: Tally) {
            self.model = model
            token = model.observe(on: LoopScheduler.main).sink { model in
                tally.update()
                blackhole(model.value)
            }
        }
    }

    struct Figures {
        var nanosecondsPerChange: Double
        var nanosecondsPerUpdate: Double
        /// Every iteration delivered exactly one update per observer.
        var exact: Bool
    }

    static func run(_ settings: RunSettings) -> [Row] {
        let modelCount = settings.size(1_000, quick: 100)
        let changesPerModel = settings.size(100, quick: 20)
        let iterations = 3

        let oursTally = Tally()
        let oursModels = (0..<modelCount).map { _ in ItemModel() }
        let oursViews = oursModels.map { ItemView(model: $0, tally: oursTally) }
        for view in oursViews { view.bindViewModels() }

        let baseTally = Tally()
        let baseModels = (0..<modelCount).map { _ in ItemModel() }
        let baseViews = baseModels.map { DispatchItemView(model: $0, tally: baseTally) }

        var oursExact = true
        var baseExact = true
        var oursUpdate: [Double] = []
        var baseUpdate: [Double] = []
        let (ours, base) = measurePair(
            runs: settings.runs,
            {
                let figures = iterate(
                    models: oursModels, tally: oursTally, changes: changesPerModel, iterations: iterations,
                    post: { work in EventLoop.main.execute(work) })
                oursExact = oursExact && figures.exact
                oursUpdate.append(figures.nanosecondsPerUpdate)
                return figures.nanosecondsPerChange
            },
            {
                let figures = iterate(
                    models: baseModels, tally: baseTally, changes: changesPerModel, iterations: iterations,
                    post: { work in DispatchQueue.main.async(execute: work) })
                baseExact = baseExact && figures.exact
                baseUpdate.append(figures.nanosecondsPerUpdate)
                return figures.nanosecondsPerChange
            })
        withExtendedLifetime(baseViews) {}
        // The first entry of each came from the warm-up run.
        let oursUpdateStats = Stats(samples: Array(oursUpdate.dropFirst()))
        let baseUpdateStats = Stats(samples: Array(baseUpdate.dropFirst()))
        let updateRatio =
            baseUpdateStats.median > 0 ? oursUpdateStats.median / baseUpdateStats.median : .infinity
        let exactNote =
            "updates per iteration exactly \(modelCount): ours \(oursExact ? "yes" : "NO"), dispatch sources \(baseExact ? "yes" : "NO")"
        let rows = [
            Row(
                name: "4 coalescing, per change", unit: "ns/change", better: .lower, value: ours,
                baselineName: "DispatchSource user-data-add per observer", baseline: base,
                target: "<= 150 ns/change, exactly \(modelCount) updates/iteration",
                met: ours.median <= 150 && oursExact,
                note:
                    "\(modelCount) models x \(changesPerModel) changes per iteration, \(iterations) iterations per run; whole iteration (changes + flush) / changes; \(exactNote)"
            ),
            Row(
                name: "4 coalescing, per updateView()", unit: "ns/update", better: .lower, value: oursUpdateStats,
                baselineName: "DispatchSource handler", baseline: baseUpdateStats,
                target: "<= 1.5x the DispatchSource handler",
                met: updateRatio <= 1.5 && oursExact,
                note: "from the end of the changes to the last updateView(), / observers"),
        ]
        // LOOP_BENCH_ROW=updateView: these two rows only, so that under callgrind the loop's
        // flush serves no other observer than the @ViewModel ones.
        if let only = ProcessInfo.processInfo.environment["LOOP_BENCH_ROW"],
            !"4 coalescing, observe(on:).sink per change".contains(only)
        {
            return rows
        }
        // The @ViewModel observers must live through that row too.
        return withExtendedLifetime(oursViews) {
            rows + [publisherRow(settings, oursModels: oursModels, oursTally: oursTally)]
        }
    }

    /// `observe(on: LoopScheduler.main).sink` against the `@ViewModel` path (the models of
    /// `oursModels`, whose observers the caller keeps alive), in the same run.
    static func publisherRow(_ settings: RunSettings, oursModels: [ItemModel], oursTally: Tally) -> Row {
        let modelCount = oursModels.count
        let changesPerModel = settings.size(100, quick: 20)
        let iterations = 3
        let publisherTally = Tally()
        let publisherModels = (0..<modelCount).map { _ in ItemModel() }
        let publisherViews = publisherModels.map { PublisherItemView(model: $0, tally: publisherTally) }
        var publisherExact = true
        let (publisher, viewModelPath) = measurePair(
            runs: settings.runs,
            {
                let figures = iterate(
                    models: publisherModels, tally: publisherTally, changes: changesPerModel, iterations: iterations,
                    post: { work in EventLoop.main.execute(work) })
                publisherExact = publisherExact && figures.exact
                return figures.nanosecondsPerChange
            },
            {
                iterate(
                    models: oursModels, tally: oursTally, changes: changesPerModel, iterations: iterations,
                    post: { work in EventLoop.main.execute(work) }
                ).nanosecondsPerChange
            })
        withExtendedLifetime(publisherViews) {}
        let publisherRatio = viewModelPath.median > 0 ? publisher.median / viewModelPath.median : .infinity
        return Row(
            name: "4 coalescing, observe(on:).sink per change", unit: "ns/change", better: .lower, value: publisher,
            baselineName: "@ViewModel path (same run)", baseline: viewModelPath,
            target: "<= 1.2x the @ViewModel path, exactly \(modelCount) values/iteration",
            met: publisherRatio <= 1.2 && publisherExact,
            note:
                "the same work through model.observe(on: LoopScheduler.main).sink; values per iteration exactly \(modelCount): \(publisherExact ? "yes" : "NO")"
        )
    }

    /// Runs `iterations` loop iterations; each makes `changes` changes to every model inside one
    /// callback posted with `post`, then lets the loop deliver the updates.
    static func iterate(
        models: [ItemModel], tally: Tally, changes: Int, iterations: Int,
        post: (@escaping @Sendable () -> Void) -> Void
    ) -> Figures {
        let transfer = UncheckedModels(models: models)
        var total: UInt64 = 0
        var updating: UInt64 = 0
        var exact = true
        for _ in 0..<iterations {
            tally.updates = 0
            tally.expected = models.count
            tally.lastUpdateNanoseconds = 0
            let stamps = Box<(UInt64, UInt64)>((0, 0))
            post {
                let start = nowNanoseconds()
                for model in transfer.models {
                    for _ in 0..<changes { model.value += 1 }
                }
                stamps.value = (start, nowNanoseconds())
            }
            runMainLoop(until: { tally.updates >= models.count })
            // Let anything else that is ready run, so an extra update would be counted.
            EventLoop.main.runOnce(blocking: false)
            if tally.updates != models.count { exact = false }
            total += tally.lastUpdateNanoseconds - stamps.value.0
            updating += tally.lastUpdateNanoseconds - stamps.value.1
        }
        let changeCount = Double(models.count * changes * iterations)
        return Figures(
            nanosecondsPerChange: Double(total) / changeCount,
            nanosecondsPerUpdate: Double(updating) / Double(models.count * iterations),
            exact: exact)
    }

    /// Carries the models into the posted closure (they are used on the main thread only).
    struct UncheckedModels: @unchecked Sendable {
        let models: [ItemModel]
    }
}
