// A loopback HTTP server of large files for the download case: evhttp on its own
// thread and base; GET /file/<n> answers with the same `size`-byte body for every n, sent
// without copying (evbuffer_add_reference), with Content-Length and an ETag.
#define _GNU_SOURCE
#include "CLibeventBaseline.h"
#include <sys/types.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/buffer.h>

struct file_server {
    struct event_base *base;
    struct evhttp *http;
    pthread_t thread;
    unsigned char *blob;
    size_t size;
};

static void handle_file(struct evhttp_request *request, void *arg) {
    struct file_server *server = arg;
    if (strncmp(evhttp_request_get_uri(request), "/file/", 6) != 0) {
        evhttp_send_error(request, 404, "Not Found");
        return;
    }
    struct evkeyvalq *out = evhttp_request_get_output_headers(request);
    evhttp_add_header(out, "Content-Type", "audio/mpeg");
    evhttp_add_header(out, "ETag", "\"bench\"");
    struct evbuffer *body = evbuffer_new();
    evbuffer_add_reference(body, server->blob, server->size, NULL, NULL);
    evhttp_send_reply(request, 200, "OK", body);
    evbuffer_free(body);
}

static void *serve_files(void *arg) {
    struct file_server *server = arg;
    event_base_loop(server->base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

void *clb_file_server_start(size_t size, int *port) {
    struct file_server *server = calloc(1, sizeof *server);
    if (!server) return NULL;
    server->size = size;
    server->blob = malloc(size ? size : 1);
    if (!server->blob) goto fail;
    uint32_t x = 12345;
    for (size_t i = 0; i < size; i++) {
        x = x * 1103515245u + 12345u;
        server->blob[i] = (unsigned char)(x >> 16);
    }
    server->base = event_base_new();
    if (!server->base) goto fail;
    server->http = evhttp_new(server->base);
    if (!server->http) goto fail;
    evhttp_set_gencb(server->http, handle_file, server);
    struct evhttp_bound_socket *bound = evhttp_bind_socket_with_handle(server->http, "127.0.0.1", 0);
    if (!bound) goto fail;
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    if (getsockname(evhttp_bound_socket_get_fd(bound), (struct sockaddr *)&address, &length) != 0) goto fail;
    *port = ntohs(address.sin_port);
    if (pthread_create(&server->thread, NULL, serve_files, server) != 0) goto fail;
    return server;
fail:
    if (server->http) evhttp_free(server->http);
    if (server->base) event_base_free(server->base);
    free(server->blob);
    free(server);
    return NULL;
}

void clb_file_server_stop(void *handle) {
    struct file_server *server = handle;
    if (!server) return;
    event_base_loopbreak(server->base);
    pthread_join(server->thread, NULL);
    evhttp_free(server->http);
    event_base_free(server->base);
    free(server->blob);
    free(server);
}
