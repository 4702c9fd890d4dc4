import Foundation
import TestSupport
import XCTest
@testable import MapFormats

/// The osmChange reader: hand-written documents for every element, action and error, compressed forms and
/// hostile ones, and change files `osmium derive-changes` writes from an edited copy of the Monaco extract.
final class OSMChangeTests: XCTestCase {

    static let sample = """
        <?xml version='1.0' encoding='UTF-8'?>
        <osmChange version="0.6" generator="hand &amp; keyboard">
          <create>
            <node id="1" version="1" timestamp="2026-11-27T10:00:00Z" lat="43.7384" lon="7.4246">
              <tag k="name" v="Caf&#233;"/>
              <tag k="amenity" v="cafe"/>
            </node>
            <node id="2" version="1" timestamp="2026-11-27T10:00:01Z" lat="-0.5" lon="-180"/>
            <way id="10" version="1" timestamp="2026-11-27T10:00:02Z">
              <nd ref="1"/>
              <nd ref="2"/>
              <tag k="highway" v="footway"/>
            </way>
            <relation id="20" version="1">
              <member type="way" ref="10" role="outer"/>
              <member type="node" ref="1" role=""/>
              <member type="relation" ref="21"/>
              <tag k="type" v="multipolygon"/>
            </relation>
          </create>
          <modify>
            <node id="1" version="2" timestamp="2026-11-27T10:01:00Z" lat="43.7390" lon="7.4250">
              <tag k="name" v="Café de Paris"/>
            </node>
            <way id="11" version="7"><nd ref="3"/><nd ref="4"/></way>
          </modify>
          <delete if-unused="true">
            <node id="5" version="3" timestamp="2026-11-27T10:02:00Z"/>
            <way id="12" version="4"/>
          </delete>
          <delete>
            <relation id="30" version="9"/>
            <node id="6" version="2" lat="1.5" lon="2.5"/>
          </delete>
          <create/>
          <modify>
            <relation id="20" version="2">
              <member type="way" ref="10" role="inner"/>
            </relation>
          </modify>
          <delete>
            <way id="10" version="2"/>
          </delete>
        </osmChange>

        """

    // MARK: Hand-written documents

    func testReadsEveryElementAndActionInFileOrder() throws {
        let change = try OSMChange.parse(Data(Self.sample.utf8))
        XCTAssertEqual(change.version, "0.6")
        XCTAssertEqual(change.generator, "hand & keyboard")
        XCTAssertEqual(change.changes.map(\.action), [.create, .create, .create, .create, .modify, .modify,
                                                      .delete, .delete, .delete, .delete, .modify, .delete])
        XCTAssertEqual(change.changes.map(\.key.description), ["n1", "n2", "w10", "r20", "n1", "w11",
                                                               "n5", "w12", "r30", "n6", "r20", "w10"])

        let created = change.changes[0]
        guard case .node(let node) = created.element else { return XCTFail("not a node: \(created.element)") }
        XCTAssertEqual(node.location, OSMLocation(latitudeE7: 437_384_000, longitudeE7: 74_246_000))
        XCTAssertEqual(created.location, node.location)
        XCTAssertTrue(created.hasLocation)
        XCTAssertEqual(node.tags.map(\.key), ["name", "amenity"])
        XCTAssertEqual(node.tags.value(for: "name"), "Café")
        XCTAssertEqual(created.version, 1)
        XCTAssertEqual(created.rawTimestamp, "2026-11-27T10:00:00Z")
        XCTAssertEqual(created.timestamp, Date(timeIntervalSince1970: 1_795_773_600))
        XCTAssertFalse(created.ifUnused)
        XCTAssertEqual(change.changes[1].location, OSMLocation(latitudeE7: -5_000_000, longitudeE7: -1_800_000_000))

        guard case .way(let way) = change.changes[2].element else { return XCTFail("not a way") }
        XCTAssertEqual(way.nodeRefs, [1, 2])
        XCTAssertEqual(way.tags.value(for: "highway"), "footway")
        XCTAssertNil(change.changes[2].location)

        guard case .relation(let relation) = change.changes[3].element else { return XCTFail("not a relation") }
        XCTAssertEqual(relation.members, [.init(type: .way, ref: 10, role: "outer"), .init(type: .node, ref: 1, role: ""),
                                          .init(type: .relation, ref: 21, role: "")])
        XCTAssertEqual(change.changes[3].element.tags.value(for: "type"), "multipolygon")
        XCTAssertNil(change.changes[3].timestamp)
        XCTAssertNil(change.changes[3].rawTimestamp)

        let moved = change.changes[4]
        XCTAssertEqual(moved.location, OSMLocation(latitudeE7: 437_390_000, longitudeE7: 74_250_000))
        XCTAssertEqual(moved.element.tags.value(for: "name"), "Café de Paris")
        XCTAssertEqual(moved.version, 2)

        // A deleted node without coordinates, in an if-unused block; one with them, in a plain block.
        let deletedNode = change.changes[6]
        XCTAssertFalse(deletedNode.hasLocation)
        XCTAssertNil(deletedNode.location)
        XCTAssertTrue(deletedNode.ifUnused)
        XCTAssertEqual(deletedNode.version, 3)
        XCTAssertTrue(change.changes[7].ifUnused)
        XCTAssertFalse(change.changes[8].ifUnused)
        XCTAssertEqual(change.changes[9].location, OSMLocation(latitudeE7: 15_000_000, longitudeE7: 25_000_000))
    }

    func testNetEffectKeepsEachElementsLastChange() throws {
        let net = try OSMChange.parse(Data(Self.sample.utf8)).netEffect
        XCTAssertEqual(net.count, 9)
        // n1 created then modified: the modify wins, the first action still says create.
        XCTAssertEqual(net[.node, 1]?.action, .modify)
        XCTAssertEqual(net[.node, 1]?.version, 2)
        XCTAssertEqual(net.firstAction(of: OSMElementKey(type: .node, id: 1)), .create)
        // w10 created then deleted; r20 created then modified.
        XCTAssertEqual(net[.way, 10]?.action, .delete)
        XCTAssertEqual(net[.relation, 20]?.action, .modify)
        XCTAssertNil(net[.node, 99])
        XCTAssertNil(net.firstAction(of: OSMElementKey(type: .way, id: 99)))

        XCTAssertEqual(net.created(.node), [2])
        XCTAssertEqual(net.modified(.node), [1])
        XCTAssertEqual(net.deleted(.node), [5, 6])
        XCTAssertEqual(net.created(.way), [])
        XCTAssertEqual(net.modified(.way), [11])
        XCTAssertEqual(net.deleted(.way), [10, 12])
        XCTAssertEqual(net.modified(.relation), [20])
        XCTAssertEqual(net.deleted(.relation), [30])
        // In the order of each element's last change.
        XCTAssertEqual(net.changes.map(\.key.description), ["n2", "n1", "w11", "n5", "w12", "r30", "n6", "r20", "w10"])
    }

    func testEmptyDocuments() throws {
        XCTAssertEqual(try OSMChange.parse(Data("<osmChange/>".utf8)).changes.count, 0)
        let bom = Data([0xEF, 0xBB, 0xBF] + Array("<osmChange version='0.6'><create></create><delete/></osmChange>".utf8))
        let change = try OSMChange.parse(bom)
        XCTAssertEqual(change.version, "0.6")
        XCTAssertTrue(change.changes.isEmpty)
        XCTAssertEqual(change.netEffect.count, 0)
    }

    func testTimestamps() {
        XCTAssertEqual(OSMTimestamp.parse("1970-01-01T00:00:00Z"), Date(timeIntervalSince1970: 0))
        XCTAssertEqual(OSMTimestamp.parse("2024-02-29T23:59:59Z"), Date(timeIntervalSince1970: 1_709_251_199))
        XCTAssertEqual(OSMTimestamp.parse("2026-11-27T12:00:00+02:00"), OSMTimestamp.parse("2026-11-27T10:00:00Z"))
        XCTAssertEqual(OSMTimestamp.parse("2026-11-27T10:00:00.5Z")?.timeIntervalSince1970, 1_795_773_600.5)
        for bad in ["2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-27T24:00:00Z", "2026-11-27 10:00:00Z",
                    "2026-11-27T10:00:00", "2026-11-27T10:00:00Zjunk", "2026-11-27T10:00:00.Z", "yesterday", "", "２０２６-11-27T10:00:00Z"] {
            XCTAssertNil(OSMTimestamp.parse(bad), bad)
        }
    }

    // MARK: Errors

    private func error(_ text: String) -> OSMXMLError? {
        do {
            _ = try OSMChange.parse(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// Each case: the document, the kind of error, words its message must contain, and its line and column.
    func testErrorsNameWhatAndWhere() throws {
        let cases: [(String, OSMXMLError.Kind, String, Int, Int)] = [
            ("<osmChange>\n  <upsert/>\n</osmChange>", .unexpectedElement, "unknown action <upsert>", 2, 3),
            ("<osmChange>\n<node id=\"1\" lat=\"1\" lon=\"1\"/>\n</osmChange>", .unexpectedElement, "directly inside <osmChange>", 2, 1),
            ("<osmChange><create>\n <create/></create></osmChange>", .unexpectedElement, "<create> inside <create>", 2, 2),
            ("<osmChange><modify><tag k=\"a\" v=\"b\"/></modify></osmChange>", .unexpectedElement, "<tag> inside <modify>", 1, 20),
            ("<osmChange><create><node id=\"1\" lat=\"1\" lon=\"1\"><nd ref=\"2\"/></node></create></osmChange>",
             .unexpectedElement, "<nd> is not allowed inside <node>", 1, 49),
            ("<osmChange><create><way id=\"1\"><member type=\"node\" ref=\"2\"/></way></create></osmChange>",
             .unexpectedElement, "<member> is not allowed inside <way>", 1, 32),
            ("<osmChange><create><relation id=\"1\"><nd ref=\"2\"/></relation></create></osmChange>",
             .unexpectedElement, "<nd> is not allowed inside <relation>", 1, 37),
            ("<osmChange>\n<create>\n  <node id=\"7\" lon=\"1\"/>\n</create></osmChange>", .missingAttribute,
             "<node id=\"7\"> in <create> has no lat attribute", 3, 3),
            ("<osmChange><modify><node id=\"7\" lat=\"1\"/></modify></osmChange>", .missingAttribute,
             "<node id=\"7\"> in <modify> has no lon attribute", 1, 20),
            ("<osmChange><delete><node id=\"7\" lat=\"1\"/></delete></osmChange>", .missingAttribute, "both lat and lon or neither", 1, 20),
            ("<osmChange><create><node lat=\"1\" lon=\"1\"/></create></osmChange>", .missingAttribute, "<node> has no id attribute", 1, 20),
            ("<osmChange><delete><way version=\"2\"/></delete></osmChange>", .missingAttribute, "<way> has no id attribute", 1, 20),
            ("<osmChange><create><node id=\"1\" lat=\"90.5\" lon=\"1\"/></create></osmChange>", .invalidAttribute, "outside ±90", 1, 33),
            ("<osmChange><create><node id=\"1\" lat=\"1\" lon=\"-181\"/></create></osmChange>", .invalidAttribute, "outside ±180", 1, 41),
            ("<osmChange><create><node id=\"1\" lat=\"1e400\" lon=\"1\"/></create></osmChange>", .invalidAttribute, "not a number", 1, 33),
            ("<osmChange><create><node id=\"x1\" lat=\"1\" lon=\"1\"/></create></osmChange>", .invalidAttribute, "not a 64-bit integer", 1, 26),
            ("<osmChange><create><way id=\"1\" version=\"2.0\"/></create></osmChange>", .invalidAttribute, "version=\"2.0\"", 1, 32),
            ("<osmChange><create><way id=\"1\" version=\"-2\"/></create></osmChange>", .invalidAttribute, "negative", 1, 32),
            ("<osmChange><create><way id=\"1\" timestamp=\"yesterday\"/></create></osmChange>", .invalidAttribute, "not an ISO 8601", 1, 32),
            ("<osmChange><create><way id=\"1\"><nd ref=\"\"/></way></create></osmChange>", .invalidAttribute, "ref=\"\"", 1, 36),
            ("<osmChange><create><relation id=\"1\"><member type=\"area\" ref=\"1\"/></relation></create></osmChange>",
             .invalidAttribute, "not node, way or relation", 1, 45),
            ("<osm version=\"0.6\"></osm>", .notOSMChange, "<osm>, expected <osmChange>", 1, 1),
            ("  \n", .notOSMChange, "no root element", 2, 1),
            ("<osmChange>\n<create>\n</modify>\n</osmChange>", .malformedXML, "does not match <create>", 3, 1),
            ("<osmChange><create><node id=\"1\" lat=\"1\" lon=\"1\">", .malformedXML, "ends inside <node>", 1, 49),
            ("<osmChange></osmChange><osmChange/>", .malformedXML, "second root", 1, 24),
        ]
        for (text, kind, words, line, column) in cases {
            guard let e = error(text) else {
                XCTFail("no error for \(text)")
                continue
            }
            XCTAssertEqual(e.kind, kind, "\(text): \(e.message)")
            XCTAssertTrue(e.message.contains(words), "\(text): \(e.message)")
            XCTAssertEqual(e.line, line, "\(text): \(e.message)")
            XCTAssertEqual(e.column, column, "\(text): \(e.message)")
            XCTAssertTrue(e.message.hasPrefix("line \(line), column \(column): "), e.message)
        }
    }

    /// Every prefix of a valid document is an error, never a crash or a silently shorter change list.
    func testEveryTruncationIsAnError() {
        let bytes = Array(Self.sample.utf8)
        let end = Self.sample.utf8.distance(from: Self.sample.startIndex, to: Self.sample.range(of: "</osmChange>")!.upperBound)
        for length in 0..<end {
            XCTAssertThrowsError(try OSMChange.parse(Data(bytes[0..<length])), "prefix of \(length) bytes")
        }
        XCTAssertNoThrow(try OSMChange.parse(Data(bytes[0..<end])))
    }

    /// Random byte edits of a valid document: every outcome is a change list or a typed error.
    func testHostileEditsNeverCrash() {
        var random = SplitMix64(seed: 0x05C)
        let bytes = Array(Self.sample.utf8)
        let alphabet = Array("<>/=\"'&;#x0123456789.-e \n".utf8) + [0x00, 0xFF, 0xC3]
        var errors = 0
        for _ in 0..<3000 {
            var edited = bytes
            for _ in 0..<Int(random.next() % 4 + 1) {
                let at = Int(random.next() % UInt64(edited.count))
                switch random.next() % 3 {
                case 0: edited[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: edited.remove(at: at)
                default: edited.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                }
            }
            do {
                _ = try OSMChange.decode(Data(edited))
            } catch {
                errors += 1
                XCTAssertGreaterThan(error.line, 0, error.message)
            }
        }
        XCTAssertGreaterThan(errors, 1000)
    }

    // MARK: Compression

    func testGzipAndBzip2AreFoundByTheirMagicBytes() throws {
        let plain = Data(Self.sample.utf8)
        let gzip = Data(try Compression.deflate(plain, container: .gzip))
        let bzip2 = try tool("bzip2", ["-c"], input: plain)
        XCTAssertEqual(OSMChangeCompression(detecting: plain), OSMChangeCompression.none)
        XCTAssertEqual(OSMChangeCompression(detecting: gzip), .gzip)
        XCTAssertEqual(OSMChangeCompression(detecting: bzip2), .bzip2)
        let expected = try OSMChange.parse(plain).changes.map(\.key)
        for data in [plain, gzip, bzip2] {
            XCTAssertEqual(try OSMChange.decode(data).changes.map(\.key), expected)
        }

        // By content, whatever the name says; a .gz name over plain XML is read as XML.
        let folder = try temporaryFolder()
        for (name, data) in [("a.osc", gzip), ("b.osc.bz2", gzip), ("c.osc.gz", bzip2), ("d.osc.gz", plain), ("e", bzip2)] {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            XCTAssertEqual(try OSMChange.read(contentsOf: url).changes.map(\.key), expected, name)
        }
        let garbage = folder.appendingPathComponent("f.osc.gz")
        try Data([0x1F, 0x00, 0x01, 0x02]).write(to: garbage)
        XCTAssertThrowsError(try OSMChange.read(contentsOf: garbage)) { e in
            XCTAssertEqual((e as? OSMXMLError)?.kind, .corruptCompression)
            XCTAssertTrue("\(e)".contains("named .gz"), "\(e)")
        }
        XCTAssertThrowsError(try OSMChange.read(contentsOf: folder.appendingPathComponent("missing.osc"))) { e in
            XCTAssertEqual((e as? OSMXMLError)?.kind, .unreadable)
        }
    }

    func testConcatenatedMembersAndStreams() throws {
        let a = Data("<osmChange><create><node id=\"1\" lat=\"1\" lon=\"1\"/>".utf8)
        let b = Data("</create></osmChange>".utf8)
        let gzip = Data(try Compression.deflate(a, container: .gzip) + (try Compression.deflate(b, container: .gzip)))
        XCTAssertEqual(try OSMChange.decode(gzip).changes.count, 1)
        let bzip2 = try tool("bzip2", ["-c"], input: a) + (try tool("bzip2", ["-c"], input: b))
        XCTAssertEqual(try OSMChange.decode(bzip2).changes.count, 1)
        // Zero padding after the last member is ignored, as gzip does.
        XCTAssertEqual(try OSMChange.decode(gzip + Data(count: 512)).changes.count, 1)
    }

    func testCorruptAndTruncatedCompressionAreTypedErrors() throws {
        let plain = Data(String(repeating: Self.sample, count: 20).utf8)
        let gzip = Data(try Compression.deflate(plain, container: .gzip))
        let bzip2 = try tool("bzip2", ["-c"], input: plain)
        var cases: [(String, Data)] = []
        for (name, data) in [("gzip", gzip), ("bzip2", bzip2)] {
            cases.append(("\(name) truncated to half", data.prefix(data.count / 2)))
            cases.append(("\(name) without its last byte", data.dropLast()))
            cases.append(("\(name) header only", data.prefix(4)))
            var flipped = data
            for i in stride(from: data.count / 3, to: data.count / 3 + 16, by: 1) { flipped[i] ^= 0x5A }
            cases.append(("\(name) with corrupt bytes", flipped))
            cases.append(("\(name) with trailing garbage", data + Data("garbage".utf8)))
        }
        for (name, data) in cases {
            XCTAssertThrowsError(try OSMChange.decode(data), name) { e in
                XCTAssertEqual((e as? OSMXMLError)?.kind, .corruptCompression, "\(name): \(e)")
                XCTAssertEqual((e as? OSMXMLError)?.line, 0, name)
            }
        }
        // Every truncation of the gzip file fails cleanly.
        for length in stride(from: 2, to: gzip.count, by: 7) {
            XCTAssertThrowsError(try OSMChange.decode(gzip.prefix(length)), "gzip prefix \(length)")
        }
    }

    /// A few KiB that inflate to 64 MiB stop at the cap with their own error, having used no more than it.
    func testDecompressionBombsStopAtTheCap() throws {
        let zeros = Data(count: 64 << 20)
        let gzip = Data(try Compression.deflate(zeros, container: .gzip, level: 9))
        let bzip2 = try tool("bzip2", ["-c", "-9"], input: zeros)
        XCTAssertLessThan(gzip.count, 100_000)
        XCTAssertLessThan(bzip2.count, 1_000)
        for (name, data) in [("gzip", gzip), ("bzip2", bzip2)] {
            XCTAssertThrowsError(try OSMChange.decode(data, decompressedLimit: 1 << 20), name) { e in
                let error = e as? OSMXMLError
                XCTAssertEqual(error?.kind, .tooLarge, "\(name): \(e)")
                XCTAssertTrue(error?.message.contains("1048576 bytes") ?? false, "\(e)")
            }
            XCTAssertThrowsError(try OSMChangeCompression.decompress(data, limit: (64 << 20) - 1), name) { e in
                XCTAssertEqual((e as? OSMXMLError)?.kind, .tooLarge)
            }
            // Exactly at the cap is allowed (the zeros are no XML, so only the decompression is checked).
            XCTAssertEqual(try OSMChangeCompression.decompress(data, limit: 64 << 20).count, 64 << 20, name)
        }
    }

    // MARK: Real data: osmium's change files from an edited Monaco

    /// Edits a copy of the Monaco extract (a tag renamed, a node moved, a way deleted, a node and a way
    /// added, a relation member changed), has osmium derive the change file, and reads it plain, gzipped
    /// and bzip2ed.
    func testOsmiumDerivedChangesFromAnEditedMonaco() throws {
        let folder = try temporaryFolder()
        let old = folder.appendingPathComponent("old.osm")
        let new = folder.appendingPathComponent("new.osm")
        _ = try tool("osmium", ["cat", TestData.shared("data/osm/monaco.osm.pbf").path, "-o", old.path, "-O"])
        var lines = try String(contentsOf: old, encoding: .utf8).components(separatedBy: "\n")

        // A node with a name: its name changes.
        let renamedLine = try XCTUnwrap(lines.indices.first { i in
            lines[i].hasPrefix("  <node ") && !lines[i].hasSuffix("/>") && lines[i + 1].hasPrefix("    <tag k=\"name\" v=\"")
        })
        let renamedID = try XCTUnwrap(Int64(attribute("id", lines[renamedLine])))
        let oldName = attribute("v", lines[renamedLine + 1])
        let newName = oldName + " (renamed)"
        lines[renamedLine + 1] = "    <tag k=\"name\" v=\"\(newName)\"/>"
        lines[renamedLine] = bumpVersion(lines[renamedLine])

        // A node without tags moves 100 m or so north-east.
        let movedLine = try XCTUnwrap(lines.indices.first { lines[$0].hasPrefix("  <node ") && lines[$0].hasSuffix("/>") })
        let movedID = try XCTUnwrap(Int64(attribute("id", lines[movedLine])))
        let newLat = try XCTUnwrap(Double(attribute("lat", lines[movedLine]))) + 0.0009
        let newLon = try XCTUnwrap(Double(attribute("lon", lines[movedLine]))) + 0.0012
        lines[movedLine] = bumpVersion(setAttribute("lon", String(format: "%.7f", newLon),
                                                    setAttribute("lat", String(format: "%.7f", newLat), lines[movedLine])))

        // The first way goes.
        let wayStart = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  <way ") })
        let deletedWayID = try XCTUnwrap(Int64(attribute("id", lines[wayStart])))
        let wayEnd = try XCTUnwrap(lines[wayStart...].firstIndex { $0 == "  </way>" })
        lines.removeSubrange(wayStart...wayEnd)

        // A relation's first member gets another role.
        let relationLine = try XCTUnwrap(lines.indices.first { i in
            lines[i].hasPrefix("  <relation ") && lines[i + 1].hasPrefix("    <member ")
        })
        let changedRelationID = try XCTUnwrap(Int64(attribute("id", lines[relationLine])))
        lines[relationLine + 1] = setAttribute("role", "osc-test", lines[relationLine + 1])
        lines[relationLine] = bumpVersion(lines[relationLine])

        // Two new nodes after the last node and a way joining them after the last way (ids above the
        // extract's, so both files stay sorted as derive-changes needs).
        let newNodes: [Int64] = [90_000_000_001, 90_000_000_002]
        let newWay: Int64 = 90_000_000_001
        let firstWay = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  <way ") })
        lines.insert(contentsOf: [
            "  <node id=\"\(newNodes[0])\" version=\"1\" timestamp=\"2026-11-27T10:00:00Z\" lat=\"43.7301\" lon=\"7.4201\">",
            "    <tag k=\"amenity\" v=\"bench\"/>",
            "  </node>",
            "  <node id=\"\(newNodes[1])\" version=\"1\" timestamp=\"2026-11-27T10:00:00Z\" lat=\"43.7302\" lon=\"7.4202\"/>",
        ], at: firstWay)
        let firstRelation = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  <relation ") })
        lines.insert(contentsOf: [
            "  <way id=\"\(newWay)\" version=\"1\" timestamp=\"2026-11-27T10:00:00Z\">",
            "    <nd ref=\"\(newNodes[0])\"/>",
            "    <nd ref=\"\(newNodes[1])\"/>",
            "    <tag k=\"highway\" v=\"footway\"/>",
            "  </way>",
        ], at: firstRelation)
        try lines.joined(separator: "\n").write(to: new, atomically: true, encoding: .utf8)

        let osc = folder.appendingPathComponent("change.osc")
        _ = try tool("osmium", ["derive-changes", old.path, new.path, "-o", osc.path, "-O"])
        let gz = folder.appendingPathComponent("change.osc.gz")
        try tool("gzip", ["-c", osc.path]).write(to: gz)
        let bz2 = folder.appendingPathComponent("change.osc.bz2")
        try tool("bzip2", ["-c", osc.path]).write(to: bz2)

        let change = try OSMChange.read(contentsOf: osc)
        XCTAssertEqual(change.generator?.hasPrefix("osmium/"), true)
        for url in [gz, bz2] {
            let other = try OSMChange.read(contentsOf: url)
            XCTAssertEqual(other.changes.map(\.key), change.changes.map(\.key), url.lastPathComponent)
            XCTAssertEqual(other.changes.map(\.action), change.changes.map(\.action), url.lastPathComponent)
        }

        let net = change.netEffect
        XCTAssertEqual(change.changes.count, 7, change.changes.map { "\($0.action) \($0.key)" }.joined(separator: ", "))
        XCTAssertEqual(net.created(.node), Set(newNodes))
        XCTAssertEqual(net.modified(.node), [renamedID, movedID])
        XCTAssertEqual(net.deleted(.node), [])
        XCTAssertEqual(net.created(.way), [newWay])
        XCTAssertEqual(net.modified(.way), [])
        XCTAssertEqual(net.deleted(.way), [deletedWayID])
        XCTAssertEqual(net.modified(.relation), [changedRelationID])
        XCTAssertEqual(net.created(.relation).union(net.deleted(.relation)), [])

        XCTAssertEqual(net[.node, movedID]?.location, OSMLocation(latitude: newLat, longitude: newLon))
        XCTAssertEqual(net[.node, renamedID]?.element.tags.value(for: "name"), newName)
        XCTAssertEqual(net[.node, newNodes[0]]?.element.tags.value(for: "amenity"), "bench")
        XCTAssertEqual(net[.node, newNodes[1]]?.location, OSMLocation(latitudeE7: 437_302_000, longitudeE7: 74_202_000))
        guard case .way(let way)? = net[.way, newWay]?.element else { return XCTFail("the new way is missing") }
        XCTAssertEqual(way.nodeRefs, newNodes)
        XCTAssertEqual(way.tags.value(for: "highway"), "footway")
        guard case .relation(let relation)? = net[.relation, changedRelationID]?.element else { return XCTFail("no relation") }
        XCTAssertEqual(relation.members.first?.role, "osc-test")
        let deleted = try XCTUnwrap(net[.way, deletedWayID])
        XCTAssertNotNil(deleted.version)
        XCTAssertNotNil(deleted.timestamp)
    }

    /// Deriving changes from nothing to Monaco creates every element; from Monaco to nothing deletes
    /// them, without coordinates: both read element for element as the OSM XML reader reads the extract.
    func testWholeExtractCreatedAndDeleted() throws {
        let folder = try temporaryFolder()
        let monaco = folder.appendingPathComponent("monaco.osm")
        let empty = folder.appendingPathComponent("empty.osm")
        _ = try tool("osmium", ["cat", TestData.shared("data/osm/monaco.osm.pbf").path, "-o", monaco.path, "-O"])
        try "<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\">\n</osm>\n".write(to: empty, atomically: true, encoding: .utf8)
        let created = folder.appendingPathComponent("created.osc.gz")
        let deleted = folder.appendingPathComponent("deleted.osc.bz2")
        _ = try tool("osmium", ["derive-changes", empty.path, monaco.path, "-o", created.path, "-O"])
        _ = try tool("osmium", ["derive-changes", monaco.path, empty.path, "-o", deleted.path, "-O"])
        XCTAssertEqual(OSMChangeCompression(detecting: try Data(contentsOf: created)), .gzip)
        XCTAssertEqual(OSMChangeCompression(detecting: try Data(contentsOf: deleted)), .bzip2)

        let document = try OSMXMLDocument.read(contentsOf: monaco)
        let creates = try OSMChange.read(contentsOf: created)
        // osmium writes a new element as a create only at version 1, otherwise as a modify: thousands of
        // alternating blocks.
        XCTAssertTrue(creates.changes.allSatisfy { $0.action == ($0.version == 1 ? .create : .modify) && $0.timestamp != nil })
        XCTAssertGreaterThan(creates.changes.filter { $0.action == .create }.count, 1000)
        XCTAssertGreaterThan(creates.changes.filter { $0.action == .modify }.count, 1000)
        var nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []
        for change in creates.changes {
            switch change.element {
            case .node(let n): nodes.append(n)
            case .way(let w): ways.append(w)
            case .relation(let r): relations.append(r)
            }
        }
        XCTAssertEqual(nodes.count, document.nodes.count)
        XCTAssertEqual(nodes.map(\.id), document.nodes.map(\.id))
        XCTAssertEqual(nodes.map(\.location), document.nodes.map(\.location))
        XCTAssertEqual(nodes.map { $0.tags.map { "\($0.key)=\($0.value)" } }, document.nodes.map { $0.tags.map { "\($0.key)=\($0.value)" } })
        XCTAssertEqual(ways.map(\.id), document.ways.map(\.id))
        XCTAssertEqual(ways.map(\.nodeRefs), document.ways.map(\.nodeRefs))
        XCTAssertEqual(relations.map(\.id), document.relations.map(\.id))
        XCTAssertEqual(relations.map(\.members), document.relations.map(\.members))
        XCTAssertGreaterThan(nodes.count, 10_000)

        let deletes = try OSMChange.read(contentsOf: deleted)
        XCTAssertEqual(deletes.changes.count, document.nodes.count + document.ways.count + document.relations.count)
        XCTAssertTrue(deletes.changes.allSatisfy { $0.action == .delete && $0.location == nil })
        XCTAssertEqual(deletes.netEffect.deleted(.node), Set(document.nodes.map(\.id)))
        XCTAssertEqual(deletes.netEffect.deleted(.relation), Set(document.relations.map(\.id)))
    }

    // MARK: Helpers

    /// Runs a command-line tool and returns its output; a missing or failing tool fails the test.
    @discardableResult
    private func tool(_ name: String, _ arguments: [String], input: Data = Data()) throws -> Data {
        let found = ["/usr/bin", "/usr/local/bin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        guard found else {
            let package = name == "osmium" ? "osmium-tool" : name
            XCTFail("\(name) is not installed: install \(package) (`apt-get install \(package)`; `make test` installs it)")
            throw CocoaError(.executableNotLoadable)
        }
        let result = try runProcess(name, arguments, input: input)
        guard result.status == 0 else {
            XCTFail("`\(name) \(arguments.joined(separator: " "))` failed with status \(result.status): \(result.stderr)")
            throw CocoaError(.executableLoad)
        }
        return result.standardOutput
    }

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("OSMChangeTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// An attribute's value in one line of osmium's XML (values there are escaped; the ones read here
    /// are numbers, or compared after the same escaping).
    private func attribute(_ name: String, _ line: String) -> String {
        guard let start = line.range(of: " \(name)=\"") else { return "" }
        let rest = line[start.upperBound...]
        return String(rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)])
    }

    private func setAttribute(_ name: String, _ value: String, _ line: String) -> String {
        guard let start = line.range(of: " \(name)=\"") else { return line }
        let rest = line[start.upperBound...]
        let end = rest.firstIndex(of: "\"") ?? rest.endIndex
        return String(line[..<start.upperBound]) + value + String(line[end...])
    }

    /// osmium derive-changes tells changed elements by their version, so every edit bumps it.
    private func bumpVersion(_ line: String) -> String {
        setAttribute("version", String((Int(attribute("version", line)) ?? 0) + 1), line)
    }
}
