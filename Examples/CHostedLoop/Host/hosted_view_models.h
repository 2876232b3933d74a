// The C face of the Swift side (ViewModels/HostedViewModels.swift, exported with @_cdecl).
// Call them on the thread that runs the base.
#ifndef HOSTED_VIEW_MODELS_H
#define HOSTED_VIEW_MODELS_H

#include <stdint.h>

struct event_base;

// Wraps `base` in an EventLoop (EventLoop(adopting:)) and binds a view and its view model to it.
// Returns 0, or -1 if the loop could not adopt the base.
int hosted_attach(struct event_base *base);

// One chunk of `bytes` bytes arrived: the view model changes (no drawing happens here).
void hosted_chunk_arrived(int64_t bytes);

// How many times the view drew so far (once at attach, then once per iteration with changes).
int hosted_update_count(void);

// Drops the view, the view model and the loop. Call before event_base_free.
void hosted_detach(void);

#endif
