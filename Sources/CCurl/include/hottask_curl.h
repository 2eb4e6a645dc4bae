// One HTTP request over libcurl, for hottask-sync's transport. curl_easy_setopt is variadic,
// which Swift cannot call: these few plain functions set what HotTask needs and collect the
// answer into buffers, so Swift passes no callbacks.
#ifndef HOTTASK_CURL_H
#define HOTTASK_CURL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes collected from an answer (body or headers), grown by libcurl's callbacks.
typedef struct {
    char *bytes;
    size_t length;
    size_t capacity;
    /// Set when the answer went over HT_MAXIMUM_ANSWER_MB and was cut off.
    int too_large;
} ht_buffer;

/// What a request needs. `body` may be NULL. `headers` holds `header_count` lines "Name: value".
typedef struct {
    const char *method;
    const char *url;
    const char *const *headers;
    int header_count;
    const char *body;
    size_t body_length;
    /// Milliseconds the whole request may take, connecting included.
    long timeout_ms;
    /// A PEM file of CA certificates to trust instead of the system's, or NULL.
    const char *ca_file;
    int follow_redirects;
    /// When set, the body of a 207 answer goes to `sink` piece by piece as it comes, not into
    /// the response's buffer (and so no answer limit applies to it). `sink` returns 0 to stop
    /// reading; the request then ends as an answer that came (`sink_stopped` set).
    int (*sink)(void *context, const char *bytes, size_t length);
    void *sink_context;
} ht_request;

/// The answer: HTTP status, body and raw header lines, and libcurl's words when it failed.
typedef struct {
    long status;
    ht_buffer body;
    ht_buffer headers;
    int curl_code;
    char error[256];
    /// The address that answered, after any redirects ("" when too long to keep).
    char final_url[2048];
    /// Set when the request's sink asked to stop reading.
    int sink_stopped;
} ht_response;

/// Loads libcurl (dlopen) and initializes it, once per process (not thread-safe itself: call
/// before any thread uses it). 0, or HT_NO_LIBCURL with the reason in `ht_curl_load_error`.
int ht_curl_global_init(void);
const char *ht_curl_load_error(void);

/// A handle keeps its connections open between requests (HTTP/1.1 keep-alive). One thread
/// at a time may use it. NULL when libcurl is not loaded.
void *ht_curl_open(void);
void ht_curl_close(void *handle);

/// Sends the request and waits for the whole answer (blocking in poll, never spinning).
/// Returns 0 when an HTTP answer came (any status), else libcurl's error code.
int ht_curl_perform(void *handle, const ht_request *request, ht_response *response);

/// Frees what `ht_curl_perform` put in the response.
void ht_response_free(ht_response *response);

/// The error codes HotTask tells apart (libcurl's numbers, here to keep Swift free of them).
enum {
    HT_TIMED_OUT = 28,
    HT_COULD_NOT_CONNECT = 7,
    HT_COULD_NOT_RESOLVE = 6,
    HT_SSL_CONNECT = 35,
    HT_PEER_FAILED_VERIFICATION = 60,
    HT_SSL_CA_FILE = 77,
    HT_GOT_NOTHING = 52,
    HT_SEND_ERROR = 55,
    HT_RECV_ERROR = 56,
    HT_PARTIAL_FILE = 18,
    /// HotTask's own: the answer was larger than HT_MAXIMUM_ANSWER.
    HT_TOO_LARGE = 1001,
    /// HotTask's own: an https address redirected to plain http, which is not followed.
    HT_DOWNGRADE = 1002,
    /// HotTask's own: libcurl could not be loaded.
    HT_NO_LIBCURL = 1003,
};

/// The largest answer read, in MB (a listing of the store's 250,000 tasks is about 80 MB).
enum { HT_MAXIMUM_ANSWER_MB = 256 };

#ifdef __cplusplus
}
#endif

#endif
