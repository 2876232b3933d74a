@_exported import LoopSchedulerFoundation
// ViewModelKitFoundation: Foundation's Combine extensions (`Timer.publish`, NotificationCenter
// and URLSession publishers, `RunLoop`/`OperationQueue` schedulers, `JSONEncoder` and friends as
// top-level coders), kept out of ViewModelKit so that the core depends on no Foundation.
@_exported import ViewModelKit
