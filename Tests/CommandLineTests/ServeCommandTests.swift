import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

private struct ServerDidNotStart: Error, CustomStringConvertible {
    let output: String
    var description: String { "the server did not say where it listens; it printed: \(output)" }
}

/// `openmapkit serve` as a process: it binds, answers, and stops cleanly on SIGTERM.
final class ServeCommandTests: XCTestCase {
    private var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }

    /// Starts the server on a free port and returns the process and its base URL, read from the
    /// "Serving … at http://host:port/" line it prints once it listens.
    private func startServer(_ arguments: [String]) throws -> (Process, URL, Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve"] + arguments + ["--port", "0", "--log", "none"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !text.contains("(Ctrl-C to stop)") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) else {
            process.terminate()
            throw ServerDidNotStart(output: text)
        }
        return (process, URL(string: String(text[range]))!, errors)
    }

    private func get(_ url: URL) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    func testServesAndStopsOnSIGTERM() async throws {
        let bundle = try SampleBundle.monaco()
        let (process, base, _) = try startServer(["--bundle", bundle.path])
        defer { if process.isRunning { process.terminate() } }
        let (status, body) = try await get(base.appendingPathComponent("healthz"))
        XCTAssertEqual(status, 200)
        let health = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
        XCTAssertEqual(health["regions"] as? [String], ["monaco"])
        let (missing, errorBody) = try await get(base.appendingPathComponent("no-such-endpoint"))
        XCTAssertEqual(missing, 404)
        XCTAssertNotNil((try JSONSerialization.jsonObject(with: errorBody) as? [String: Any])?["error"])

        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        XCTAssertFalse(process.isRunning, "the server must stop on SIGTERM")
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testRefusesBadArgumentsWithAUsageExitCode() throws {
        for arguments in [["serve", "--port", "70000", "x.omk"], ["serve", "--log", "xml", "x.omk"],
                          ["serve", "--api-key", "k:zero", "x.omk"], ["serve", "--render-workers", "0", "x.omk"]] {
            let result = try runProcess(binary.path, arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
        }
        let missing = try runProcess(binary.path, ["serve", "/nonexistent/region.omk", "--port", "0"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("not a map bundle"), missing.stderr)
    }

    func testFileWritingVerbsPrintJSON() throws {
        let bundle = try SampleBundle.monaco()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("omk-json-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("s.png").path
        let snapshot = try runProcess(binary.path, ["snapshot", "--bundle", bundle.path, "--center", "43.7384,7.4246", "--zoom", "14",
                                                    "--size", "120x80", "--scale", "2", "-o", png, "--json"])
        XCTAssertEqual(snapshot.status, 0, snapshot.stderr)
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(snapshot.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(written["width"] as? Int, 240)
        XCTAssertEqual(written["height"] as? Int, 160)
        XCTAssertEqual(written["bytes"] as? Int, (try FileManager.default.attributesOfItem(atPath: png)[.size] as? Int))
        let tile = try runProcess(binary.path, ["tiles", "render", "14/8529/5974", "--bundle", bundle.path,
                                                "-o", folder.appendingPathComponent("t.png").path, "--json"])
        XCTAssertEqual(tile.status, 0, tile.stderr)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(tile.stdout.utf8)) as? [String: Any])?["width"] as? Int, 256)
    }
}
