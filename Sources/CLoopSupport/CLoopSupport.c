// Small helpers Swift cannot reach directly (syscall is variadic).
#define _GNU_SOURCE
#include "CLoopSupport.h"
#include <sys/syscall.h>
#include <unistd.h>

int cloop_is_main_thread(void) {
    return (pid_t)syscall(SYS_gettid) == getpid() ? 1 : 0;
}
