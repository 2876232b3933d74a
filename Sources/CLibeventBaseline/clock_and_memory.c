#define _GNU_SOURCE
#include "CLibeventBaseline.h"
#include <malloc.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

uint64_t clb_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t clb_thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

long clb_rss_bytes(void) {
    FILE *file = fopen("/proc/self/statm", "r");
    if (!file) return -1;
    long size = 0, resident = 0;
    int read = fscanf(file, "%ld %ld", &size, &resident);
    fclose(file);
    if (read != 2) return -1;
    return resident * sysconf(_SC_PAGESIZE);
}

size_t clb_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

void clb_malloc_trim(void) {
    malloc_trim(0);
}

void clb_malloc_stats(void) {
    malloc_stats();
}
