// Umbrella header for GLib 2 (Debian's libglib2.0-dev). System headers first, as for libevent
// (see docs/ARCHITECTURE.md, "Two traps"), so glibc's types match the Glibc module's.
#include <sys/types.h>
#include <sys/time.h>
#include <sys/select.h>
#include <poll.h>

#include <glib.h>
#include <glib-unix.h>
