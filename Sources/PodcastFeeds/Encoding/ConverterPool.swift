import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Open iconv descriptors (to UTF-8), kept for reuse: `iconv_open` looks the converter up in
/// glibc's gconv tables on every call, which cost more than converting a small feed. A
/// descriptor is used by one caller at a time: taken out of the pool, used, reset and put back.
/// The lock only guards the pool; no iconv call runs under it.
enum ConverterPool {
    /// Kept per source encoding; more concurrent users than this just open and close their own.
    static let keptPerEncoding = 4

    /// glibc's reset (`iconv(cd, NULL, ...)`) does not forget the byte order a UTF-16/UTF-32/UCS
    /// converter learned from a BOM, so those are never reused (they are rare in feeds).
    static func isPoolable(_ encoding: String) -> Bool {
        let upper = encoding.uppercased()
        return
            !(upper.contains("UTF-16") || upper.contains("UTF16") || upper.contains("UTF-32")
            || upper.contains("UTF32") || upper.contains("UCS") || upper.contains("UNICODE"))
    }

    private struct Handle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer
    }

    private static let pool = Mutex<[String: [Handle]]>([:])

    /// A descriptor converting `encoding` to UTF-8 in its initial state, or `nil` when iconv
    /// does not know the encoding. Give it back with `giveBack(_:encoding:)`. Only poolable
    /// encodings are ever kept, so the check runs only when a descriptor is opened.
    static func take(_ encoding: String) -> Converter? {
        if let kept = pool.withLock({ $0[encoding]?.popLast() }) { return Converter(handle: kept.raw, reusable: true) }
        let handle = iconv_open("UTF-8", encoding)
        guard let handle, handle != iconv_t(bitPattern: -1) else { return nil }
        return Converter(handle: handle, reusable: isPoolable(encoding))
    }

    /// An open descriptor and whether it may go back to the pool.
    struct Converter {
        let handle: UnsafeMutableRawPointer
        let reusable: Bool
    }

    /// Resets `handle`'s shift state and keeps it for the next caller (or closes it when enough
    /// are kept already).
    static func giveBack(_ converter: Converter, encoding: String) {
        let handle = converter.handle
        guard converter.reusable else {
            iconv_close(handle)
            return
        }
        _ = iconv(handle, nil, nil, nil, nil)
        let kept = pool.withLock { pool -> Bool in
            var list = pool[encoding] ?? []
            guard list.count < keptPerEncoding else { return false }
            list.append(Handle(raw: handle))
            pool[encoding] = list
            return true
        }
        if !kept { iconv_close(handle) }
    }
}
