import Testing
import ViewModelKit

@Suite struct ChainTests {
    @Test func chainDeliversAndRespectsDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(initialDemand: .max(3))
        subject.map { $0 / 2 }.filter { $0 != 2 }.removeDuplicates().subscribe(recorder)
        for i in 0..<12 { subject.send(i) }
        // 0,0,1,1,2,2,3,3,4,4,5,5 -> filter 2 -> dedupe -> 0,1,3,4,5; demand 3.
        #expect(recorder.values == [0, 1, 3])
        recorder.detach()  // the subject never ends: its conduit and the recorder hold each other
        #expect(
            subject.map { $0 }.filter { _ in true }
                is Publishers.Filter<Publishers.Map<PassthroughSubject<Int, Never>, Int>>)
    }

    @Test func sinkOnChainCancelledByDroppingToken() {
        let subject = PassthroughSubject<Int, Never>()
        var seen: [Int] = []
        var token: AnyCancellable? = subject.map { $0 * 2 }.sink { seen.append($0) }
        subject.send(1)
        token = nil
        subject.send(2)
        #expect(seen == [2])
        #expect(token == nil)
    }
}
