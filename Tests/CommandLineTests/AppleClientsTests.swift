import Foundation
import TestSupport
import XCTest

/// Apple Maps client libraries nobody here wrote, pointed at `openmapkit serve` instead of Apple:
/// `apple-maps-api` (the Maps Server API, with Apple's JWT → `/v1/token` flow) and `mapsnap`
/// (signed snapshot URLs), from PyPI (`make test` installs them). Their script,
/// `Clients/apple_clients.py`, runs every method and checks the answers with the libraries' own
/// models; it runs against a server without keys, and against one with the team's key registered
/// (`--maps-keys`), which must also refuse what Apple refuses.
final class AppleClientsTests: XCTestCase {
    private var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }
    private static let team = "TEAMID1234", keyID = "KEYID56789"

    func testAppleMapsClientsWorkWithAndWithoutKeys() async throws {
        let libraries = try runProcess("python3", ["-c", "import apple_maps_api, mapsnap"])
        XCTAssertEqual(libraries.status, 0, "apple-maps-api and mapsnap are missing: `make test` installs them (\(libraries.stderr))")
        guard libraries.status == 0 else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("omk-apple-clients-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("monaco.omk")
        let imported = try runProcess(binary.path, ["import", try TestData.shared("data/osm/monaco.osm.pbf").path, "-o", bundle.path,
                                                    "--no-road-graphs", "--no-street-scene"])
        XCTAssertEqual(imported.status, 0, imported.stderr)

        // A Maps key as Apple hands one out (a P-256 private key in PKCS #8), and its public half.
        let privateKey = folder.appendingPathComponent("AuthKey.p8"), publicKey = folder.appendingPathComponent("AuthKey.pub.pem")
        let made = try runProcess("openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", privateKey.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let split = try runProcess("openssl", ["pkey", "-in", privateKey.path, "-pubout", "-out", publicKey.path])
        XCTAssertEqual(split.status, 0, split.stderr)
        let keys = folder.appendingPathComponent("maps-keys.json")
        try Data("""
            [{"teamId": "\(Self.team)", "keyId": "\(Self.keyID)", "publicKey": "AuthKey.pub.pem", "origins": ["https://maps.example"]}]
            """.utf8).write(to: keys)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Clients/apple_clients.py")

        for (mode, arguments) in [("open", [bundle.path]), ("keys", [bundle.path, "--maps-keys", keys.path])] {
            let server = try await ServedBundle(binary: binary, arguments: arguments)
            defer { server.stop() }
            let clients = try runProcess("python3", [script.path, server.base.absoluteString, privateKey.path, Self.team, Self.keyID, mode])
            XCTAssertEqual(clients.status, 0, "\(mode): \(clients.stdout)\n\(clients.stderr.suffix(3000))")
            XCTAssertTrue(clients.stdout.contains("all checks passed"), "\(mode): \(clients.stdout)")
        }
    }
}
