// c-hosted-loop: a C program that owns a libevent base and runs it itself, with Swift view models
// hosted on it through EventLoop(adopting:).
//
// The C side creates the base, registers its own timer and calls event_base_dispatch: Swift never
// runs the loop. Each timer tick delivers several "chunks" to the Swift view model; the view's
// updateView() runs once at the end of the iteration, however many chunks arrived in it.
#include <stdio.h>
#include <stdlib.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "hosted_view_models.h"

enum { TICKS = 3, CHUNK_BYTES = 4096 };

struct host {
    struct event *tick;
    int ticks;
};

static void on_tick(evutil_socket_t fd, short what, void *arg) {
    (void)fd;
    (void)what;
    struct host *host = arg;
    host->ticks += 1;
    int chunks = host->ticks * 2;  // 2, 4, 6 chunks in one callback each
    printf("C   tick %d: %d chunks arrive\n", host->ticks, chunks);
    for (int i = 0; i < chunks; i++) hosted_chunk_arrived(CHUNK_BYTES);
    // With no pending event left, event_base_dispatch returns after this iteration (the Swift
    // loop's internal events are only ever activated, never left pending).
    if (host->ticks == TICKS) event_del(host->tick);
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    // Before the base exists, so Swift may wake it from other threads (EventLoop.execute, stop,
    // LoopEventSource.signal); EventLoop.enableThreadSupport() is the same call.
    if (evthread_use_pthreads() != 0) return 1;
    struct event_base *base = event_base_new();
    if (base == NULL) return 1;
    // Three priorities, as EventLoop's own bases: our events get the default (1), the Swift flush
    // takes the lowest (2), so it runs after the iteration's callbacks, once per iteration. With
    // a single priority the flush would still come, but only "once per burst".
    if (event_base_priority_init(base, 3) != 0) return 1;
    if (hosted_attach(base) != 0) return 1;

    struct host host = {0};
    host.tick = event_new(base, -1, EV_PERSIST, on_tick, &host);
    struct timeval every = {0, 10 * 1000};
    event_add(host.tick, &every);

    printf("C   event_base_dispatch: C runs the loop\n");
    int result = event_base_dispatch(base);
    printf("C   event_base_dispatch returned %d after %d ticks; updateView ran %d times\n",
           result, host.ticks, hosted_update_count());

    event_free(host.tick);
    hosted_detach();
    event_base_free(base);  // ours: the adopted loop never frees it
    return 0;
}
