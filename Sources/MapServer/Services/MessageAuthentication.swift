import CLibCrypto

/// SHA-256 and HMAC-SHA256 from Debian's libcrypto (OpenSSL), for access tokens, page tokens and
/// key identifiers.
///
/// The server needs three primitives and no TLS; libcrypto is already on every Debian machine,
/// where swift-crypto compiled its own copy of BoringSSL into every clean build (minutes of CI).
enum MessageAuthentication {
    static let digestLength = Int(SHA256_DIGEST_LENGTH)

    /// The SHA-256 digest of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: digestLength)
        bytes.withUnsafeBufferPointer { input in
            _ = SHA256(input.baseAddress, input.count, &digest)
        }
        return digest
    }

    /// The HMAC-SHA256 of `message` under `key`.
    static func hmacSHA256(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: digestLength)
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { input in
                // A null result only happens when libcrypto cannot allocate; the all-zero code it
                // leaves then never matches a real one.
                _ = HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), input.baseAddress, input.count, &code, &length)
            }
        }
        return code
    }

    /// Whether `code` is `message`'s HMAC-SHA256 under `key`, compared in constant time.
    static func isValidHMAC(_ code: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        let expected = hmacSHA256(message, key: key)
        guard code.count == expected.count else { return false }
        return CRYPTO_memcmp(code, expected, expected.count) == 0
    }

    /// Whether two digests are equal, compared in constant time.
    static func digestsEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && CRYPTO_memcmp(a, b, a.count) == 0
    }

    /// `count` bytes from the operating system's cryptographic random source.
    static func randomKey(count: Int = 32) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            // Without a secret nobody's tokens could be trusted; stopping is the only safe answer.
            fatalError("libcrypto could not produce random bytes for the token secret")
        }
        return bytes
    }
}
