import Testing
@testable import ViewModelKit

@Test func placeholderViewModelKit() { #expect(1 + 1 == 2) }
