import Testing
@testable import LoopScheduler

@Test func placeholderLoopScheduler() { #expect(1 + 1 == 2) }
