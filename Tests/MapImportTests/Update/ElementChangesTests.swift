import Foundation
import GRDB
import MapBundle
import MapFormats
@testable import MapImport
import TestSupport
import XCTest

/// An osmChange applied to a bundle's element store: the store then equals a fresh import's of
/// the new data, row for row, and the change reaches exactly what it should.
final class ElementChangesTests: XCTestCase {
    /// Monaco, edited with one change of every kind (edit_extract.py), the osmChange derived by
    /// osmium: applied to the old store, it gives the new extract's store.
    func testAppliedChangeEqualsAFreshImportOfTheNewData() throws {
        let edited = try EditedExtract("element-changes")
        defer { edited.remove() }
        let (work, old, new, change, edits) = (edited.work, edited.old, edited.new, edited.change, edited.edits)
        let before = try storeOnlyImport(old, into: work.appendingPathComponent("old.omk"))
        let after = try storeOnlyImport(new, into: work.appendingPathComponent("new.omk"))
        let store = try OSMElementStore(url: before, writable: true)
        let changes = try store.apply(try OSMChange.read(contentsOf: change))

        // Row for row, the updated store is the new extract's.
        let fresh = try DatabaseQueue(path: after.path)
        try DatabaseQueue(path: before.path).read { updated in
            try fresh.read { expected in
                for (table, order) in [("nodes", "id"), ("ways", "id"), ("relations", "id"), ("way_nodes", "node, way"), ("members", "type, ref, relation")] {
                    let a = try Row.fetchAll(updated, sql: "SELECT * FROM \(table) ORDER BY \(order)")
                    let b = try Row.fetchAll(expected, sql: "SELECT * FROM \(table) ORDER BY \(order)")
                    XCTAssertEqual(a.count, b.count, table)
                    XCTAssertTrue(a == b, "\(table) differs from a fresh import's")
                }
            }
        }

        // What the change reached.
        func way(_ name: String) -> OSMElementKey { OSMElementKey(type: .way, id: Int64(edits[name] as! Int)) }
        func node(_ id: Any?) -> OSMElementKey { OSMElementKey(type: .node, id: Int64(id as! Int)) }
        func relation(_ name: String) -> OSMElementKey { OSMElementKey(type: .relation, id: Int64(edits[name] as! Int)) }
        for key in [way("renamed"), way("movedNodeWay"), way("tunedRoad"), way("newWay"), relation("multipolygon"), relation("restriction")] {
            XCTAssertTrue(changes.remade.contains(key), "\(key) should be made again")
        }
        XCTAssertTrue(changes.deleted.contains(way("deletedBuilding")))
        XCTAssertTrue(changes.deleted.contains(node(edits["deletedPOI"])))
        for id in edits["deletedBuildingNodes"] as! [Int] { XCTAssertTrue(changes.deleted.contains(node(id))) }
        XCTAssertTrue(changes.remade.isDisjoint(with: changes.deleted))
        let moved = Int64(edits["movedNode"] as! Int)
        XCTAssertTrue(changes.movedNodes.contains(moved))
        XCTAssertNotNil(changes.formerLocations[moved])
        XCTAssertNotEqual(changes.formerLocations[moved], try store.read { try $0.location(of: moved) })
        XCTAssertNotNil(changes.formerWayNodes[Int64(edits["deletedBuilding"] as! Int)])
        XCTAssertNotNil(changes.formerMembers[Int64(edits["multipolygon"] as! Int)])
        // Relations holding the way whose node moved are reached through it; a retagged way reaches none.
        let holding = try store.read { try $0.relations(containing: .way, Int64(edits["movedNodeWay"] as! Int)) }
        for id in holding { XCTAssertTrue(changes.remade.contains(OSMElementKey(type: .relation, id: id))) }
        let renamedHolders = try store.read { try $0.relations(containing: .way, Int64(edits["renamed"] as! Int)) }
        let reachedOtherwise = Set(holding)
        for id in renamedHolders where !reachedOtherwise.contains(id) && id != Int64(edits["multipolygon"] as! Int) && id != Int64(edits["restriction"] as! Int) {
            XCTAssertFalse(changes.remade.contains(OSMElementKey(type: .relation, id: id)), "relation \(id) holds only a renamed way")
        }
        // Nothing else: a handful of edits reach a handful of elements, not the map.
        XCTAssertLessThan(changes.remade.count, 60, "\(changes.remade.count) elements remade")

        // Applying the same change again changes nothing more in the store.
        _ = try store.apply(try OSMChange.read(contentsOf: change))
        let counts = try store.read { try $0.counts() }
        let expectedCounts = try OSMElementStore(url: after).read { try $0.counts() }
        XCTAssertEqual(counts.nodes, expectedCounts.nodes)
        XCTAssertEqual(counts.ways, expectedCounts.ways)
    }

    /// An import of only the element store (and zoom-0 tiles): what these tests compare.
    private func storeOnlyImport(_ source: URL, into bundle: URL) throws -> URL {
        let importer = BundleImporter()
        importer.tileOptions.maximumZoom = 0
        (importer.buildsPlaceIndex, importer.buildsRoadGraphs, importer.buildsStreetScene) = (false, false, false)
        _ = try importer.importPBF(at: source, to: bundle)
        return bundle.appendingPathComponent(MapBundle.elementsFileName)
    }
}
