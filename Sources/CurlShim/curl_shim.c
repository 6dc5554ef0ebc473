// The e-mail alerts' SMTP through the system's libcurl, loaded at run time: TLS (STARTTLS, implicit TLS, the
// certificate and host name checked) is the system's OpenSSL or Secure Transport through libcurl, so ibtrader
// compiles no TLS library of its own (issue 83: BoringSSL was a fifth of a cold build) and runs where libcurl is
// absent, saying so when an e-mail is to be sent.
//
// libcurl's headers are not needed to build: the few declarations used are below, with the option numbers of
// curl.h (checked against libcurl 7.88.1's header; libcurl never renumbers an option, its ABI promise). The calls to
// curl_easy_setopt, a variadic function, are made here in C, where the variadic calling convention is right on
// every platform (a Swift call through a non-variadic pointer would not be on arm64 macOS).

#include "curl_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef void CURL;
typedef int CURLcode;
typedef long long curl_off_t;
struct curl_slist { char *data; struct curl_slist *next; };
struct curl_blob { void *data; size_t len; unsigned int flags; };

enum {
    OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_READDATA = 10009, OPT_READFUNCTION = 20012, OPT_UPLOAD = 46,
    OPT_NOPROGRESS = 43, OPT_NOSIGNAL = 99, OPT_USE_SSL = 119, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156,
    OPT_USERNAME = 10173, OPT_PASSWORD = 10174, OPT_MAIL_FROM = 10186, OPT_MAIL_RCPT = 10187,
    OPT_XFERINFODATA = 10057, OPT_XFERINFOFUNCTION = 20219, OPT_CAINFO_BLOB = 40309,
    USESSL_ALL = 3, BLOB_COPY = 1, GLOBAL_DEFAULT = 3, INFO_RESPONSE_CODE = 0x200000 + 2,
};

typedef size_t (*read_callback)(char *, size_t, size_t, void *);
typedef int (*xferinfo_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static struct {
    void *library;
    char missing[256];
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, int, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    static const char *const names[] = {
#ifdef __APPLE__
        "/usr/lib/libcurl.4.dylib", "libcurl.4.dylib", "libcurl.dylib",
#else
        "libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4",
#endif
    };
    for (size_t k = 0; k < sizeof names / sizeof *names && !curl.library; k++) {
        curl.library = dlopen(names[k], RTLD_NOW | RTLD_LOCAL);
    }
    if (!curl.library) {
        snprintf(curl.missing, sizeof curl.missing,
                 "libcurl is not installed (tried %s); e-mail alerts need it (Debian and Ubuntu: apt-get install libcurl4)",
                 names[0]);
        return;
    }
#define SYMBOL(field, name)                                                                                    \
    do {                                                                                                       \
        *(void **)(&curl.field) = dlsym(curl.library, name);                                                   \
        if (!curl.field) {                                                                                     \
            snprintf(curl.missing, sizeof curl.missing, "the system's libcurl has no %s (too old?)", name);    \
            curl.library = NULL;                                                                               \
            return;                                                                                            \
        }                                                                                                      \
    } while (0)
    SYMBOL(global_init, "curl_global_init");
    SYMBOL(easy_init, "curl_easy_init");
    SYMBOL(easy_setopt, "curl_easy_setopt");
    SYMBOL(easy_perform, "curl_easy_perform");
    SYMBOL(easy_getinfo, "curl_easy_getinfo");
    SYMBOL(easy_cleanup, "curl_easy_cleanup");
    SYMBOL(easy_strerror, "curl_easy_strerror");
    SYMBOL(slist_append, "curl_slist_append");
    SYMBOL(slist_free_all, "curl_slist_free_all");
#undef SYMBOL
    curl.global_init(GLOBAL_DEFAULT);
}

int ibt_curl_available(char *error, size_t error_size) {
    pthread_once(&load_once, load);
    if (curl.library) return 1;
    if (error && error_size) snprintf(error, error_size, "%s", curl.missing);
    return 0;
}

struct upload { const char *data; size_t length; size_t offset; };

static size_t read_message(char *buffer, size_t size, size_t count, void *context) {
    struct upload *upload = context;
    size_t room = size * count, left = upload->length - upload->offset;
    size_t n = left < room ? left : room;
    memcpy(buffer, upload->data + upload->offset, n);
    upload->offset += n;
    return n;
}

static int progress(void *context, curl_off_t a, curl_off_t b, curl_off_t c, curl_off_t d) {
    (void)a, (void)b, (void)c, (void)d;
    volatile int *cancel = context;
    return cancel && *cancel ? 1 : 0;
}

int ibt_mail_send(const ibt_mail *mail, char *error, size_t error_size, long *smtp_code) {
    if (smtp_code) *smtp_code = 0;
    if (!ibt_curl_available(error, error_size)) return -1;
    char message[256] = "";
    CURL *handle = curl.easy_init();
    if (!handle) {
        snprintf(error, error_size, "libcurl could not start a transfer");
        return 2;
    }
    struct curl_slist *recipients = NULL;
    for (int k = 0; k < mail->recipient_count; k++) recipients = curl.slist_append(recipients, mail->recipients[k]);
    struct upload upload = { mail->message, mail->message_length, 0 };
    curl.easy_setopt(handle, OPT_ERRORBUFFER, message);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_URL, mail->url);
    if (mail->require_starttls) curl.easy_setopt(handle, OPT_USE_SSL, (long)USESSL_ALL);
    if (mail->username) curl.easy_setopt(handle, OPT_USERNAME, mail->username);
    if (mail->password) curl.easy_setopt(handle, OPT_PASSWORD, mail->password);
    curl.easy_setopt(handle, OPT_MAIL_FROM, mail->mail_from);
    curl.easy_setopt(handle, OPT_MAIL_RCPT, recipients);
    curl.easy_setopt(handle, OPT_UPLOAD, 1L);
    curl.easy_setopt(handle, OPT_READFUNCTION, (read_callback)read_message);
    curl.easy_setopt(handle, OPT_READDATA, (void *)&upload);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, mail->timeout_ms);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, mail->connect_timeout_ms);
    curl.easy_setopt(handle, OPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, OPT_XFERINFOFUNCTION, (xferinfo_callback)progress);
    curl.easy_setopt(handle, OPT_XFERINFODATA, (void *)mail->cancel);
    CURLcode result = 0;
    if (mail->ca_pem) {
        struct curl_blob blob = { (void *)mail->ca_pem, mail->ca_pem_length, BLOB_COPY };
        result = curl.easy_setopt(handle, OPT_CAINFO_BLOB, &blob);
        if (result) snprintf(message, sizeof message, "this libcurl cannot take trusted certificates from memory (7.77 or newer can)");
    }
    if (!result) result = curl.easy_perform(handle);
    if (smtp_code) curl.easy_getinfo(handle, INFO_RESPONSE_CODE, smtp_code);
    if (result) snprintf(error, error_size, "%s", message[0] ? message : curl.easy_strerror(result));
    curl.easy_cleanup(handle);
    curl.slist_free_all(recipients);
    return result;
}
