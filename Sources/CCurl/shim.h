/*
 * libcurl (the system's, with Debian's OpenSSL) for the uplink's HTTP transport.
 * curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these typed
 * wrappers pass each kind of argument through. No logic lives here.
 */
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>

typedef size_t (*egw_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode egw_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode egw_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode egw_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode egw_curl_set_callback(CURL *handle, CURLoption option, egw_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode egw_curl_set_seek_callback(CURL *handle, CURLoption option, curl_seek_callback value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode egw_curl_set_size(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline long egw_curl_info_long(CURL *handle, CURLINFO info) {
    long code = 0;
    curl_easy_getinfo(handle, info, &code);
    return code;
}

static inline void *egw_curl_private(CURL *handle) {
    void *value = NULL;
    curl_easy_getinfo(handle, CURLINFO_PRIVATE, &value);
    return value;
}
#endif
