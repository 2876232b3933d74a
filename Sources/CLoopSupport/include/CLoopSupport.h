// libdispatch's run-loop hooks, exported by libdispatch.so on Linux but declared in no public
// header. Foundation's RunLoop uses the same pair to drain the main queue from its own loop.
#ifndef CLOOPSUPPORT_H
#define CLOOPSUPPORT_H

/// The eventfd that becomes readable when the main dispatch queue has work.
extern int _dispatch_get_main_queue_handle_4CF(void);
/// Drains the main dispatch queue; must be called on the main thread.
extern void _dispatch_main_queue_callback_4CF(void *msg);

/// 1 when the calling thread is the process's main thread (its tid equals the pid), else 0.
int cloop_is_main_thread(void);

#include "CLoopHostSupport.h"

#endif
