// An in-process loopback HTTP server for the daemon-scale case (evhttp on its own thread and
// base), so the daemon under test talks real HTTP without leaving the process.
#define _GNU_SOURCE
#include "CLibeventBaseline.h"
#include <sys/types.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>

struct loopback_server {
    struct event_base *base;
    struct evhttp *http;
    pthread_t thread;
    int items_per_feed;
    long total;
    long not_modified;
};

static void add_feed_body(struct evbuffer *body, int feed, int items) {
    evbuffer_add_printf(body,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\">\n"
        "<channel><title>Bench feed %d</title><link>http://example.invalid/%d</link>\n"
        "<description>Generated for loop-bench</description>\n", feed, feed);
    for (int item = 0; item < items; item++) {
        evbuffer_add_printf(body,
            "<item><title>Episode %d of feed %d</title><guid>feed-%d-ep-%d</guid>\n"
            "<pubDate>Mon, %02d Jan 2024 10:00:00 +0000</pubDate>\n"
            "<description>Show notes for episode %d &amp; friends.</description>\n"
            "<enclosure url=\"http://example.invalid/%d/%d.mp3\" length=\"123456\" type=\"audio/mpeg\"/>\n"
            "<itunes:duration>42:17</itunes:duration></item>\n",
            item, feed, feed, item, 1 + item % 28, item, feed, item);
    }
    evbuffer_add_printf(body, "</channel></rss>\n");
}

static void handle_request(struct evhttp_request *request, void *arg) {
    struct loopback_server *server = arg;
    __atomic_add_fetch(&server->total, 1, __ATOMIC_RELAXED);
    const char *uri = evhttp_request_get_uri(request);
    int feed = -1;
    if (!uri || sscanf(uri, "/feed/%d", &feed) != 1 || feed < 0) {
        evhttp_send_error(request, 404, "Not Found");
        return;
    }
    char etag[64];
    snprintf(etag, sizeof etag, "\"feed-%d-v1\"", feed);
    struct evkeyvalq *out = evhttp_request_get_output_headers(request);
    evhttp_add_header(out, "ETag", etag);
    evhttp_add_header(out, "Last-Modified", "Mon, 01 Jan 2024 10:00:00 GMT");
    const char *match = evhttp_find_header(evhttp_request_get_input_headers(request), "If-None-Match");
    if (match && strcmp(match, etag) == 0) {
        __atomic_add_fetch(&server->not_modified, 1, __ATOMIC_RELAXED);
        evhttp_send_reply(request, 304, "Not Modified", NULL);
        return;
    }
    evhttp_add_header(out, "Content-Type", "application/rss+xml; charset=utf-8");
    struct evbuffer *body = evbuffer_new();
    add_feed_body(body, feed, server->items_per_feed);
    evhttp_send_reply(request, 200, "OK", body);
    evbuffer_free(body);
}

static void *serve(void *arg) {
    struct loopback_server *server = arg;
    event_base_loop(server->base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

void *clb_server_start(int items_per_feed, int *hosts, int *port) {
    struct loopback_server *server = calloc(1, sizeof *server);
    if (!server) return NULL;
    server->items_per_feed = items_per_feed;
    // Needs libevent threading enabled before this base exists (EventLoop does it) so that
    // clb_server_stop can break the loop from another thread.
    server->base = event_base_new();
    if (!server->base) goto fail;
    server->http = evhttp_new(server->base);
    if (!server->http) goto fail;
    evhttp_set_max_body_size(server->http, 1 << 20);
    evhttp_set_gencb(server->http, handle_request, server);
    struct evhttp_bound_socket *bound = evhttp_bind_socket_with_handle(server->http, "127.0.0.1", 0);
    if (!bound) goto fail;
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    if (getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *)&address, &length) != 0) goto fail;
    *port = ntohs(address.sin_port);
    // The other loopback addresses on the same port; stop at the first that cannot be bound
    // (the port may be taken there), so the hosts are always 127.0.0.1 ... 127.0.0.<*hosts>.
    int wanted = *hosts < 1 ? 1 : (*hosts > 254 ? 254 : *hosts);
    *hosts = 1;
    for (int host = 2; host <= wanted; host++) {
        char name[32];
        snprintf(name, sizeof name, "127.0.0.%d", host);
        if (evhttp_bind_socket(server->http, name, (ev_uint16_t)*port) != 0) break;
        *hosts = host;
    }
    if (pthread_create(&server->thread, NULL, serve, server) != 0) goto fail;
    return server;
fail:
    if (server->http) evhttp_free(server->http);
    if (server->base) event_base_free(server->base);
    free(server);
    return NULL;
}

void clb_server_counts(void *handle, long *total, long *not_modified) {
    struct loopback_server *server = handle;
    *total = __atomic_load_n(&server->total, __ATOMIC_RELAXED);
    *not_modified = __atomic_load_n(&server->not_modified, __ATOMIC_RELAXED);
}

void clb_server_stop(void *handle) {
    struct loopback_server *server = handle;
    if (!server) return;
    event_base_loopbreak(server->base);
    pthread_join(server->thread, NULL);
    evhttp_free(server->http);
    event_base_free(server->base);
    free(server);
}
