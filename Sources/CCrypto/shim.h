/*
 * The system's OpenSSL (libssl3, which libcurl4 brings to the box already) for the console's
 * TLS, its self-signed certificate and the password's PBKDF2. Typed wrappers for what OpenSSL
 * gives as macros or variadic functions, which Swift cannot call. No logic lives here.
 */
#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static inline EVP_PKEY *egw_ec_p256_key(void) {
    return EVP_EC_gen("P-256");
}

static inline int egw_tls_minimum_1_2(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

/* No session tickets (one request per connection, nothing to resume), no renegotiation. */
static inline void egw_tls_no_tickets_no_renegotiation(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_NO_TICKET | SSL_OP_NO_RENEGOTIATION);
}

/* An empty memory BIO then asks to be retried (SSL_ERROR_WANT_READ) instead of reading as EOF. */
static inline void egw_bio_retry_when_empty(BIO *bio) {
    BIO_set_mem_eof_return(bio, -1);
}

static inline long egw_bio_memory(BIO *bio, char **bytes) {
    return BIO_get_mem_data(bio, bytes);
}

#endif
