import Foundation
import MapFormats
import XCTest

/// Replication: state files, the sequence → path mapping, and a feed in a directory read through
/// `ReplicationSource`, gaps and mismatches included.
final class OSMReplicationTests: XCTestCase {

    /// As the planet's minutely feed writes it (osmosis): a date comment, transaction properties, colons escaped.
    static let planetState = """
        #Fri Nov 27 10:00:03 UTC 2026
        txnMaxQueried=1234567890
        sequenceNumber=1234567
        timestamp=2026-11-27T10\\:00\\:00Z
        txnReadyList=
        txnMax=1234567890
        txnActiveList=1234567880,1234567885

        """

    // MARK: State files

    func testParsesThePlanetsStateFile() throws {
        let state = try ReplicationState.parse(Data(Self.planetState.utf8))
        XCTAssertEqual(state.sequenceNumber, 1_234_567)
        XCTAssertEqual(state.timestamp, Date(timeIntervalSince1970: 1_795_773_600))
        XCTAssertEqual(state.properties["timestamp"], "2026-11-27T10:00:00Z")
        XCTAssertEqual(state.properties["txnReadyList"], "")
        XCTAssertEqual(state.properties["txnActiveList"], "1234567880,1234567885")
        XCTAssertEqual(state.properties.count, 6)
    }

    func testJavaPropertiesSyntax() throws {
        // CRLF, "!" comments, ':' and white-space separators, a continued line, \u and \t escapes.
        let text = "! a comment\r\n  # another\r\nsequenceNumber : 42\r\ntimestamp 2026-01-02T03\\:04\\:05Z\r\n"
            + "note = caf\\u00e9\\tand \\\r\n    more\r\nkey\\=with\\:escapes=\\#value\r\n"
        let state = try ReplicationState.parse(Data(text.utf8))
        XCTAssertEqual(state.sequenceNumber, 42)
        XCTAssertEqual(state.properties["timestamp"], "2026-01-02T03:04:05Z")
        XCTAssertEqual(state.properties["note"], "café\tand more")
        XCTAssertEqual(state.properties["key=with:escapes"], "#value")
        // No newline at the end of the file.
        XCTAssertEqual(try ReplicationState.parse(Data("timestamp=2026-01-02T03\\:04\\:05Z\nsequenceNumber=7".utf8)).sequenceNumber, 7)
    }

    func testStateTextRoundTrips() throws {
        let state = try ReplicationState.parse(Data(Self.planetState.utf8))
        XCTAssertTrue(state.text.contains("timestamp=2026-11-27T10\\:00\\:00Z\n"), state.text)
        XCTAssertTrue(state.text.contains("sequenceNumber=1234567\n"), state.text)
        XCTAssertEqual(try ReplicationState.parse(Data(state.text.utf8)), state)
    }

    func testMalformedStateFilesNameTheProblem() {
        let cases: [(String, String)] = [
            ("timestamp=2026-11-27T10\\:00\\:00Z\n", "no sequenceNumber"),
            ("sequenceNumber=5\n", "no timestamp"),
            ("sequenceNumber=abc\ntimestamp=2026-11-27T10\\:00\\:00Z\n", "line 1: sequenceNumber \"abc\""),
            ("# c\nsequenceNumber=-1\ntimestamp=2026-11-27T10\\:00\\:00Z\n", "line 2: sequenceNumber \"-1\""),
            ("sequenceNumber=1000000000\ntimestamp=2026-11-27T10\\:00\\:00Z\n", "from 0 to 999999999"),
            ("sequenceNumber=+5\ntimestamp=2026-11-27T10\\:00\\:00Z\n", "sequenceNumber \"+5\""),
            ("sequenceNumber=5\n\ntimestamp=2026-13-27T10\\:00\\:00Z\n", "line 3: timestamp \"2026-13-27T10:00:00Z\""),
            ("sequenceNumber=5\ntimestamp=2026-11-27 10\\:00\\:00\n", "not an ISO 8601 time"),
            ("sequenceNumber=5\ntimestamp=\\u12\n", "malformed \\u escape"),
        ]
        for (text, words) in cases {
            XCTAssertThrowsError(try ReplicationState.parse(Data(text.utf8)), text) { e in
                guard case .malformedState(let problem)? = e as? ReplicationError else { return XCTFail("\(text): \(e)") }
                XCTAssertTrue(problem.contains(words), "\(text): \(problem)")
            }
        }
        XCTAssertThrowsError(try ReplicationState.parse(Data([0x73, 0xFF, 0xFE, 0x3D]))) { e in
            XCTAssertEqual(e as? ReplicationError, .malformedState("the state file is not UTF-8 text"))
        }
    }

    // MARK: Paths

    func testSequencePaths() throws {
        XCTAssertEqual(try ReplicationPath.changes(of: 1_234_567), "001/234/567.osc.gz")
        XCTAssertEqual(try ReplicationPath.state(of: 1_234_567), "001/234/567.state.txt")
        XCTAssertEqual(try ReplicationPath.changes(of: 0), "000/000/000.osc.gz")
        XCTAssertEqual(try ReplicationPath.state(of: 999_999_999), "999/999/999.state.txt")
        XCTAssertEqual(try ReplicationPath.changes(of: 6_000_042), "006/000/042.osc.gz")
        for bad in [-1, 1_000_000_000, Int.max, Int.min] {
            XCTAssertThrowsError(try ReplicationPath.changes(of: bad)) { e in
                XCTAssertEqual(e as? ReplicationError, .sequenceOutOfRange(bad))
            }
            XCTAssertThrowsError(try ReplicationPath.state(of: bad))
        }
        for sequence in [0, 7, 1_000, 1_234_567, 999_999_999] {
            XCTAssertEqual(ReplicationPath.sequence(ofPath: try ReplicationPath.changes(of: sequence)), sequence)
            XCTAssertEqual(ReplicationPath.sequence(ofPath: "replication/minute/" + (try ReplicationPath.state(of: sequence))), sequence)
        }
        for bad in ["01/234/567.osc.gz", "001/234/5678.osc.gz", "001/2x4/567.osc.gz", "234/567.osc.gz", "001/234/-67.osc.gz"] {
            XCTAssertNil(ReplicationPath.sequence(ofPath: bad), bad)
        }
    }

    // MARK: A feed in a directory

    /// Writes a feed of sequences 1…3 (latest 3), each change file creating one node.
    private func makeFeed() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("OSMReplicationTests-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        for sequence in 1...3 {
            try write(state(sequence), to: root.appendingPathComponent(try ReplicationPath.state(of: sequence)))
            let document = "<osmChange version=\"0.6\"><create><node id=\"\(sequence)\" lat=\"1\" lon=\"2\"/></create></osmChange>"
            try write(Data(try Compression.deflate(Data(document.utf8), container: .gzip)),
                      to: root.appendingPathComponent(try ReplicationPath.changes(of: sequence)))
        }
        try write(state(3), to: root.appendingPathComponent("state.txt"))
        return root
    }

    private func state(_ sequence: Int) -> Data {
        Data("#Fri Nov 27 10:0\(sequence):03 UTC 2026\nsequenceNumber=\(sequence)\ntimestamp=2026-11-27T10\\:0\(sequence)\\:00Z\n".utf8)
    }

    private func write(_ data: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func testReadsADirectoryFeed() async throws {
        let feed = ReplicationDirectory(root: try makeFeed())
        let latest = try feed.latestState()
        XCTAssertEqual(latest.sequenceNumber, 3)
        XCTAssertEqual(latest.timestamp, Date(timeIntervalSince1970: 1_795_773_600 + 180))
        XCTAssertEqual(try feed.state(of: 2).sequenceNumber, 2)
        let change = try OSMChange.decode(try feed.changes(of: 2))
        XCTAssertEqual(change.netEffect.created(.node), [2])

        XCTAssertThrowsError(try feed.state(of: 4)) { e in
            guard case .missingState(4?, let location)? = e as? ReplicationError else { return XCTFail("\(e)") }
            XCTAssertTrue(location.hasSuffix("000/000/004.state.txt"), location)
        }
        XCTAssertThrowsError(try feed.changes(of: 4)) { e in
            guard case .missingChanges(4, _)? = e as? ReplicationError else { return XCTFail("\(e)") }
        }
        XCTAssertThrowsError(try feed.state(of: -3)) { e in XCTAssertEqual(e as? ReplicationError, .sequenceOutOfRange(-3)) }

        // Catching up from 0, one sequence at a time, through the protocol.
        let source: any ReplicationSource = feed
        var applied = 0
        var created: [Int64] = []
        while let update = try await source.update(after: applied) {
            created += try OSMChange.decode(update.changes).changes.map(\.element.id)
            applied = update.state.sequenceNumber
        }
        XCTAssertEqual(applied, 3)
        XCTAssertEqual(created, [1, 2, 3])
        let pendingFromZero = try await source.pendingSequences(after: 0)
        XCTAssertEqual(pendingFromZero, 1...3)
        let pendingAtLatest = try await source.pendingSequences(after: 3)
        XCTAssertNil(pendingAtLatest)
    }

    func testGapsMismatchesAndMissingStatesAreErrors() async throws {
        let root = try makeFeed()
        let feed = ReplicationDirectory(root: root)

        // Ahead of the feed: applying from it would go backwards.
        await assertThrows(try await feed.update(after: 5), .behind(applied: 5, latest: 3))

        // Sequence 2's change file is gone: from 1 the next step is a gap; from 2 it goes on.
        try FileManager.default.removeItem(at: root.appendingPathComponent("000/000/002.osc.gz"))
        await assertThrows(try await feed.update(after: 1), .gap(missing: 2, latest: 3))
        let fromTwo = try await feed.update(after: 2)
        XCTAssertEqual(fromTwo?.state.sequenceNumber, 3)

        // Sequence 3's state file names another sequence.
        try state(2).write(to: root.appendingPathComponent("000/000/003.state.txt"))
        XCTAssertThrowsError(try feed.state(of: 3)) { e in
            XCTAssertEqual(e as? ReplicationError, .sequenceMismatch(expected: 3, found: 2))
        }
        await assertThrows(try await feed.update(after: 2), .sequenceMismatch(expected: 3, found: 2))

        // A malformed state file names its path and line.
        try Data("sequenceNumber=x3\n".utf8).write(to: root.appendingPathComponent("state.txt"))
        XCTAssertThrowsError(try feed.latestState()) { e in
            guard case .malformedState(let problem)? = e as? ReplicationError else { return XCTFail("\(e)") }
            XCTAssertTrue(problem.contains("state.txt: line 1: sequenceNumber \"x3\""), problem)
        }

        // No state at all.
        try FileManager.default.removeItem(at: root.appendingPathComponent("state.txt"))
        XCTAssertThrowsError(try feed.latestState()) { e in
            guard case .missingState(nil, let location)? = e as? ReplicationError else { return XCTFail("\(e)") }
            XCTAssertTrue(location.hasSuffix("/state.txt"), location)
            XCTAssertTrue("\(e)".contains("no state file at"), "\(e)")
        }
        let empty = ReplicationDirectory(root: root.appendingPathComponent("nothing-here"))
        await assertThrows(try await empty.update(after: 0),
                           .missingState(sequence: nil, location: root.appendingPathComponent("nothing-here/state.txt").path))
    }

    private func assertThrows<T>(_ body: @autoclosure () async throws -> T, _ expected: ReplicationError,
                                 file: StaticString = #filePath, line: UInt = #line) async {
        do {
            let value = try await body()
            XCTFail("expected \(expected), got \(value)", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? ReplicationError, expected, file: file, line: line)
        }
    }
}
