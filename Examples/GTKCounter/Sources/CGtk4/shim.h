// GTK 4 (Debian's libgtk-4-dev). System headers first, as for libevent and GLib (see
// docs/ARCHITECTURE.md, "Two traps").
#include <sys/types.h>
#include <sys/time.h>
#include <sys/select.h>
#include <poll.h>

#include <gtk/gtk.h>
