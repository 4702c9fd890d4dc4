import Foundation
import GRDB
import MapBundle
import MapFormats
@testable import MapImport
import TestSupport
import XCTest

/// The OSM elements an import keeps for updates (`osm.sqlite`): everything the extract holds, the
/// references backwards, changes that land whole or not at all.
final class OSMElementStoreTests: XCTestCase {
    /// Every node, way and relation of Monaco is in the store as the PBF has it, and every
    /// backward reference agrees with the forward ones.
    func testImportKeepsEveryElementAndItsReferences() throws {
        let bundle = try SampleBundle.monaco()
        let manifest = try MapBundle(url: bundle).manifest
        XCTAssertEqual(manifest.elements, MapBundle.elementsFileName)
        XCTAssertGreaterThan(manifest.report.elementStoreBytes, 0)
        let store = try OSMElementStore(url: bundle.appendingPathComponent(MapBundle.elementsFileName))

        var nodes: [Int64: OSMNode] = [:], ways: [OSMWay] = [], relations: [OSMRelation] = []
        let reader = try OSMPBFReader(url: TestData.shared("data/osm/monaco.osm.pbf"))
        try reader.forEachBlock { block in
            for i in 0..<block.nodes.count {
                let tags: OSMTags = block.nodes.tags.range(of: i).map { (key: block.strings[block.nodes.tags.keys[$0]], value: block.strings[block.nodes.tags.values[$0]]) }
                nodes[block.nodes.ids[i]] = OSMNode(id: block.nodes.ids[i], location: block.nodes.locations[i], tags: tags)
            }
            block.forEachWay { ways.append($0) }
            block.forEachRelation { relations.append($0) }
        }
        XCTAssertGreaterThan(ways.count, 1000)

        try store.read { elements in
            let counts = try elements.counts()
            XCTAssertEqual(counts.nodes, nodes.count)
            XCTAssertEqual(counts.ways, ways.count)
            XCTAssertEqual(counts.relations, relations.count)
            XCTAssertEqual(counts.nodes, manifest.report.nodes)
            for node in nodes.values where !node.tags.isEmpty || node.id % 97 == 0 {
                let kept = try XCTUnwrap(try elements.node(node.id), "node \(node.id)")
                XCTAssertEqual(kept.location, node.location)
                XCTAssertTrue(kept.tags.elementsEqual(node.tags, by: { $0.key == $1.key && $0.value == $1.value }), "node \(node.id)")
            }
            for way in ways {
                let kept = try XCTUnwrap(try elements.way(way.id), "way \(way.id)")
                XCTAssertEqual(kept.nodeRefs, way.nodeRefs, "way \(way.id)")
                XCTAssertTrue(kept.tags.elementsEqual(way.tags, by: { $0.key == $1.key && $0.value == $1.value }), "way \(way.id)")
            }
            for relation in relations {
                let kept = try XCTUnwrap(try elements.relation(relation.id), "relation \(relation.id)")
                XCTAssertEqual(kept.members, relation.members, "relation \(relation.id)")
                XCTAssertTrue(kept.tags.elementsEqual(relation.tags, by: { $0.key == $1.key && $0.value == $1.value }))
            }
            // Backwards: the ways through a node are exactly those that list it.
            var through: [Int64: Set<Int64>] = [:]
            for way in ways { for node in way.nodeRefs { through[node, default: []].insert(way.id) } }
            for (node, expected) in through where node % 13 == 0 {
                XCTAssertEqual(Set(try elements.ways(through: node)), expected, "node \(node)")
            }
            XCTAssertEqual(try elements.ways(through: -1), [])
            var containing: [OSMElementKey: Set<Int64>] = [:]
            for relation in relations { for m in relation.members { containing[OSMElementKey(type: m.type, id: m.ref), default: []].insert(relation.id) } }
            for (member, expected) in containing {
                XCTAssertEqual(Set(try elements.relations(containing: member.type, member.id)), expected, "\(member)")
            }
        }
    }

    /// Changes move the backward references with them, and a change that fails part-way leaves
    /// the store exactly as it was.
    func testUpdatesKeepReferencesAndLandWholeOrNotAtAll() throws {
        let original = try SampleBundle.monaco().appendingPathComponent(MapBundle.elementsFileName)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-elements-\(getpid()).sqlite")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: original, to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let store = try OSMElementStore(url: url, writable: true)

        // A way with at least three nodes, its first node, and a node of another way.
        let (way, other) = try store.read { elements -> (OSMWay, OSMWay) in
            let ids = try Int64.fetchAll(elements.db, sql: "SELECT id FROM ways ORDER BY id LIMIT 200")
            let candidates = try ids.compactMap { try elements.way($0) }.filter { Set($0.nodeRefs).count >= 3 }
            return (candidates[0], candidates[1])
        }
        let dropped = way.nodeRefs[1], added = other.nodeRefs.first(where: { !way.nodeRefs.contains($0) })!
        var changed = way
        changed.nodeRefs[1] = added
        changed.tags = [(key: "highway", value: "service"), (key: "name", value: "Rue Nouvelle")]
        try store.update { writer in
            try writer.put(changed)
            try writer.put(OSMNode(id: added, location: OSMLocation(latitudeE7: 437_300_000, longitudeE7: 74_200_000), tags: [(key: "amenity", value: "bench")]))
            try writer.setMetadata("sequence", "42")
        }
        try store.read { elements in
            let kept = try XCTUnwrap(try elements.way(way.id))
            XCTAssertEqual(kept.nodeRefs, changed.nodeRefs)
            XCTAssertEqual(kept.tags.value(for: "name"), "Rue Nouvelle")
            XCTAssertTrue(try elements.ways(through: added).contains(way.id))
            if !changed.nodeRefs.contains(dropped) { XCTAssertFalse(try elements.ways(through: dropped).contains(way.id)) }
            XCTAssertEqual(try elements.node(added)?.location, OSMLocation(latitudeE7: 437_300_000, longitudeE7: 74_200_000))
            XCTAssertEqual(try elements.metadata("sequence"), "42")
        }

        // Deleting the way removes it and every reference it made.
        try store.update { writer in try writer.delete(.way, way.id) }
        try store.read { elements in
            XCTAssertNil(try elements.way(way.id))
            for node in changed.nodeRefs { XCTAssertFalse(try elements.ways(through: node).contains(way.id)) }
        }

        // A change that throws half-way: nothing of it stays.
        struct Stop: Error {}
        let before = try store.read { try $0.counts() }
        XCTAssertThrowsError(try store.update { writer in
            try writer.delete(.way, other.id)
            try writer.put(OSMNode(id: 9_999_999_999, location: OSMLocation(latitudeE7: 0, longitudeE7: 0)))
            throw Stop()
        })
        try store.read { elements in
            let after = try elements.counts()
            XCTAssertEqual(after.nodes, before.nodes)
            XCTAssertEqual(after.ways, before.ways)
            XCTAssertNotNil(try elements.way(other.id))
            XCTAssertNil(try elements.node(9_999_999_999))
            for node in other.nodeRefs { XCTAssertTrue(try elements.ways(through: node).contains(other.id)) }
        }
    }

    /// A read-only import keeps no store; opening one that is missing, of another schema or not
    /// SQLite at all is an error that says what to do.
    func testMissingForeignAndDamagedStoresAreRefusedWithAReason() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-elements-readonly-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let importer = BundleImporter()
        importer.tileOptions.maximumZoom = 0
        (importer.buildsPlaceIndex, importer.buildsRoadGraphs, importer.buildsStreetScene, importer.keepsElements) = (false, false, false, false)
        let bundle = folder.appendingPathComponent("monaco.omk")
        _ = try importer.importPBF(at: TestData.shared("data/osm/monaco.osm.pbf"), to: bundle)
        XCTAssertNil(try MapBundle(url: bundle).manifest.elements)
        let missing = bundle.appendingPathComponent(MapBundle.elementsFileName)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))
        XCTAssertThrowsError(try OSMElementStore(url: missing)) { error in
            XCTAssertTrue("\(error)".contains("--no-update-data"), "\(error)")
        }

        let foreign = folder.appendingPathComponent("foreign.sqlite")
        try DatabaseQueue(path: foreign.path).write { db in
            try db.execute(sql: "CREATE TABLE metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO metadata VALUES ('schema', '99')")
        }
        XCTAssertThrowsError(try OSMElementStore(url: foreign)) { error in
            XCTAssertEqual(error as? OSMElementStoreError, .version(found: "99", expected: 1))
        }
        let garbage = folder.appendingPathComponent("garbage.sqlite")
        try Data("not a database at all, just text".utf8).write(to: garbage)
        XCTAssertThrowsError(try OSMElementStore(url: garbage)) { error in
            guard case .database = error as? OSMElementStoreError else { return XCTFail("\(error)") }
        }
    }

    /// Blobs read back what was written, and a damaged blob is an error, never a crash.
    func testBlobsRoundTripAndDamageIsAnError() throws {
        let refs: [Int64] = [5, 3, 9_000_000_000, -7, 5]
        XCTAssertEqual(try OSMElementSchema.decodeNodeRefs(Data(OSMElementSchema.encode(nodeRefs: refs))), refs)
        let members = [OSMRelation.Member(type: .way, ref: 12, role: "outer"), OSMRelation.Member(type: .node, ref: 3, role: ""),
                       OSMRelation.Member(type: .relation, ref: 1 << 40, role: "subarea")]
        XCTAssertEqual(try OSMElementSchema.decodeMembers(Data(OSMElementSchema.encode(members: members))), members)
        let tags: OSMTags = [(key: "name", value: "Monaco"), (key: "name:ja", value: "モナコ")]
        XCTAssertTrue(try OSMElementSchema.decodeTags(OSMElementSchema.encode(tags: tags).map { Data($0) })
            .elementsEqual(tags, by: { $0.key == $1.key && $0.value == $1.value }))
        XCTAssertNil(OSMElementSchema.encode(tags: []))
        for damaged in [Data([0x0a, 0x05, 0x61]), Data([0x12, 0x01, 0x61]), Data([0xff, 0xff, 0xff])] {
            XCTAssertThrowsError(try OSMElementSchema.decodeTags(damaged))
        }
        XCTAssertThrowsError(try OSMElementSchema.decodeMembers(Data([0x08, 0x07, 0x10, 0x02, 0x1a, 0x00])))
        XCTAssertThrowsError(try OSMElementSchema.decodeNodeRefs(Data([0x80])))
    }
}
