// OpenSSL's libcrypto from Debian (libssl-dev): SHA-256, HMAC, random bytes, constant-time compare,
// and ECDSA P-256 public keys (PEM) and signature checks for Apple's ES256 tokens and signed URLs.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
