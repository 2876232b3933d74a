import Foundation
import Testing
import ViewModelKitFoundation

/// `RunLoop.SchedulerTimeType` and `OperationQueue.SchedulerTimeType`: one type in
/// LoopSchedulerFoundation (there were two copies), with Combine's shape under Apple's names.
@Suite struct DateSchedulerTimeTests {
    @Test func bothFoundationSchedulersShareOneTimeType() {
        #expect(RunLoop.SchedulerTimeType.self == DateSchedulerTime.self)
        #expect(OperationQueue.SchedulerTimeType.self == DateSchedulerTime.self)
        let runLoopTime = RunLoop.main.now
        let queueTime: OperationQueue.SchedulerTimeType = runLoopTime  // no conversion needed
        #expect(queueTime.date == runLoopTime.date)
    }

    @Test func combinesShapeUnderApplesNames() throws {
        // Literals are seconds (Combine's IntegerLiteralType is TimeInterval for both types).
        let one: RunLoop.SchedulerTimeType.Stride = 1
        let half: OperationQueue.SchedulerTimeType.Stride = 0.5
        #expect(one.timeInterval == 1)
        #expect(half.magnitude == 0.5)
        // Codable, as Combine's RunLoop.SchedulerTimeType is.
        let time = RunLoop.SchedulerTimeType(Date(timeIntervalSince1970: 1_000))
        let data = try JSONEncoder().encode(time)
        #expect(try JSONDecoder().decode(RunLoop.SchedulerTimeType.self, from: data) == time)
        let stride = RunLoop.SchedulerTimeType.Stride.milliseconds(250)
        #expect(
            try JSONDecoder().decode(RunLoop.SchedulerTimeType.Stride.self, from: JSONEncoder().encode(stride))
                == stride)
    }
}
