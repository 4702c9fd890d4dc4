import Foundation
import MapFormats
import MapUpdate
import TestSupport
import XCTest

/// A replication feed over HTTP: a folder in the planet's layout served by a real web server
/// (Python's http.server on a loopback port), read as the OSM planet's feeds are.
final class HTTPReplicationSourceTests: XCTestCase {
    func testAFeedServedOverHTTPIsReadAsTheFolderIs() async throws {
        let tree = try Self.makeFeed(sequences: 3)
        defer { try? FileManager.default.removeItem(at: tree) }
        let server = try LoopbackFileServer(root: tree)
        defer { server.stop() }
        let source = HTTPReplicationSource(baseURL: server.url)
        let folder = ReplicationDirectory(root: tree)

        let latest = try await source.latestState()
        XCTAssertEqual(latest.sequenceNumber, 3)
        let folderLatest = try await folder.latestState()
        XCTAssertEqual(latest.timestamp, folderLatest.timestamp)
        let second = try await source.state(of: 2)
        XCTAssertEqual(second.sequenceNumber, 2)
        let changes = try await source.changes(of: 2)
        let fromFolder = try await folder.changes(of: 2)
        XCTAssertEqual(changes, fromFolder, "the bytes as served")
        let change = try OSMChange.decode(changes)
        XCTAssertEqual(change.changes.first?.key, OSMElementKey(type: .node, id: 1002))
        let pending = try await source.pendingSequences(after: 1)
        XCTAssertEqual(pending, 2...3)
        let next = try await source.update(after: 2)
        XCTAssertEqual(next?.state.sequenceNumber, 3)
        let none = try await source.update(after: 3)
        XCTAssertNil(none)

        // What the feed does not have is a missing file, naming it; a body over the limit is refused.
        do {
            _ = try await source.changes(of: 9)
            XCTFail("sequence 9 is not in the feed")
        } catch {
            guard case .missingChanges(9, let location) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(location.hasSuffix("000/000/009.osc.gz"), location)
        }
        var small = source
        small.maximumChangeBytes = 16
        do {
            _ = try await small.changes(of: 1)
            XCTFail("a change file larger than the limit was read")
        } catch {
            guard case .unavailable(let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("16"), reason)
        }
        // A server that is not there: refused within the request's time.
        var nowhere = HTTPReplicationSource(baseURL: URL(string: "http://127.0.0.1:9/replication")!)
        nowhere.timeout = .seconds(3)
        do {
            _ = try await nowhere.latestState()
            XCTFail("nothing listens on port 9")
        } catch {
            guard case .unavailable(let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("127.0.0.1:9"), reason)
        }
    }

    /// A feed of `sequences` change files, each creating one node, in the planet's layout.
    static func makeFeed(sequences: Int) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-feed-\(getpid())-\(UUID().uuidString)")
        for sequence in 1...sequences {
            let change = """
                <?xml version="1.0" encoding="UTF-8"?>
                <osmChange version="0.6" generator="test"><create>
                <node id="\(1000 + sequence)" version="1" timestamp="2026-11-27T10:0\(sequence):00Z" lat="43.73" lon="7.42"><tag k="amenity" v="bench"/></node>
                </create></osmChange>
                """
            let changes = root.appendingPathComponent(try ReplicationPath.changes(of: sequence))
            try FileManager.default.createDirectory(at: changes.deletingLastPathComponent(), withIntermediateDirectories: true)
            let plain = changes.deletingPathExtension()
            try Data(change.utf8).write(to: plain)
            let gzip = try runProcess("gzip", ["-n", "-f", plain.path])
            XCTAssertEqual(gzip.status, 0)
            let state = "#\nsequenceNumber=\(sequence)\ntimestamp=2026-11-27T10\\:0\(sequence)\\:00Z\n"
            try Data(state.utf8).write(to: root.appendingPathComponent(try ReplicationPath.state(of: sequence)))
            if sequence == sequences { try Data(state.utf8).write(to: root.appendingPathComponent("state.txt")) }
        }
        return root
    }
}

/// Python's http.server serving a folder on a free loopback port, for as long as the test runs.
final class LoopbackFileServer {
    let process = Process()
    let url: URL

    init(root: URL) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root.path]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while !text.contains("\n"), Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"port (\d+)"#, options: .regularExpression),
              let port = Int(text[range].dropFirst(5)) else {
            process.terminate()
            throw NSError(domain: "LoopbackFileServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "http.server did not start: \(text)"])
        }
        url = URL(string: "http://127.0.0.1:\(port)/")!
    }

    /// Stops the server. (Polling rather than `waitUntilExit()`, which runs the run loop of the
    /// calling thread and never returns on Swift concurrency's threads on Linux.)
    func stop() {
        process.terminate()
        for _ in 0..<200 where process.isRunning { usleep(10_000) }
    }
}
