// Umbrella header for libevent 2.1.
// The system headers come first: event2/event-config.h defines _GNU_SOURCE, and if it were seen
// first glibc's fd_set would differ from the one in the Glibc and Dispatch modules (see
// docs/ARCHITECTURE.md, "Two traps").
#include <sys/types.h>
#include <sys/time.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <signal.h>

#include <event2/event.h>
#include <event2/thread.h>
#include <event2/http.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/util.h>
#include <event2/keyvalq_struct.h>
