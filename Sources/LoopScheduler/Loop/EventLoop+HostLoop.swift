extension EventLoop {
    /// Creates the interface a foreign main loop (GLib, libuv, a GUI toolkit's loop) uses to
    /// drive this loop without polling it: a descriptor, a deadline and a dispatch call (see
    /// `HostLoopDriver`). One driver per loop at a time.
    /// - Throws: `HostLoopError.alreadyDriven`, `.setupFailed`.
    public func makeHostDriver() throws -> HostLoopDriver {
        try HostLoopDriver(loop: self)
    }

    /// Wakes a host loop that drives this one when work arrives outside its dispatch.
    var hostWake: HostWake { flush.hostWake }
}
