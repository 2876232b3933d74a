import CGtk4

/// A Swift closure as a GObject signal handler: boxed, passed as the handler's data, released by
/// GLib when the handler is disconnected or the object finalised.
private final class SignalHandler {
    let body: () -> Bool
    init(_ body: @escaping () -> Bool) { self.body = body }
}

private let runHandler: @convention(c) (gpointer?, gpointer?) -> gboolean = { _, data in
    Unmanaged<SignalHandler>.fromOpaque(data!).takeUnretainedValue().body() ? 1 : 0
}

private let releaseHandler: GClosureNotify = { data, _ in
    Unmanaged<SignalHandler>.fromOpaque(data!).release()
}

/// Connects `body` to `signal` of the GObject `instance` (GLib `g_signal_connect_data`). For
/// signals whose handler returns `gboolean` (`close-request`), `body`'s result is returned;
/// for `void` ones (`clicked`) it is ignored.
func connect(_ instance: UnsafeMutableRawPointer, _ signal: String, _ body: @escaping () -> Bool) {
    let data = Unmanaged.passRetained(SignalHandler(body)).toOpaque()
    g_signal_connect_data(
        instance, signal, unsafeBitCast(runHandler, to: GCallback.self), data, releaseHandler,
        GConnectFlags(rawValue: 0))
}

/// A `GtkWidget*` seen as the GObject or subtype that a GTK call expects.
@inline(__always)
func cast<T>(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
}

/// Emits `button`'s "clicked" signal now, as a user's click does (GLib `g_signal_emitv`;
/// `g_signal_emit_by_name` is variadic, and `gtk_widget_activate` only clicks after a 250 ms
/// animation, once however often it is called).
func emitClicked(_ button: UnsafeMutablePointer<GtkWidget>) {
    var instance = GValue()
    g_value_init(&instance, gtk_button_get_type())
    g_value_set_object(&instance, button)
    g_signal_emitv(&instance, g_signal_lookup("clicked", gtk_button_get_type()), 0, nil)
    g_value_unset(&instance)
}
