import CLibCrypto
import Foundation

/// A P-256 public key that checks ES256 signatures (ECDSA over SHA-256) with Debian's libcrypto:
/// what Apple's Maps tokens (JWTs a team signs with its Maps private key) and signed Maps Web
/// Snapshots URLs carry. The server holds only public keys; the private key never leaves the
/// team that signs.
final class ES256PublicKey: @unchecked Sendable {
    /// Why a key could not be read.
    struct KeyError: Error, CustomStringConvertible {
        var description: String
    }

    /// The libcrypto `EVP_PKEY`, immutable once read (verification with it is thread-safe).
    private let key: OpaquePointer

    /// Reads a PEM public key (`-----BEGIN PUBLIC KEY-----`, as `openssl ec -pubout` writes it);
    /// a key of another type or curve is refused, since ES256 means P-256.
    init(pem: String) throws {
        let bytes = Array(pem.utf8)
        guard let bio = bytes.withUnsafeBufferPointer({ BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }) else {
            throw KeyError(description: "out of memory reading the key")
        }
        defer { BIO_free(bio) }
        guard let key = PEM_read_bio_PUBKEY(bio, nil, nil, nil) else {
            throw KeyError(description: "not a PEM public key (-----BEGIN PUBLIC KEY-----); `openssl ec -in key.p8 -pubout` makes one from a Maps private key")
        }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_EC, EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1,
              String(cString: name) == "prime256v1" else {
            EVP_PKEY_free(key)
            throw KeyError(description: "not a P-256 (prime256v1) elliptic-curve key, which ES256 signatures need")
        }
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// Whether `signature` signs `message` with this key. JWTs carry the signature as the two
    /// 32-byte numbers r and s one after the other (RFC 7518); other signers write it as DER:
    /// both are taken.
    func isValid(signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = signature.count == 64 ? Self.der(fromRaw: signature) : signature, !der.isEmpty else { return false }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        return der.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { data in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, data.baseAddress, data.count) == 1
            }
        }
    }

    /// The DER form (`ECDSA-Sig-Value`) of a raw r‖s signature.
    private static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let (r, s) = raw.withUnsafeBufferPointer { bytes in
            (BN_bin2bn(bytes.baseAddress, 32, nil), BN_bin2bn(bytes.baseAddress! + 32, 32, nil))
        }
        guard let r, let s else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        // The signature owns r and s from here.
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        return written == length ? der : nil
    }
}
