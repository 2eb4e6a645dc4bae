#include "hottask_curl.h"

#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/// Answers larger than this are cut off and said to be too large (HT_TOO_LARGE): a listing of
/// the store's 250,000 tasks is about 80 MB.
static const size_t maximum_answer = (size_t)HT_MAXIMUM_ANSWER_MB * 1024 * 1024;

static size_t collect(char *data, size_t size, size_t count, void *target) {
    ht_buffer *buffer = target;
    size_t length = size * count;
    if (buffer->length + length > maximum_answer) {
        buffer->too_large = 1;
        return 0;
    }
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->length + length + 1) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) return 0;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, data, length);
    buffer->length += length;
    buffer->bytes[buffer->length] = 0;
    return length;
}

/// Where a body goes: a 207's to the request's sink when it has one, any other to the buffer.
typedef struct {
    void *curl;
    const ht_request *request;
    ht_response *response;
} body_target;

static size_t deliver(char *data, size_t size, size_t count, void *target);

/// libcurl, loaded when a sync starts: `hottask` and `hottask-sync` are one program, and the
/// ~30 libraries libcurl brings would cost every other command's start-up about 5 ms.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *curl);
    void (*easy_reset)(CURL *curl);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *curl);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
} lib;

/// Why libcurl could not be loaded ("" when it was).
static char load_error[200];
/// Set once every function was found and libcurl initialized: a library that lacks one of
/// them is never half used.
static int loaded;

static int load_libcurl(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "libcurl.so.4 not found");
        return HT_NO_LIBCURL;
    }
#define HT_LOAD(field, name) \
    if (!(*(void **)&lib.field = dlsym(library, name))) { \
        snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", name); \
        return HT_NO_LIBCURL; \
    }
    HT_LOAD(global_init, "curl_global_init")
    HT_LOAD(easy_init, "curl_easy_init")
    HT_LOAD(easy_cleanup, "curl_easy_cleanup")
    HT_LOAD(easy_reset, "curl_easy_reset")
    HT_LOAD(easy_setopt, "curl_easy_setopt")
    HT_LOAD(easy_perform, "curl_easy_perform")
    HT_LOAD(easy_getinfo, "curl_easy_getinfo")
    HT_LOAD(easy_strerror, "curl_easy_strerror")
    HT_LOAD(slist_append, "curl_slist_append")
    HT_LOAD(slist_free_all, "curl_slist_free_all")
#undef HT_LOAD
    if (lib.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return HT_NO_LIBCURL;
    loaded = 1;
    return 0;
}

static size_t deliver(char *data, size_t size, size_t count, void *target) {
    body_target *body = target;
    long status = 0;
    if (body->request->sink) lib.easy_getinfo(body->curl, CURLINFO_RESPONSE_CODE, &status);
    if (status != 207) return collect(data, size, count, &body->response->body);
    if (body->request->sink(body->request->sink_context, data, size * count)) return size * count;
    body->response->sink_stopped = 1;
    return 0;
}

int ht_curl_global_init(void) {
    int loaded = load_libcurl();
    if (loaded != 0 && load_error[0] == 0) snprintf(load_error, sizeof load_error, "curl_global_init failed");
    return loaded;
}

const char *ht_curl_load_error(void) { return load_error; }

void *ht_curl_open(void) { return loaded ? lib.easy_init() : NULL; }

void ht_curl_close(void *handle) {
    if (handle) lib.easy_cleanup(handle);
}

int ht_curl_perform(void *handle, const ht_request *request, ht_response *response) {
    CURL *curl = handle;
    memset(response, 0, sizeof *response);
    if (!curl) {
        snprintf(response->error, sizeof response->error, "%s", load_error[0] ? load_error : "libcurl is not loaded");
        response->curl_code = HT_NO_LIBCURL;
        return HT_NO_LIBCURL;
    }
    // What an earlier request on this handle set must not leak into this one; the handle's
    // connections stay open across the reset.
    lib.easy_reset(curl);
    lib.easy_setopt(curl, CURLOPT_URL, request->url);
    lib.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    lib.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    // An https address is never followed to plain http (the tasks and the login would travel
    // unencrypted); libcurl drops the login itself on a redirect to another host or port.
    lib.easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, strncasecmp(request->url, "https:", 6) == 0 ? "https" : "http,https");
    // A 301 or 302 keeps the method and its body (libcurl would otherwise send a REPORT empty).
    lib.easy_setopt(curl, CURLOPT_POSTREDIR, (long)CURL_REDIR_POST_ALL);
    lib.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, request->follow_redirects ? 1L : 0L);
    lib.easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    // One limit for the whole request (libcurl's low-speed check lags by its ~6 s average).
    lib.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->timeout_ms);
    lib.easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    lib.easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
    lib.easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    if (request->ca_file) lib.easy_setopt(curl, CURLOPT_CAINFO, request->ca_file);
    lib.easy_setopt(curl, CURLOPT_ERRORBUFFER, response->error);
    body_target body = {curl, request, response};
    lib.easy_setopt(curl, CURLOPT_WRITEFUNCTION, deliver);
    lib.easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    lib.easy_setopt(curl, CURLOPT_HEADERFUNCTION, collect);
    lib.easy_setopt(curl, CURLOPT_HEADERDATA, &response->headers);

    struct curl_slist *headers = NULL;
    for (int i = 0; i < request->header_count; i++) headers = lib.slist_append(headers, request->headers[i]);
    // No "Expect: 100-continue": it costs a round trip (or a second's wait) before each body.
    headers = lib.slist_append(headers, "Expect:");
    lib.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

    if (request->body) {
        lib.easy_setopt(curl, CURLOPT_POSTFIELDS, request->body);
        lib.easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    }
    if (strcmp(request->method, "GET") != 0) lib.easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request->method);

    CURLcode code = lib.easy_perform(curl);
    lib.slist_free_all(headers);
    // The sink stopped reading: the answer came, and its reader knows why it stopped.
    if (code == CURLE_WRITE_ERROR && response->sink_stopped) code = CURLE_OK;
    if (code == CURLE_OK) {
        lib.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
        char *final_url = NULL;
        if (lib.easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &final_url) == CURLE_OK && final_url &&
            strlen(final_url) < sizeof response->final_url) {
            strcpy(response->final_url, final_url);
        }
    }
    if (code != CURLE_OK && response->error[0] == 0) {
        strncpy(response->error, lib.easy_strerror(code), sizeof response->error - 1);
    }
    int result = code;
    if (code == CURLE_WRITE_ERROR && response->body.too_large) result = HT_TOO_LARGE;
    if (code == CURLE_UNSUPPORTED_PROTOCOL && strncasecmp(request->url, "https:", 6) == 0) result = HT_DOWNGRADE;
    response->curl_code = result;
    return result;
}

void ht_response_free(ht_response *response) {
    free(response->body.bytes);
    free(response->headers.bytes);
    response->body = (ht_buffer){0};
    response->headers = (ht_buffer){0};
}
