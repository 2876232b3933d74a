import Testing

@testable import PodcastKit

@Test func placeholderPodcastKit() { #expect(1 + 1 == 2) }
