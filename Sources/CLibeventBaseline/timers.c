// The floor for case 3: one libevent timer per action, freed when it fires.
#include "CLibeventBaseline.h"
#include <sys/types.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <event2/event.h>

// The fired count of the run in progress (runs happen one at a time, on one thread).
static long fired_in_run;

static void fire_and_free(evutil_socket_t fd, short what, void *arg) {
    (void)fd;
    (void)what;
    fired_in_run += 1;
    event_free((struct event *)arg);
}

long clb_timers(long count, long spread_us, uint64_t *thread_cpu_ns, uint64_t *wall_ns) {
    struct event_config *config = event_config_new();
    if (!config) return -1;
    event_config_set_flag(config, EVENT_BASE_FLAG_PRECISE_TIMER);
    struct event_base *base = event_base_new_with_config(config);
    event_config_free(config);
    if (!base) return -1;
    fired_in_run = 0;
    uint64_t cpu_start = clb_thread_cpu_ns();
    uint64_t wall_start = clb_monotonic_ns();
    for (long index = 0; index < count; index++) {
        long offset_us = (long)((double)index * (double)spread_us / (double)count);
        struct timeval delay = {offset_us / 1000000, offset_us % 1000000};
        // event_self_cbarg(): the callback gets its own event, so it can free it.
        struct event *timer = event_new(base, -1, 0, fire_and_free, event_self_cbarg());
        if (!timer) break;
        event_add(timer, &delay);
    }
    event_base_dispatch(base);
    if (thread_cpu_ns) *thread_cpu_ns = clb_thread_cpu_ns() - cpu_start;
    if (wall_ns) *wall_ns = clb_monotonic_ns() - wall_start;
    event_base_free(base);
    return fired_in_run;
}
