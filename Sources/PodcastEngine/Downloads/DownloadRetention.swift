import Dispatch
import Foundation
import PodcastStore

#if canImport(Glibc)
import Glibc
#endif

/// `--keep N`: deletes completed downloads beyond a feed's newest N. Only files the store
/// recorded as its own completed downloads are candidates (`DownloadLedger.doneBeyond`), and
/// each is deleted only if it is still the file the store wrote: a regular file (not a link)
/// whose size is the recorded one. A file someone replaced, grew or turned into a link is kept
/// (and reported). The deletions run off the loop thread.
enum DownloadRetention {
    /// What happened to one file.
    enum Outcome: Equatable, Sendable {
        /// Deleted.
        case deleted
        /// Already gone.
        case missing
        /// Left in place, with why.
        case kept(String)
    }

    /// Deletes `records`' files on a background queue, then calls `completion` on the loop
    /// (through `deliver`) with each outcome, in order.
    static func delete(
        _ records: [DownloadRecord], deliver: @escaping PartFile.Deliver,
        completion: @escaping ([(DownloadRecord, Outcome)]) -> Void
    ) {
        let box = CompletionBox(completion)
        let list = records
        DispatchQueue.global(qos: .utility).async {
            let results = list.map { ($0, deleteOne($0)) }
            deliver { box.value(results) }
        }
    }

    /// Deletes one record's file if it is still the store's (see the type). Any thread.
    static func deleteOne(_ record: DownloadRecord) -> Outcome {
        var info = stat()
        guard lstat(record.path, &info) == 0 else {
            return errno == ENOENT ? .missing : .kept(String(cString: strerror(errno)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .kept("not a regular file any more") }
        guard Int64(info.st_size) == record.bytes else {
            return .kept("its size changed (\(info.st_size) bytes, downloaded \(record.bytes))")
        }
        guard unlink(record.path) == 0 else { return .kept(String(cString: strerror(errno))) }
        return .deleted
    }

    private final class CompletionBox: @unchecked Sendable {
        let value: ([(DownloadRecord, Outcome)]) -> Void
        init(_ value: @escaping ([(DownloadRecord, Outcome)]) -> Void) { self.value = value }
    }
}
