// OpenSSL's libcrypto from Debian (libssl-dev): SHA-256, HMAC, random bytes, constant-time compare.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
