import Testing
import ViewModelKit

/// The synthesised `objectWillChange` finds `@Published` properties without
/// `Mirror`, so a class whose custom mirror hides them is still wired, as in Combine.
@Suite struct PublishedReflectionTests {
    final class Hidden: ObservableObject, CustomReflectable {
        @Published var count = 0
        @Published var name = "a"
        var customMirror: Mirror { Mirror(self, children: []) }
    }

    class Base: ObservableObject, CustomReflectable {
        @Published var base = 0
        var customMirror: Mirror { Mirror(self, children: ["nothing": 0]) }
    }

    final class Derived: Base {
        @Published var derived = 0
    }

    @Test func aCustomMirrorThatHidesTheChildrenStillDrivesObjectWillChange() {
        let model = Hidden()
        var changes = 0
        let token = model.objectWillChange.sink { changes += 1 }
        model.count = 1
        model.name = "b"
        #expect(changes == 2)
        withExtendedLifetime(token) {}
    }

    @Test func propertiesOfBaseAndSubclassBothDriveTheOnePublisher() {
        let model = Derived()
        var changes = 0
        let token = model.objectWillChange.sink { changes += 1 }
        model.base = 1
        model.derived = 1
        #expect(changes == 2)
        withExtendedLifetime(token) {}
    }
}
