import Testing

@testable import PodcastCommandLine

@Suite struct StateLocationTests {
    @Test func stateDirectoryFollowsXDG() {
        #expect(
            StateLocation.defaultDirectory(environment: ["XDG_STATE_HOME": "/x/state/", "HOME": "/h"])
                == "/x/state/podcast-watch")
        #expect(
            StateLocation.defaultDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"])
                == "/h/.local/state/podcast-watch")
        #expect(StateLocation.defaultDirectory(environment: ["HOME": "/h"]) == "/h/.local/state/podcast-watch")
        #expect(StateLocation.defaultDirectory(environment: [:]) == nil)
        #expect(StateLocation.resolve("s", environment: [:], currentDirectory: "/w") == "/w/s")
        #expect(StateLocation.resolve("/abs", environment: [:], currentDirectory: "/w") == "/abs")
    }
}
