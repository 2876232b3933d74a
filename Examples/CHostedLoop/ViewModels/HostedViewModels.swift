// The Swift side of c-hosted-loop: a view model and a view on an EventLoop that adopts the C
// program's event_base. The C program calls these functions (see Host/hosted_view_models.h).
import ViewModelKit

/// The view model: progress of a download whose chunks the C side delivers.
final class DownloadViewModel: ObservableObject {
    @Published private(set) var chunks = 0
    @Published private(set) var bytes: Int64 = 0

    func chunkArrived(bytes count: Int64) {
        chunks += 1  // two changes per chunk, many chunks per iteration...
        bytes += count
    }
}

/// The view: draws on the adopted loop's flush, once per iteration with changes.
final class DownloadView: ViewModelObserver {
    let updateScheduler: LoopScheduler
    @ViewModel var download = DownloadViewModel()
    private(set) var updates = 0

    init(loop: EventLoop) {
        updateScheduler = LoopScheduler(loop: loop)  // read when the first @ViewModel binds
        bindViewModels()
    }

    func updateView() {
        updates += 1  // ...and one draw
        print("Swift updateView #\(updates): \(download.chunks) chunks, \(download.bytes) bytes")
    }
}

/// What the C side hosts. Touched only on the thread that runs the base.
nonisolated(unsafe) private var hosted: (loop: EventLoop, view: DownloadView)?

@_cdecl("hosted_attach")
func hostedAttach(_ base: OpaquePointer) -> Int32 {
    guard let loop = try? EventLoop(adopting: base) else { return -1 }
    hosted = (loop, DownloadView(loop: loop))
    return 0
}

@_cdecl("hosted_chunk_arrived")
func hostedChunkArrived(_ bytes: Int64) {
    hosted?.view.download.chunkArrived(bytes: bytes)
}

@_cdecl("hosted_update_count")
func hostedUpdateCount() -> Int32 {
    Int32(hosted?.view.updates ?? 0)
}

@_cdecl("hosted_detach")
func hostedDetach() {
    hosted = nil
}
