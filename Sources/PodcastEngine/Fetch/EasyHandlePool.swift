import CCurl

/// libcurl easy handles kept between fetches (`curl_easy_reset`, then reused), so a poll does
/// not pay `curl_easy_init` and its clearing of a several-kilobyte handle: at thousands of 304
/// polls a second that was a tenth of the loop thread's instructions. Connections are not kept
/// here: they live in the multi handle's cache whichever easy handle uses them.
///
/// Holds at most `capacity` idle handles (the daemon's fetches in flight, 32 by default, fit);
/// a handle given back beyond that is cleaned up. Loop thread only, as the fetcher that owns it.
final class EasyHandlePool {
    private var idle: [UnsafeMutableRawPointer] = []
    private let capacity: Int

    /// A pool keeping up to `capacity` idle handles.
    init(capacity: Int = 64) {
        self.capacity = max(0, capacity)
    }

    deinit {
        for easy in idle { curl_easy_cleanup(easy) }
    }

    /// An idle handle with every option at its default, or a new one; `nil` when libcurl cannot
    /// allocate one.
    func take() -> UnsafeMutableRawPointer? {
        idle.popLast() ?? curl_easy_init()
    }

    /// Takes back a handle no multi handle holds: reset to its defaults and kept, or cleaned up
    /// when the pool is full.
    func give(_ easy: UnsafeMutableRawPointer) {
        guard idle.count < capacity else {
            curl_easy_cleanup(easy)
            return
        }
        curl_easy_reset(easy)
        idle.append(easy)
    }
}
