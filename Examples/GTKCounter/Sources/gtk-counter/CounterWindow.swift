import CGtk4
import ViewModelKit

/// The view: a GTK 4 window with the count, a status line and three buttons. It draws the view
/// model in `updateView()`, which ViewModelKit calls once per main-loop iteration (here: once per
/// GLib iteration that ran our loop) however many changes the iteration made.
final class CounterWindow: ViewModelObserver {
    @ViewModel var viewModel: CounterViewModel
    let window: UnsafeMutablePointer<GtkWidget>
    let plusButton: UnsafeMutablePointer<GtkWidget>
    let minusButton: UnsafeMutablePointer<GtkWidget>
    private let countLabel: UnsafeMutablePointer<GtkWidget>
    private let statusLabel: UnsafeMutablePointer<GtkWidget>
    /// How many times the labels were redrawn.
    private(set) var redraws = 0

    static let title = "GTK Counter"

    init(viewModel: CounterViewModel) {
        window = gtk_window_new()
        gtk_window_set_title(cast(window), CounterWindow.title)
        gtk_window_set_default_size(cast(window), 360, 200)

        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_margin_top(column, 24)
        gtk_widget_set_margin_bottom(column, 24)
        gtk_widget_set_margin_start(column, 24)
        gtk_widget_set_margin_end(column, 24)
        countLabel = gtk_label_new("")
        statusLabel = gtk_label_new("")
        let buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        minusButton = gtk_button_new_with_label("−")
        plusButton = gtk_button_new_with_label("+")
        let resetButton = gtk_button_new_with_label("Reset")!
        for button in [minusButton, plusButton, resetButton] { gtk_box_append(cast(buttons), button) }
        for child in [countLabel, statusLabel, buttons] { gtk_box_append(cast(column), child) }
        gtk_window_set_child(cast(window), column)

        self.viewModel = viewModel
        connect(plusButton, "clicked") { [unowned self] in
            self.viewModel.increment()
            return false
        }
        connect(minusButton, "clicked") { [unowned self] in
            self.viewModel.decrement()
            return false
        }
        connect(resetButton, "clicked") { [unowned self] in
            self.viewModel.reset()
            return false
        }
        bindViewModels()  // draws once now
    }

    /// The label texts for a state of the view model (the test compares the final one).
    static func countText(_ model: CounterViewModel) -> String { "Count: \(model.count)" }

    /// What the count label shows now (GTK's own copy of the text).
    var shownCountText: String { String(cString: gtk_label_get_text(OpaquePointer(countLabel))) }

    func updateView() {
        redraws += 1
        gtk_label_set_text(OpaquePointer(countLabel), CounterWindow.countText(viewModel))
        gtk_label_set_text(
            OpaquePointer(statusLabel),
            "tick \(viewModel.ticks) · phase \(viewModel.phase)° · \(viewModel.changes) changes, \(redraws) redraws")
    }
}
