#include "hottask_curl.h"

#include <curl/curl.h>
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

int ht_curl_global_init(void) { return curl_global_init(CURL_GLOBAL_DEFAULT); }

void *ht_curl_open(void) { return curl_easy_init(); }

void ht_curl_close(void *handle) {
    if (handle) curl_easy_cleanup(handle);
}

int ht_curl_perform(void *handle, const ht_request *request, ht_response *response) {
    CURL *curl = handle;
    memset(response, 0, sizeof *response);
    // What an earlier request on this handle set must not leak into this one; the handle's
    // connections stay open across the reset.
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, request->url);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    // An https address is never followed to plain http (the tasks and the login would travel
    // unencrypted); libcurl drops the login itself on a redirect to another host or port.
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, strncasecmp(request->url, "https:", 6) == 0 ? "https" : "http,https");
    // A 301 or 302 keeps the method and its body (libcurl would otherwise send a REPORT empty).
    curl_easy_setopt(curl, CURLOPT_POSTREDIR, (long)CURL_REDIR_POST_ALL);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, request->follow_redirects ? 1L : 0L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    // One limit for the whole request (libcurl's low-speed check lags by its ~6 s average).
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->timeout_ms);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    if (request->ca_file) curl_easy_setopt(curl, CURLOPT_CAINFO, request->ca_file);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, response->error);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response->body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response->headers);

    struct curl_slist *headers = NULL;
    for (int i = 0; i < request->header_count; i++) headers = curl_slist_append(headers, request->headers[i]);
    // No "Expect: 100-continue": it costs a round trip (or a second's wait) before each body.
    headers = curl_slist_append(headers, "Expect:");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

    if (request->body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request->body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    }
    if (strcmp(request->method, "GET") != 0) curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request->method);

    CURLcode code = curl_easy_perform(curl);
    curl_slist_free_all(headers);
    if (code == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
        char *final_url = NULL;
        if (curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &final_url) == CURLE_OK && final_url &&
            strlen(final_url) < sizeof response->final_url) {
            strcpy(response->final_url, final_url);
        }
    }
    if (code != CURLE_OK && response->error[0] == 0) {
        strncpy(response->error, curl_easy_strerror(code), sizeof response->error - 1);
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
