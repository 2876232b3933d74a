import Testing

@testable import ViewModelKit

private final class Label: BindingOwner {
    nonisolated var subscriptions = Set<AnyCancellable>()
    var text = ""
    var title: String? = nil
    var setCount = 0
    func setText(_ newText: String) {
        setCount += 1
        text = newText
    }
}

extension Reactive where Base: Label {
    fileprivate var styledText: BindingSink<Base, String> {
        BindingSink(owner: base) { label, value in label.setText("*\(value)*") }
    }
}

/// A text field: the view side of a two-way binding.
private final class TextField: BindingOwner {
    nonisolated var subscriptions = Set<AnyCancellable>()
    let edits = PassthroughSubject<String, Never>()
    var text = "" {
        didSet { edits.send(text) }  // programmatic sets also report, as many toolkits do
    }
    var sets = 0
}

private final class FormModel: ObservableObject {
    @Published var name = "initial"
}

@Suite struct BindingTests {
    @Test func inputAndOutputOperatorsAssignAndStoreInTheOwner() {
        let label = Label()
        let names = PassthroughSubject<String, Never>()
        let token = label.reactive.text <~ names
        #expect(label.subscriptions.count == 1)
        names.send("a")
        #expect(label.text == "a")
        names ~> label.reactive.styledText
        #expect(label.subscriptions.count == 2)
        names.send("b")
        #expect(label.text == "*b*")
        token.cancel()
        names.send("c")
        #expect(label.text == "*c*")
    }

    @Test func optionalLifting() {
        let label = Label()
        let titles = PassthroughSubject<String, Never>()
        label.reactive.title <~ titles
        titles.send("t")
        #expect(label.title == "t")
        let other = CurrentValueSubject<String, Never>("u")
        other ~> label.reactive.title
        #expect(label.title == "u")
    }

    @Test func ownerDeathEndsTheBinding() {
        let names = PassthroughSubject<String, Never>()
        weak var weakLabel: Label?
        var received = 0
        let sink: BindingSink<Label, String>
        do {
            let label = Label()
            weakLabel = label
            sink = BindingSink(owner: label) { _, _ in received += 1 }
            sink <~ names
            names.send("a")
        }
        #expect(weakLabel == nil)  // bindings never retain their owner
        #expect(sink.owner == nil)
        names.send("b")
        #expect(received == 1)
    }

    @Test func sinkWhoseOwnerDiedCancelsOnNextValue() {
        let names = PassthroughSubject<String, Never>()
        var received = 0
        var token: AnyCancellable?
        do {
            let label = Label()
            let sink = BindingSink<Label, String>(owner: label) { _, _ in received += 1 }
            names.subscribe(sink)  // subscribed directly: not stored in the owner
            token = AnyCancellable(sink)
            names.send("a")
        }
        names.send("b")
        names.send("c")
        #expect(received == 1)
        token?.cancel()
    }

    @Test func bindingToADeadOwnerReturnsACancelledToken() {
        let names = PassthroughSubject<String, Never>()
        var sink: BindingSink<Label, String>?
        do {
            let label = Label()
            sink = label.reactive.text
        }
        let token = sink! <~ names
        names.send("x")
        token.cancel()
        #expect(sink!.owner == nil)
    }

    @Test func twoWayBindingWithoutPingPong() {
        let model = FormModel()
        let field = TextField()
        var modelWrites = 0
        let counter = model.$name.sink { _ in modelWrites += 1 }
        #expect(modelWrites == 1)  // replayed current value
        field.bindTwoWay(model, \.name, changes: model.$name, to: field.reactive.text, viewChanges: field.edits)
        #expect(field.text == "initial")
        #expect(field.subscriptions.count == 1)
        #expect(modelWrites == 1)  // the echo of the initial value was dropped
        field.text = "typed"
        #expect(model.name == "typed")
        #expect(modelWrites == 2)
        model.name = "from model"
        #expect(field.text == "from model")
        #expect(modelWrites == 3)  // the view's echo did not write back
        counter.cancel()
    }
}
