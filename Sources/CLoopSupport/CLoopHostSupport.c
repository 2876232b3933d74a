#include "CLoopHostSupport.h"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int cloop_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int cloop_epoll_control(int epfd, int operation, int fd, uint32_t events) {
    struct epoll_event event = {0};
    event.events = events;
    event.data.fd = fd;
    return epoll_ctl(epfd, operation, fd, &event);
}

int cloop_epoll_drain(int epfd) {
    struct epoll_event ready[32];
    int total = 0;
    for (int round = 0; round < 8; round++) {
        int count = epoll_wait(epfd, ready, 32, 0);
        if (count <= 0) break;
        total += count;
        if (count < 32) break;
    }
    return total;
}

int cloop_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
}

int cloop_timerfd_arm(int fd, int64_t deadline_ns) {
    struct itimerspec spec = {0};
    if (deadline_ns >= 0) {
        // it_value 0 would disarm: the earliest absolute instant is 1 ns.
        int64_t ns = deadline_ns > 0 ? deadline_ns : 1;
        spec.it_value.tv_sec = (time_t)(ns / 1000000000);
        spec.it_value.tv_nsec = (long)(ns % 1000000000);
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int cloop_eventfd_create(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int cloop_eventfd_signal(int fd) {
    uint64_t one = 1;
    return write(fd, &one, sizeof one) == (ssize_t)sizeof one ? 0 : -1;
}

int cloop_counter_drain(int fd) {
    uint64_t counter = 0;
    return read(fd, &counter, sizeof counter) == (ssize_t)sizeof counter && counter > 0 ? 1 : 0;
}
