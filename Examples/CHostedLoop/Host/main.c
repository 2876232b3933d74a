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
    struct event *tick;  // a timer at the default priority (1): delivers one batch of chunks
    struct event *next;  // at the lowest priority (2), after the Swift flush: arms the next tick
    int ticks;
};

static const struct timeval tick_interval = {0, 10 * 1000};

static void on_tick(evutil_socket_t fd, short what, void *arg) {
    (void)fd;
    (void)what;
    struct host *host = arg;
    host->ticks += 1;
    int chunks = host->ticks * 2;  // 2, 4, 6 chunks in one callback each
    printf("C   tick %d: %d chunks arrive\n", host->ticks, chunks);
    for (int i = 0; i < chunks; i++) hosted_chunk_arrived(CHUNK_BYTES);
    // The chunks signalled the Swift flush, which now waits at the lowest priority. Queue our
    // follow-up behind it, so this batch is drawn before the next one is armed. (A plain
    // repeating timer would do in a real program, but on a busy machine two ticks may then run
    // before the flush and be drawn once, which the iteration contract allows; the output of
    // this example must be the same on every run.)
    event_active(host->next, 0, 0);
}

static void on_next(evutil_socket_t fd, short what, void *arg) {
    (void)fd;
    (void)what;
    struct host *host = arg;
    // After the last tick nothing stays pending, so event_base_dispatch returns (the Swift loop's
    // own events are only ever activated, never left pending).
    if (host->ticks < TICKS) event_add(host->tick, &tick_interval);
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
    host.tick = event_new(base, -1, 0, on_tick, &host);
    host.next = event_new(base, -1, 0, on_next, &host);
    if (host.tick == NULL || host.next == NULL) return 1;
    event_priority_set(host.next, 2);
    event_add(host.tick, &tick_interval);

    printf("C   event_base_dispatch: C runs the loop\n");
    int result = event_base_dispatch(base);
    printf("C   event_base_dispatch returned %d after %d ticks; updateView ran %d times\n",
           result, host.ticks, hosted_update_count());

    event_free(host.next);
    event_free(host.tick);
    hosted_detach();
    event_base_free(base);  // ours: the adopted loop never frees it
    return 0;
}
