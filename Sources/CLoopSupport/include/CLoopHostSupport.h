// Linux descriptors behind LoopScheduler's host-loop driver (epoll, timerfd, eventfd), wrapped in
// plain functions: Swift's Glibc module does not export these headers, and epoll_event is a
// packed struct on x86-64.
#ifndef CLOOPHOSTSUPPORT_H
#define CLOOPHOSTSUPPORT_H

#include <stdint.h>

/// Interest bits for cloop_epoll_control (EPOLLIN, EPOLLOUT, EPOLLRDHUP).
enum {
    CLOOP_EPOLL_IN = 0x001,
    CLOOP_EPOLL_OUT = 0x004,
    CLOOP_EPOLL_RDHUP = 0x2000,
};

/// epoll_create1(EPOLL_CLOEXEC); -1 and errno on failure.
int cloop_epoll_create(void);
/// epoll_ctl(epfd, ADD/MOD/DEL, fd) with `events` (level-triggered). `operation`: 1 add, 2 delete,
/// 3 modify (EPOLL_CTL_*). Returns 0, or -1 and errno.
int cloop_epoll_control(int epfd, int operation, int fd, uint32_t events);
/// Empties the epoll instance's ready list without blocking (epoll_wait with timeout 0, repeated
/// while full, at most a few rounds). Returns how many entries it consumed.
int cloop_epoll_drain(int epfd);
/// timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK).
int cloop_timerfd_create(void);
/// Arms the timerfd at an absolute CLOCK_MONOTONIC instant in nanoseconds (fires at once if it is
/// past); disarms it when `deadline_ns` is negative. Returns 0, or -1 and errno.
int cloop_timerfd_arm(int fd, int64_t deadline_ns);
/// eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK).
int cloop_eventfd_create(void);
/// Adds 1 to an eventfd counter (async-signal-safe). Returns 0, or -1 and errno.
int cloop_eventfd_signal(int fd);
/// Reads and so clears an eventfd or timerfd counter without blocking. Returns 1 if the counter
/// was non-zero (a timerfd expired, an eventfd was signalled), else 0.
int cloop_counter_drain(int fd);

#endif
