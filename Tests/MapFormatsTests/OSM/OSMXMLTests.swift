import Foundation
import MapFormats
import TestSupport
import XCTest

#if canImport(FoundationXML)
import FoundationXML
#endif

final class OSMXMLTests: XCTestCase {

    static let sample = """
        <?xml version='1.0' encoding='UTF-8'?>
        <!DOCTYPE osm [ <!ENTITY x "y"> ]>
        <!-- a comment with <tags> inside -->
        <osm version="0.6" generator="hand &amp; keyboard">
          <note>Data &lt;c&gt; OpenStreetMap contributors</note>
          <meta osm_base="2026-01-01T00:00:00Z"/>
          <bounds minlat="-33.9" minlon="151.1" maxlat="-33.8" maxlon="151.3"/>
          <node id="1" version="3" lat="-33.8688197" lon="151.2092955" user="a'b"/>
          <node id='2' lat='-33.86' lon='151.21' visible='true'>
            <tag k="name" v="Caf&#233; &#x20AC; &quot;Q&quot; &apos;s"/>
            <tag k="amenity" v="cafe"/>
          </node>
          <node id="-3" lat="0" lon="-180"/>
          <way id="10">
            <nd ref="1"/>
            <nd ref="2"/>
            <nd ref="-3"/>
            <nd ref="1"/>
            <tag k="area" v="yes"/>
            <![CDATA[ ignored <text> ]]>
          </way>
          <relation id="20">
            <member type="way" ref="10" role="outer"/>
            <member type="node" ref="2" role=""/>
            <member type="relation" ref="21"/>
            <tag k="type" v="multipolygon"/>
          </relation>
        </osm>
        <!-- trailing comment -->

        """

    func testReadsEntitiesInFileOrder() throws {
        let doc = try OSMXMLDocument.parse(Data(Self.sample.utf8))
        XCTAssertEqual(doc.version, "0.6")
        XCTAssertEqual(doc.generator, "hand & keyboard")
        XCTAssertEqual(doc.bounds, OSMBounds(minimum: OSMLocation(latitudeE7: -339_000_000, longitudeE7: 1_511_000_000),
                                             maximum: OSMLocation(latitudeE7: -338_000_000, longitudeE7: 1_513_000_000)))
        XCTAssertEqual(doc.nodes.map(\.id), [1, 2, -3])
        XCTAssertEqual(doc.nodes[0].location, OSMLocation(latitudeE7: -338_688_197, longitudeE7: 1_512_092_955))
        XCTAssertEqual(doc.nodes[2].location, OSMLocation(latitudeE7: 0, longitudeE7: -1_800_000_000))
        XCTAssertTrue(doc.nodes[0].tags.isEmpty)
        XCTAssertEqual(doc.nodes[1].tags.map(\.key), ["name", "amenity"])
        XCTAssertEqual(doc.nodes[1].tags.value(for: "name"), "Café € \"Q\" 's")
        XCTAssertEqual(doc.ways.count, 1)
        XCTAssertEqual(doc.ways[0].nodeRefs, [1, 2, -3, 1])
        XCTAssertEqual(doc.ways[0].tags.value(for: "area"), "yes")
        XCTAssertEqual(doc.relations.count, 1)
        XCTAssertEqual(doc.relations[0].members, [
            .init(type: .way, ref: 10, role: "outer"),
            .init(type: .node, ref: 2, role: ""),
            .init(type: .relation, ref: 21, role: ""),
        ])
        XCTAssertEqual(doc.relations[0].tags.value(for: "type"), "multipolygon")
    }

    func testEmptyAndSelfClosingRoot() throws {
        XCTAssertEqual(try OSMXMLDocument.parse(Data("<osm/>".utf8)).nodes.count, 0)
        let bom = Data([0xEF, 0xBB, 0xBF] + Array("<osm version='0.6'></osm>".utf8))
        XCTAssertEqual(try OSMXMLDocument.parse(bom).version, "0.6")
    }

    // MARK: Errors

    private func error(_ text: String) -> OSMXMLError? {
        do {
            _ = try OSMXMLDocument.parse(Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    func testInvalidAttributesNameLineAndValue() throws {
        let lat = try XCTUnwrap(error("<osm>\n  <node id=\"1\" lat=\"95\" lon=\"0\"/>\n</osm>"))
        XCTAssertEqual(lat.kind, .invalidAttribute)
        XCTAssertEqual(lat.line, 2)
        XCTAssertEqual(lat.column, 16)
        XCTAssertEqual(lat.byteOffset, 21)
        XCTAssertTrue(lat.message.contains("lat=\"95\""), lat.message)

        let id = try XCTUnwrap(error("<osm>\n\n<node id=\"abc\" lat=\"1\" lon=\"2\"/></osm>"))
        XCTAssertEqual(id.kind, .invalidAttribute)
        XCTAssertEqual(id.line, 3)
        XCTAssertTrue(id.message.contains("abc"), id.message)

        XCTAssertEqual(error("<osm><node id=\"1\" lat=\"1\" lon=\"181\"/></osm>")?.kind, .invalidAttribute)
        XCTAssertEqual(error("<osm><node id=\"1\" lat=\"nan\" lon=\"1\"/></osm>")?.kind, .invalidAttribute)
        XCTAssertEqual(error("<osm><node id=\"1\" lat=\"inf\" lon=\"1\"/></osm>")?.kind, .invalidAttribute)
        XCTAssertEqual(error("<osm><node id=\"99999999999999999999\" lat=\"1\" lon=\"1\"/></osm>")?.kind, .invalidAttribute)
        XCTAssertEqual(error("<osm><node id=\"\" lat=\"1\" lon=\"1\"/></osm>")?.kind, .invalidAttribute)
        XCTAssertEqual(error("<osm><node id=\"1\" lat=\"1\"/></osm>")?.kind, .missingAttribute)
        XCTAssertEqual(error("<osm><way id=\"1\"><nd/></way></osm>")?.kind, .missingAttribute)
        XCTAssertEqual(error("<osm><way id=\"1\"><tag k=\"a\"/></way></osm>")?.kind, .missingAttribute)
        XCTAssertEqual(error("<osm><relation id=\"1\"><member type=\"area\" ref=\"1\"/></relation></osm>")?.kind,
                       .invalidAttribute)
        XCTAssertEqual(error("<osm><relation id=\"1\"><member ref=\"1\"/></relation></osm>")?.kind, .missingAttribute)
    }

    func testMalformedXMLIsReportedWithItsLine() throws {
        let mismatched = try XCTUnwrap(error("<osm>\n<way id=\"1\">\n</node>\n</osm>"))
        XCTAssertEqual(mismatched.kind, .malformedXML)
        XCTAssertEqual(mismatched.line, 3)

        let cases = [
            "<osm><node id=\"1\" lat=\"1\" lon=\"1\"></osm>",   // unclosed element
            "<osm><node id=\"1\" lat=\"1\" lon=\"1\"/>",         // document ends inside <osm>
            "<osm><node id=1 lat=\"1\" lon=\"1\"/></osm>",       // unquoted value
            "<osm><node id=\"1\" id=\"2\" lat=\"1\" lon=\"1\"/></osm>",  // repeated attribute
            "<osm><way id=\"1\"><tag k=\"&bogus;\" v=\"\"/></way></osm>",  // unknown entity
            "<osm><way id=\"1\"><tag k=\"&amp\" v=\"\"/></way></osm>",     // unterminated entity
            "<osm><node id=\"1\" lat=\"1\" lon=\"1\"",           // truncated start tag
            "<osm><!-- never closed </osm>",
            "<osm></osm><osm></osm>",                           // two roots
            "<osm><1node/></osm>",                              // invalid name
            "<osm></way></osm>",
            "<osm><",
        ]
        for text in cases {
            XCTAssertEqual(error(text)?.kind, .malformedXML, text)
        }
        XCTAssertEqual(error("<gpx></gpx>")?.kind, .notOSM)
        XCTAssertEqual(error("   ")?.kind, .notOSM)
        XCTAssertEqual(error("<osm>")?.kind, .malformedXML)
    }

    func testUnreadableFile() {
        XCTAssertThrowsError(try OSMXMLDocument.read(contentsOf: URL(fileURLWithPath: "/nonexistent/x.osm"))) { e in
            XCTAssertEqual((e as? OSMXMLError)?.kind, .unreadable)
        }
    }

    /// Random byte edits and truncations of a valid document: every outcome is a document or a typed error
    /// whose position lies inside the input.
    func testMutatedDocumentsNeverCrash() {
        var rng = SplitMix64(seed: 99)
        let original = Array(Self.sample.utf8)
        let alphabet = Array("<>/=\"'&;#x!?-[] \nabc019.".utf8)
        var parsed = 0, rejected = 0
        for _ in 0..<3000 {
            var bytes = original
            let edits = 1 + Int(rng.next() % 4)
            for _ in 0..<edits {
                let i = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 4 {
                case 0: bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: i)
                case 2: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: i)
                default: bytes.removeSubrange(i...)
                }
                if bytes.isEmpty { bytes = [0x3C] }
            }
            do {
                _ = try OSMXMLDocument.parse(Data(bytes))
                parsed += 1
            } catch {
                rejected += 1
                XCTAssertGreaterThanOrEqual(error.line, 1)
                XCTAssertLessThanOrEqual(error.byteOffset, bytes.count)
            }
        }
        XCTAssertGreaterThan(parsed, 100)
        XCTAssertGreaterThan(rejected, 100)
    }

    // MARK: Against FoundationXML

    #if canImport(FoundationXML) || canImport(Darwin)
    /// The osm-testdata grid's all.osm (every test case in one file), read by this reader and by
    /// Foundation's XMLParser: the same elements, ids, coordinates, references, members and tags.
    func testAgreesWithXMLParserOnTheTestdataGrid() throws {
        let url = TestData.shared("conformance/osm-testdata/grid/data/all.osm")
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "osm-testdata all.osm not found at \(url.path)")
        let data = try Data(contentsOf: url)
        let ours = try OSMXMLDocument.parse(data)

        // One line per element with its children, compared as sorted lists.
        final class Collector: NSObject, XMLParserDelegate {
            var elements: [String] = []
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                        qualifiedName: String?, attributes: [String: String] = [:]) {
                switch name {
                case "node":
                    let lat = Double(attributes["lat"] ?? "") ?? .nan, lon = Double(attributes["lon"] ?? "") ?? .nan
                    elements.append("node \(attributes["id"] ?? "") \(Int((lat * 1e7).rounded())) \(Int((lon * 1e7).rounded()))")
                case "way", "relation": elements.append("\(name) \(attributes["id"] ?? "")")
                case "nd": elements[elements.count - 1] += " nd \(attributes["ref"] ?? "")"
                case "member":
                    elements[elements.count - 1] += " member \(attributes["type"] ?? "") \(attributes["ref"] ?? "") \(attributes["role"] ?? "")"
                case "tag": elements[elements.count - 1] += " tag \(attributes["k"] ?? "")=\(attributes["v"] ?? "")"
                default: break
                }
            }
        }
        let collector = Collector()
        let parser = XMLParser(data: data)
        parser.delegate = collector
        XCTAssertTrue(parser.parse())

        var mine: [String] = []
        for node in ours.nodes {
            mine.append("node \(node.id) \(node.location.latitudeE7) \(node.location.longitudeE7)"
                        + node.tags.map { " tag \($0.key)=\($0.value)" }.joined())
        }
        for way in ours.ways {
            mine.append("way \(way.id)" + way.nodeRefs.map { " nd \($0)" }.joined()
                        + way.tags.map { " tag \($0.key)=\($0.value)" }.joined())
        }
        for relation in ours.relations {
            // The grid writes members before tags.
            mine.append("relation \(relation.id)" + relation.members.map { " member \($0.type) \($0.ref) \($0.role)" }.joined()
                        + relation.tags.map { " tag \($0.key)=\($0.value)" }.joined())
        }
        XCTAssertGreaterThan(ours.nodes.count, 500)
        XCTAssertGreaterThan(ours.relations.count, 50)
        XCTAssertEqual(mine.sorted(), collector.elements.sorted())
    }
    #endif
}
