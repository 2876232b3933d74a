import Foundation
import Testing

@testable import PodcastCommandLine
@testable import PodcastStore

/// `list` shows a hook that is failing but not given up yet: the soonest
/// owed retry with its attempt, the limit, when, and why; before, nothing showed until the last
/// attempt had failed.
@Suite struct ListHookRetryTests {
    let state = temporaryDirectory()

    func run(_ args: String...) -> (ExitCode, String, String) { runCommand(state: state, args) }

    @Test func pendingRetriesShowInListAndListJSON() throws {
        #expect(run("add", "--no-check", "http://a.example/f").0 == .success)
        let store = try FeedStore(path: state + "/" + StateLocation.databaseName)
        var ids: [Int64] = []
        for guid in ["x", "y"] {
            try store.database.run(
                "INSERT INTO episodes (feed_id, identity, guid, title, first_seen) VALUES (1, ?1, ?2, 'T', ?3)",
                .text("guid:" + guid), .text(guid), .date(Date()))
            ids.append(store.database.lastInsertRowID)
        }
        let due = Date(timeIntervalSince1970: 1_800_000_000)
        try store.saveHookRetry(
            PendingHookRetry(episodeID: ids[0], attempt: 2, due: due, lastError: "exited with status 1", attempts: 4))
        // Written before the store kept the limit: no "/N".
        try store.saveHookRetry(
            PendingHookRetry(episodeID: ids[1], attempt: 3, due: due + 60, lastError: "killed by signal 9"))

        let listed = run("list").1
        #expect(
            listed.hasSuffix(
                "    hook failing, retry 2/4 at 2027-01-15T08:00:00Z: exited with status 1 (2 episodes owe a hook run)\n"
            ),
            "\(listed)")
        #expect(
            run("list", "--json").1.hasSuffix(
                "\"hook_error\":null,\"hook_retry\":{\"attempt\":2,\"attempts\":4,\"due\":\"2027-01-15T08:00:00Z\",\"error\":\"exited with status 1\",\"pending\":2}}\n"
            ))
        // A reload set hook-retries to 2: the limit shown follows it (3 attempts).
        try store.setHookRetryLimit(3)
        #expect(run("list").1.contains("    hook failing, retry 2/3 at 2027-01-15T08:00:00Z: exited with status 1"))
        try store.clearHookRetry(episodeID: ids[0])
        try store.saveHookRetry(
            PendingHookRetry(episodeID: ids[1], attempt: 3, due: due + 60, lastError: "killed by signal 9"))
        #expect(run("list").1.hasSuffix("    hook failing, retry 3 at 2027-01-15T08:01:00Z: killed by signal 9\n"))
        try store.clearHookRetry(episodeID: ids[1])
        #expect(!run("list").1.contains("hook failing"))
        #expect(run("list", "--json").1.hasSuffix("\"hook_error\":null}\n"))  // the key only while owed
    }
}
