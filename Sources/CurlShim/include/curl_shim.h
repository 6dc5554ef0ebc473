#ifndef IBTRADER_CURL_SHIM_H
#define IBTRADER_CURL_SHIM_H

#include <stddef.h>

/// One e-mail for libcurl's SMTP client (RFC 5321: EHLO, STARTTLS or implicit TLS, SASL AUTH, MAIL FROM, RCPT TO,
/// DATA with libcurl's own dot-stuffing, QUIT). Strings are UTF-8, NUL-terminated; optional ones may be NULL.
typedef struct {
    /// `smtp://host:port/ehlo-name` or `smtps://host:port/ehlo-name` (implicit TLS).
    const char *url;
    /// 1: STARTTLS required before anything else (fails with 64, CURLE_USE_SSL_FAILED, when the server does not
    /// offer it); 0: plain (or implicit TLS through `smtps://`).
    int require_starttls;
    const char *username;
    const char *password;
    const char *mail_from;
    const char *const *recipients;
    int recipient_count;
    /// The message as it goes after DATA (headers, a blank line, the body; CRLF line ends; not dot-stuffed).
    const char *message;
    size_t message_length;
    /// PEM certificates to trust instead of the system's (NULL: the system's).
    const char *ca_pem;
    size_t ca_pem_length;
    /// The whole exchange's limit and the connection's, in milliseconds.
    long timeout_ms;
    long connect_timeout_ms;
    /// Set to non-zero by another thread to stop the exchange (checked about once a second; result 42).
    volatile int *cancel;
} ibt_mail;

/// Sends one message through the system's libcurl, loaded at run time (`libcurl.so.4`, `libcurl.so`, on macOS
/// `/usr/lib/libcurl.4.dylib`), so nothing of TLS is compiled into ibtrader.
/// - Returns: 0 when the server accepted the message; -1 when libcurl is not installed; otherwise libcurl's
///   CURLcode (28 timed out, 42 cancelled, 60 the certificate, 64 no STARTTLS, 67 login denied, ...).
///   `error` receives libcurl's message (or what was missing), NUL-terminated; `smtp_code` the server's last reply
///   code (0 when none came).
int ibt_mail_send(const ibt_mail *mail, char *error, size_t error_size, long *smtp_code);

/// Whether the system's libcurl can be loaded; when not, `error` says what was tried.
int ibt_curl_available(char *error, size_t error_size);

#endif
