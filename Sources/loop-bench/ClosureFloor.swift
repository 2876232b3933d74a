/// The work every stage of case 5 does, shared by the publisher chain and by the hand-written
/// floor so both run the same code. `@inline(never)`: the optimiser must call them, it cannot fold
/// the chain into arithmetic.
enum Work {
    @inline(never)
    static func transform(_ value: Int) -> Int { value >> 1 }  // pairs of equal values: 0,0,1,1,...

    @inline(never)
    static func keep(_ value: Int) -> Bool { value % 3 != 0 }

    @inline(never)
    static func consume(_ value: Int) { blackhole(value) }
}

/// The floor of case 5: map → filter → removeDuplicates → sink written as four closures that call
/// each other. The closures are made behind `@inline(never)`, so the caller sees opaque function
/// values and must make every indirect call.
final class ClosureChain {
    private var last: Int?
    private(set) var send: (Int) -> Void = { _ in }

    @inline(never)
    static func make() -> ClosureChain { ClosureChain() }

    @inline(never)
    private init() {
        let sink: (Int) -> Void = { Work.consume($0) }
        let deduplicate: (Int) -> Void = { [unowned self] value in
            if self.last == value { return }
            self.last = value
            sink(value)
        }
        let filter: (Int) -> Void = { value in if Work.keep(value) { deduplicate(value) } }
        send = { value in filter(Work.transform(value)) }
    }
}

/// The floor of the `@Published` figure: a property whose setter calls a will-change closure and
/// a value closure, then stores. `make()` installs the closures behind `@inline(never)`, so the
/// setter's calls stay indirect.
final class ClosureProperty {
    @inline(never)
    static func make() -> ClosureProperty {
        let property = ClosureProperty()
        property.willChange = { Work.consume(1) }
        property.didPublish = { Work.consume($0) }
        return property
    }

    var willChange: () -> Void = {}
    var didPublish: (Int) -> Void = { _ in }
    private var stored = 0

    var x: Int {
        get { stored }
        set {
            willChange()
            didPublish(newValue)
            stored = newValue
        }
    }
}
