// The parts of OpenSSL's libcrypto that EntitlementTrust uses (Debian: libssl-dev).
// Only libcrypto is linked; nothing here opens a socket or loads a provider module.
#ifndef ENTITLEMENT_COPENSSL_SHIM_H
#define ENTITLEMENT_COPENSSL_SHIM_H

#define OPENSSL_API_COMPAT 30000
#define OPENSSL_NO_DEPRECATED 1

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/// A new EC key on the named curve ("P-256", "P-384"), or NULL. EVP_EC_gen is a variadic
/// macro Swift cannot call; tests mint their own certificate chains with this.
static inline EVP_PKEY *entitlement_ec_generate(const char *curve) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (ctx == NULL) return NULL;
    if (EVP_PKEY_keygen_init(ctx) <= 0 || EVP_PKEY_CTX_set_group_name(ctx, curve) <= 0 || EVP_PKEY_generate(ctx, &key) <= 0) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return key;
}

#endif
