// The floor for case 1: one event whose callback re-activates itself.
#include "CLibeventBaseline.h"
#include <sys/types.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <event2/event.h>

struct reactivation {
    struct event *event;
    long remaining;
    long fired;
};

static void reactivate_callback(evutil_socket_t fd, short what, void *arg) {
    (void)fd;
    (void)what;
    struct reactivation *state = arg;
    state->fired += 1;
    if (--state->remaining > 0) event_active(state->event, EV_TIMEOUT, 0);
}

long clb_reactivate_one_event(void *base_arg, long count, int priority, uint64_t *elapsed_ns) {
    struct event_base *base = base_arg;
    int owned = 0;
    if (!base) {
        base = event_base_new();
        owned = 1;
    }
    if (!base || count <= 0) return -1;
    struct reactivation state = {NULL, count, 0};
    state.event = event_new(base, -1, 0, reactivate_callback, &state);
    if (!state.event) return -1;
    if (priority >= 0) event_priority_set(state.event, priority);
    uint64_t start = clb_monotonic_ns();
    event_active(state.event, EV_TIMEOUT, 0);
    // One non-blocking pass: an event activated during its own queue's pass runs in that pass,
    // so the loop returns once the chain ends (or when max_dispatch_interval cuts a pass short,
    // hence the loop).
    while (state.remaining > 0) event_base_loop(base, EVLOOP_ONCE | EVLOOP_NONBLOCK);
    uint64_t end = clb_monotonic_ns();
    if (elapsed_ns) *elapsed_ns = end - start;
    event_free(state.event);
    if (owned) event_base_free(base);
    return state.fired;
}
