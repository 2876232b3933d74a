import Testing
import ViewModelKit

@Suite struct TransformOverloadTests {
    @Test func combineLatestWithTransform() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let c = PassthroughSubject<Int, Never>()
        let d = PassthroughSubject<Int, Never>()
        let two = Recorder<Int, Never>()
        let four = Recorder<Int, Never>()
        a.combineLatest(b) { $0 + $1 }.subscribe(two)
        a.combineLatest(b, c, d) { $0 * 1000 + $1 * 100 + $2 * 10 + $3 }.subscribe(four)
        a.send(1)
        b.send(2)
        c.send(3)
        d.send(4)
        a.send(5)
        #expect(two.values == [3, 7])
        #expect(four.values == [1234, 5234])
        two.detachIfRunning()
        four.detachIfRunning()
    }

    @Test func zipWithTransform() {
        let recorder = Recorder<String, Never>()
        [1, 2, 3].publisher.zip(["a", "b"].publisher, [true, false].publisher) { "\($0)\($1)\($2)" }
            .subscribe(recorder)
        #expect(recorder.events == [.subscription, .value("1atrue"), .value("2bfalse"), .finished])
    }

    @Test func flatMapNeverFailingUpstreamIntoFailingInners() {
        let recorder = Recorder<Int, TestError>()
        [1, 2].publisher.flatMap { value -> Publishers.Sequence<[Int], TestError> in
            Publishers.Sequence(sequence: [value, value])
        }.subscribe(recorder)
        #expect(recorder.values == [1, 1, 2, 2])
        let failing = Recorder<Int, TestError>()
        [1].publisher.flatMap { _ in Fail<Int, TestError>(error: TestError("inner")) }.subscribe(failing)
        #expect(failing.events == [.subscription, .failure(TestError("inner"))])
    }

    @Test func flatMapFailingUpstreamIntoNeverFailingInners() {
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        subject.flatMap { [$0, $0 * 10].publisher }.subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError("outer")))
        #expect(recorder.events == [.subscription, .value(1), .value(10), .failure(TestError("outer"))])
    }

    @Test func switchToLatestOverloads() {
        let neverOuter = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
        let inner = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>()
        neverOuter.switchToLatest().subscribe(recorder)
        neverOuter.send(inner)
        inner.send(1)
        inner.send(completion: .failure(TestError("inner")))
        #expect(recorder.events == [.subscription, .value(1), .failure(TestError("inner"))])

        let failingOuter = PassthroughSubject<Publishers.Sequence<[Int], Never>, TestError>()
        let second = Recorder<Int, TestError>()
        failingOuter.switchToLatest().subscribe(second)
        failingOuter.send([1, 2].publisher)
        failingOuter.send(completion: .failure(TestError("outer")))
        #expect(second.events == [.subscription, .value(1), .value(2), .failure(TestError("outer"))])

        let plain = Recorder<Int, Never>()
        [[1].publisher, [2, 3].publisher].publisher.switchToLatest().subscribe(plain)
        #expect(plain.events == [.subscription, .value(1), .value(2), .value(3), .finished])
    }
}
