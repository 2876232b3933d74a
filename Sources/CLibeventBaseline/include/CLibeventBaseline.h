// Baselines for loop-bench, written in plain C so that nothing of ours sits between
// the measurement and libevent / libxml2. Only plain C types cross this header, so the Swift side
// imports it without libevent's or libxml2's headers.
#ifndef CLIBEVENTBASELINE_H
#define CLIBEVENTBASELINE_H

#include <stdint.h>
#include <stddef.h>

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t clb_monotonic_ns(void);
/// CPU time (user + system) of the calling thread in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
uint64_t clb_thread_cpu_ns(void);

/// Re-activates one libevent event `count` times: its callback calls `event_active` on itself
/// until it has run `count` times, all inside one `event_base_loop`. `base` is an existing
/// `event_base*` to run on, or NULL for a fresh `event_base_new()` (freed afterwards).
/// `priority` < 0 keeps libevent's default. Returns how many callbacks ran; `*elapsed_ns` gets the
/// wall time of the loop alone (set-up excluded).
long clb_reactivate_one_event(void *base, long count, int priority, uint64_t *elapsed_ns);

/// Adds `count` one-shot libevent timers (one `event_new` each, freed in its callback) spread
/// evenly over `spread_us` microseconds on a fresh base with EVENT_BASE_FLAG_PRECISE_TIMER, as
/// EventLoop's bases are, then runs the base until all fired. Returns how many fired;
/// `*thread_cpu_ns` gets the calling thread's CPU time for adding and firing, `*wall_ns` the wall
/// time.
long clb_timers(long count, long spread_us, uint64_t *thread_cpu_ns, uint64_t *wall_ns);

/// libxml2's SAX2 parser over `length` bytes with callbacks that do nothing but count elements,
/// with the options PodcastFeeds' XMLReader uses (RECOVER | NONET | IGNORE_ENC,
/// xmlCreateMemoryParserCtxt + xmlParseDocument). Returns the number of elements, -1 on failure.
long clb_sax_floor(const char *bytes, int length);

/// Resident set size of the process in bytes (/proc/self/statm).
long clb_rss_bytes(void);
/// Bytes the C heap has handed out and not yet freed (glibc mallinfo2: uordblks + hblkhd).
size_t clb_heap_in_use(void);
/// Returns free heap memory to the system (glibc malloc_trim), so RSS readings start lower.
void clb_malloc_trim(void);
/// glibc's malloc_stats(): every arena's size and bytes in use, on stderr (diagnostics).
void clb_malloc_stats(void);

/// A loopback HTTP server on its own thread and event_base, for the daemon-scale case.
/// GET /feed/<n> answers with a generated RSS feed of `items_per_feed` items and an ETag; a
/// request whose If-None-Match equals that ETag gets 304 with no body. Anything else is 404.
/// It listens on 127.0.0.1 and, when `*hosts` > 1, on 127.0.0.2 ... 127.0.0.<hosts> with the same
/// port (all of 127/8 is loopback on Linux), so feeds spread over several hosts as a real
/// subscription list does (the daemon limits fetches per host). Returns an opaque handle (NULL
/// on failure), the bound port in `*port` and in `*hosts` how many addresses it listens on.
void *clb_server_start(int items_per_feed, int *hosts, int *port);
/// Requests answered so far: total, and with 304.
void clb_server_counts(void *server, long *total, long *not_modified);
/// Stops the server thread and frees everything.
void clb_server_stop(void *server);

/// A loopback HTTP server of large files for the download case (its own thread and base):
/// GET /file/<n> answers with the same `size` bytes for every n (Content-Length, an ETag).
/// Returns an opaque handle (NULL on failure) and the bound port in `*port`.
void *clb_file_server_start(size_t size, int *port);
/// Stops the file server's thread and frees everything.
void clb_file_server_stop(void *server);

#endif
