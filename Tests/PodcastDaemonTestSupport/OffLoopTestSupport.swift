import LoopScheduler
import PodcastEngine

/// Whether a held job was cancelled (shared by the job and its token).
package final class HeldFlag {
    package var cancelled = false

    package init() {}
}

/// An executor the test drives: jobs wait until the test starts and finishes them.
package final class HeldExecutor: OffLoopExecutor {
    package struct Held {
        package var started: () -> Void
        package var finish: () -> Void
        package var cancelled: () -> Bool
    }
    package private(set) var jobs: [Held] = []

    /// An executor holding no job.
    package init() {}

    package func submit<T: Sendable>(
        _ work: @escaping @Sendable () -> T, started: @escaping () -> Void, completion: @escaping (T) -> Void
    ) -> Cancellable {
        let flag = HeldFlag()
        jobs.append(
            Held(
                started: { if !flag.cancelled { started() } },
                finish: { if !flag.cancelled { completion(work()) } },
                cancelled: { flag.cancelled }))
        return AnyCancellable { flag.cancelled = true }
    }
}
