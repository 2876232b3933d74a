import Testing
import ViewModelKit

private final class Model: ObservableObject, @unchecked Sendable {
    @Published var count = 0
    @Published var name = "a"
    var deinitHook: (() -> Void)?
    deinit { deinitHook?() }
}

private class Base: ObservableObject {
    @Published var base = 0
}

private final class Derived: Base {
    @Published var derived = 0
}

private class PlainBase: ObservableObject {
    var untracked = 0
}

private final class DerivedFromPlain: PlainBase {
    @Published var value = 0
}

private final class CustomWillChange: ObservableObject {
    let objectWillChange = ObservableObjectPublisher()
    @Published var value = 0
}

private final class NoPublished: ObservableObject {
    var value = 0
}

@Suite struct PublishedTests {
    // Point 1: objectWillChange, then $x with the new value while the property is still old.
    @Test func orderOfEventsOnSet() {
        let model = Model()
        var log: [String] = []
        let c1 = model.objectWillChange.sink { log.append("willChange count=\(model.count)") }
        let c2 = model.$count.sink { log.append("$count \($0) property=\(model.count)") }
        model.count = 1
        log.append("after property=\(model.count)")
        #expect(
            log == [
                "$count 0 property=0",
                "willChange count=0",
                "$count 1 property=0",
                "after property=1",
            ])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func projectedPublisherReplaysCurrentValueOnDemand() {
        let model = Model()
        model.count = 5
        let recorder = Recorder<Int, Never>(initialDemand: nil)
        model.$count.subscribe(recorder)
        #expect(recorder.events == [.subscription])
        recorder.request(.max(1))
        model.count = 6  // no demand: missed
        recorder.request(.max(1))  // replays the stored value
        model.count = 7
        #expect(recorder.events == [.subscription, .value(5), .value(6)])
        recorder.cancel()
        model.count = 8
        #expect(recorder.values == [5, 6])
    }

    @Test func objectWillChangeFiresOncePerSetOfAnyProperty() {
        let model = Model()
        var fired = 0
        let c = model.objectWillChange.sink { fired += 1 }
        model.count = 1
        model.name = "b"
        model.count += 1
        #expect(fired == 3)
        c.cancel()
        model.count = 9
        #expect(fired == 3)
    }

    @Test func repeatedReadsReturnSameInstance() {
        let model = Model()
        #expect(model.objectWillChange === model.objectWillChange)
        let other = Model()
        #expect(other.objectWillChange !== model.objectWillChange)
        let plain = NoPublished()
        #expect(plain.objectWillChange === plain.objectWillChange)
    }

    @Test func publishedInSuperclassAndSubclassAreWired() {
        let object = Derived()
        var fired = 0
        let c = object.objectWillChange.sink { fired += 1 }
        object.base = 1
        object.derived = 2
        #expect(fired == 2)
        #expect(object.objectWillChange === object.objectWillChange)
        let fromPlain = DerivedFromPlain()
        var plainFired = 0
        let c2 = fromPlain.objectWillChange.sink { plainFired += 1 }
        fromPlain.value = 3
        #expect(plainFired == 1)
        withExtendedLifetime((c, c2)) {}
    }

    @Test func setBeforeFirstReadIsNotLostAfterwards() {
        let model = Model()
        model.count = 1  // nobody observes yet
        var fired = 0
        let c = model.objectWillChange.sink { fired += 1 }
        model.name = "z"
        #expect(fired == 1)
        c.cancel()
    }

    // Point 3: a custom objectWillChange is not sent to by @Published.
    @Test func customObjectWillChangeIsNotWired() {
        let object = CustomWillChange()
        var fired = 0
        let c = object.objectWillChange.sink { fired += 1 }
        object.value = 1
        #expect(fired == 0)
        object.objectWillChange.send()
        #expect(fired == 1)
        c.cancel()
    }

    @Test func objectWillChangeDoesNotKeepObjectAlive() {
        var released = false
        var model: Model? = Model()
        model!.deinitHook = { released = true }
        let publisher = model!.objectWillChange
        let c = publisher.sink {}
        model = nil
        #expect(released)
        c.cancel()
    }

    @Test func concurrentFirstReadsAgree() async {
        for _ in 0..<20 {
            let model = Model()
            let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<4 {
                    group.addTask { ObjectIdentifier(model.objectWillChange) }
                }
                var all = Set<ObjectIdentifier>()
                for await id in group { all.insert(id) }
                return all
            }
            #expect(ids.count == 1)
        }
    }

    // Point 4: assign(to: &$x) lives with the owner of $x and ignores upstream completion.
    @Test func assignToPublishedEndsWithOwnerAndIgnoresCompletion() {
        let source = PassthroughSubject<Int, Never>()
        var released = false
        var model: Model? = Model()
        model!.deinitHook = { released = true }
        source.assign(to: &model!.$count)
        let recorder = Recorder<Int, Never>()
        model!.$count.subscribe(recorder)
        var willChange = 0
        let c = model!.objectWillChange.sink { willChange += 1 }
        source.send(1)
        source.send(2)
        #expect(model!.count == 2)
        #expect(willChange == 2)
        source.send(completion: .finished)
        model!.count = 3
        #expect(recorder.events == [.subscription, .value(0), .value(1), .value(2), .value(3)])
        // The link does not keep the model alive, and ends with it.
        model = nil
        #expect(released)
        source.send(4)
        #expect(recorder.values == [0, 1, 2, 3])
        c.cancel()
        recorder.detachIfRunning()
    }

    @Test func assignToPublishedLinkIsCancelledOnDeinit() {
        let source = PassthroughSubject<Int, Never>()
        var model: Model? = Model()
        source.assign(to: &model!.$count)
        let probe = Recorder<Int, Never>()
        source.subscribe(probe)
        model = nil
        // The assign subscription left the subject: only the probe remains.
        source.send(1)
        #expect(probe.values == [1])
        probe.detachIfRunning()
    }

    @Test func projectedPublisherAfterSetsDeliversNewValues() {
        let model = Model()
        var seen: [String] = []
        let c = model.$name.sink { seen.append($0) }
        model.name = "b"
        model.name = "c"
        #expect(seen == ["a", "b", "c"])
        c.cancel()
    }

    @Test func projectedSubscriptionMayOutliveOwner() {
        var model: Model? = Model()
        let recorder = Recorder<Int, Never>(initialDemand: .max(1))
        model!.$count.subscribe(recorder)
        model!.count = 4  // no demand: missed
        model = nil
        recorder.request(.max(1))  // replays the last value the subject saw
        #expect(recorder.events == [.subscription, .value(0), .value(4)])
        recorder.cancel()
    }

    // Point 6 through @Published: a set made inside a $x sink is delivered depth-first.
    @Test func reentrantSetFromSinkIsDepthFirst() {
        let model = Model()
        var log: [String] = []
        let c0 = model.objectWillChange.sink { log.append("will count=\(model.count) name=\(model.name)") }
        let c1 = model.$count.dropFirst().sink { value in
            log.append("count \(value)")
            if value == 1 { model.name = "from-sink" }
            log.append("count \(value) end")
        }
        let c2 = model.$name.dropFirst().sink { log.append("name \($0) property=\(model.name)") }
        model.count = 1
        #expect(
            log == [
                "will count=0 name=a",
                "count 1",
                "will count=0 name=a",
                "name from-sink property=a",
                "count 1 end",
            ])
        #expect(model.count == 1)
        #expect(model.name == "from-sink")
        withExtendedLifetime((c0, c1, c2)) {}
    }

    // Not in Combine (whose ObservableObjectPublisher never completes): ours finishes its
    // subscribers when it dies with its object, so observers notice the death at once.
    @Test func defaultObjectWillChangeFinishesSubscribersWhenTheObjectDies() {
        var model: Model? = Model()
        let recorder = Recorder<Void, Never>()
        model!.objectWillChange.subscribe(recorder)
        model!.count = 1
        #expect(recorder.events.map(\.description) == ["subscription", "value(())"])
        model = nil
        #expect(recorder.events.map(\.description) == ["subscription", "value(())", "finished"])
    }

    @Test func customObservableObjectPublisherFinishesSubscribersOnDeinit() {
        var object: CustomWillChange? = CustomWillChange()
        var values = 0
        var completions = 0
        let token = object!.objectWillChange.sink(
            receiveCompletion: { _ in completions += 1 }, receiveValue: { values += 1 })
        object!.objectWillChange.send()
        object = nil
        #expect(values == 1)
        #expect(completions == 1)
        token.cancel()  // harmless after completion
        #expect(completions == 1)
    }

    @Test func publisherHeldElsewhereDoesNotFinishWhileAlive() {
        var model: Model? = Model()
        let publisher = model!.objectWillChange
        var completions = 0
        let token = publisher.sink(receiveCompletion: { _ in completions += 1 }, receiveValue: {})
        model = nil
        #expect(completions == 0)  // still alive: held by `publisher`
        publisher.send()
        withExtendedLifetime(publisher) {}
        token.cancel()
        #expect(completions == 0)
    }
}
