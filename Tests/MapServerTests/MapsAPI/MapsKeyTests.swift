import Foundation
import Hummingbird
@testable import MapServer
import TestSupport
import XCTest

/// ES256 checks and Maps key files, with keys and signatures made by the `openssl` command (an
/// implementation we did not write). The whole flow with Apple's client libraries is in
/// CommandLineTests' `AppleClientsTests`.
final class MapsKeyTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("omk-maps-keys-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A new key pair on `curve`: the private key's file and the public key's PEM text.
    private func keyPair(_ name: String, curve: String = "P-256") throws -> (privateKey: URL, publicPEM: String) {
        let privateKey = folder.appendingPathComponent("\(name).p8"), publicKey = folder.appendingPathComponent("\(name).pub")
        let made = try runProcess("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-out", privateKey.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let split = try runProcess("openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path])
        XCTAssertEqual(split.status, 0, split.stderr)
        return (privateKey, try String(contentsOf: publicKey, encoding: .utf8))
    }

    /// `message` signed by openssl with `privateKey`: a DER ECDSA signature.
    private func sign(_ message: String, with privateKey: URL) throws -> [UInt8] {
        let input = folder.appendingPathComponent("message"), output = folder.appendingPathComponent("signature")
        try Data(message.utf8).write(to: input)
        let signed = try runProcess("openssl", ["dgst", "-sha256", "-sign", privateKey.path, "-out", output.path, input.path])
        XCTAssertEqual(signed.status, 0, signed.stderr)
        return [UInt8](try Data(contentsOf: output))
    }

    /// The raw r‖s form (JWTs') of a DER signature.
    private func raw(_ der: [UInt8]) throws -> [UInt8] { MapKitJSBrowserTests.rawSignature(fromDER: der) }

    func testES256SignaturesInBothFormsAndWhatIsRefused() throws {
        let (privateKey, publicPEM) = try keyPair("team")
        let key = try ES256PublicKey(pem: publicPEM)
        let message = "/api/v1/snapshot?center=Monaco&teamId=T&keyId=K"
        let der = try sign(message, with: privateKey)
        XCTAssertTrue(key.isValid(signature: der, for: Array(message.utf8)), "a DER signature")
        XCTAssertTrue(key.isValid(signature: try raw(der), for: Array(message.utf8)), "the same signature as r‖s, as JWTs carry it")
        XCTAssertFalse(key.isValid(signature: der, for: Array((message + "&z=3").utf8)), "another message")
        var flipped = try raw(der)
        flipped[40] ^= 1
        XCTAssertFalse(key.isValid(signature: flipped, for: Array(message.utf8)), "an altered signature")
        XCTAssertFalse(key.isValid(signature: [], for: Array(message.utf8)))
        XCTAssertFalse(key.isValid(signature: [UInt8](repeating: 0xff, count: 64), for: Array(message.utf8)))
        let (_, otherPEM) = try keyPair("other")
        XCTAssertFalse(try ES256PublicKey(pem: otherPEM).isValid(signature: der, for: Array(message.utf8)), "another team's key")

        // Only P-256 public keys in PEM are keys for ES256.
        let (_, p384) = try keyPair("p384", curve: "P-384")
        XCTAssertThrowsError(try ES256PublicKey(pem: p384)) { XCTAssertTrue("\($0)".contains("P-256"), "\($0)") }
        XCTAssertThrowsError(try ES256PublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"))
        XCTAssertThrowsError(try ES256PublicKey(pem: try String(contentsOf: privateKey, encoding: .utf8)), "a private key is not the public key")
    }

    func testMapsKeyFilesAndJWTChecks() throws {
        let (privateKey, publicPEM) = try keyPair("team")
        try publicPEM.write(to: folder.appendingPathComponent("team.pub.pem"), atomically: true, encoding: .utf8)
        let file = folder.appendingPathComponent("keys.json")
        try #"[{"teamId": "TEAM", "keyId": "KEY", "publicKey": "team.pub.pem", "origins": ["https://maps.example"], "requestsPerMinute": 30}]"#
            .write(to: file, atomically: true, encoding: .utf8)
        let keys = try MapsKey.load(from: file)
        XCTAssertEqual(keys.map(\.keyID), ["KEY"])
        XCTAssertEqual(keys[0].requestsPerMinute, 30)
        XCTAssertTrue(keys[0].allows(origin: "https://MAPS.example"))
        XCTAssertFalse(keys[0].allows(origin: "https://other.example"))
        XCTAssertTrue(keys[0].allows(origin: nil), "a server-side client sends no Origin")

        // A JWT made here, signed by openssl.
        func jwt(_ claims: String, kid: String = "KEY", alg: String = "ES256") throws -> String {
            let header = Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"\#(kid)","typ":"JWT"}"#.utf8))
            let payload = Base64URL.encode(Array(claims.utf8))
            return "\(header).\(payload)." + Base64URL.encode(try raw(try sign("\(header).\(payload)", with: privateKey)))
        }
        let now = Int(Date().timeIntervalSince1970)
        let byID = Dictionary(uniqueKeysWithValues: keys.map { ($0.keyID, $0) })
        let good = try jwt(#"{"iss":"TEAM","iat":\#(now),"exp":\#(now + 600)}"#)
        XCTAssertTrue(MapsJWT.looksLikeJWT(good))
        XCTAssertFalse(MapsJWT.looksLikeJWT(AccessTokens.issue(for: "x")), "our access tokens are not JWTs")
        XCTAssertEqual(try MapsJWT.verify(good, keys: byID, origin: nil).keyID, "KEY")
        XCTAssertEqual(try MapsJWT.verify(good, keys: byID, origin: "https://maps.example").keyID, "KEY")
        func refused(_ token: String, origin: String? = nil, _ status: HTTPResponse.Status, _ words: String) {
            XCTAssertThrowsError(try MapsJWT.verify(token, keys: byID, origin: origin)) { error in
                XCTAssertEqual((error as? APIError)?.status, status, "\(error)")
                XCTAssertTrue("\(error)".contains(words), "\(error)")
            }
        }
        refused(good, origin: "https://other.example", .forbidden, "not allowed")
        refused(try jwt(#"{"iss":"TEAM","iat":\#(now - 7200),"exp":\#(now - 3600)}"#), .unauthorized, "expired")
        refused(try jwt(#"{"iss":"TEAM","iat":\#(now + 3600),"exp":\#(now + 7200)}"#), .unauthorized, "future")
        refused(try jwt(#"{"iss":"ELSEWHERE","iat":\#(now),"exp":\#(now + 600)}"#), .unauthorized, "issuer")
        refused(try jwt(#"{"iss":"TEAM","iat":\#(now),"exp":\#(now + 600)}"#, kid: "NOKEY"), .unauthorized, "not registered")
        refused(try jwt(#"{"iss":"TEAM","iat":\#(now),"exp":\#(now + 600)}"#, alg: "HS256"), .unauthorized, "ES256")
        refused(try jwt(#"{"iss":"TEAM"}"#), .unauthorized, "iat and exp")
        refused(try jwt(#"{"iss":"TEAM","iat":\#(now),"exp":\#(now + 600),"origin":"https://maps.example"}"#), origin: "https://other.example",
                .forbidden, "is for https://maps.example")
        refused(try jwt(#"{"iss":"TEAM","iat":\#(now),"exp":\#(now + 600),"origin":"https://other.example"}"#), .forbidden, "not allowed")
        let parts = good.split(separator: ".").map(String.init)
        refused(parts[0] + "." + Base64URL.encode(Array(#"{"iss":"TEAM","iat":\#(now),"exp":\#(now + 99999)}"#.utf8)) + "." + parts[2],
                .unauthorized, "signature")

        // Files that are not key files say why.
        for (text, words) in [("{}", "JSON array"), (#"[{"teamId":"T","keyId":"K","publicKey":"missing.pem"}]"#, "neither PEM"),
                              (#"[{"teamId":"T","keyId":"K","publicKey":"team.pub.pem","requestsPerMinute":0}]"#, "positive")] {
            try text.write(to: file, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try MapsKey.load(from: file)) { XCTAssertTrue("\($0)".contains(words), "\($0)") }
        }
    }
}
