import Foundation
import MapFormats
import TestSupport
import XCTest
@testable import MapImport

final class NodeLocationStoreTests: XCTestCase {
    private func location(_ i: Int64) -> OSMLocation {
        OSMLocation(latitudeE7: Int32(truncatingIfNeeded: i &* 7919 % 900_000_000), longitudeE7: Int32(truncatingIfNeeded: -i &* 104_729 % 1_800_000_000))
    }

    func testSortedAppendsAreFoundAcrossManyStrides() throws {
        let store = try NodeLocationStore(directory: NSTemporaryDirectory())
        // Gaps between ids, so that lookups of absent ids fall between and beside present ones.
        let ids = (0..<100_000).map { Int64($0) * 3 + 10 }
        for id in ids { try store.append(id: id, location: location(id)) }
        try store.prepareForLookups()
        XCTAssertEqual(store.count, ids.count)
        XCTAssertEqual(store.diskBytes, ids.count * 16, "16 bytes a node, in the scratch file")
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let id = ids[Int(random.next() % UInt64(ids.count))]
            XCTAssertEqual(store.location(of: id), location(id))
            XCTAssertNil(store.location(of: id + 1))
        }
        XCTAssertEqual(store.location(of: ids[0]), location(ids[0]))
        XCTAssertEqual(store.location(of: ids[ids.count - 1]), location(ids[ids.count - 1]))
        XCTAssertNil(store.location(of: 0), "below the first id")
        XCTAssertNil(store.location(of: Int64.max), "beyond the last id")
        XCTAssertNil(store.location(of: -5))
    }

    func testUnsortedAppendsAreSortedAndLaterDuplicatesWin() throws {
        let store = try NodeLocationStore(directory: NSTemporaryDirectory())
        var random = SplitMix64(seed: 11)
        var expected: [Int64: OSMLocation] = [:]
        for step in 0..<5_000 {
            let id = Int64(random.next() % 3_000) - 100  // negative ids too, as in JOSM files
            let value = location(Int64(step))
            try store.append(id: id, location: value)
            expected[id] = value
        }
        try store.prepareForLookups()
        XCTAssertEqual(store.count, expected.count)
        for (id, value) in expected { XCTAssertEqual(store.location(of: id), value, "node \(id)") }
        XCTAssertNil(store.location(of: 5_000))
    }

    func testAnEmptyStoreFindsNothing() throws {
        let store = try NodeLocationStore(directory: NSTemporaryDirectory())
        try store.prepareForLookups()
        XCTAssertNil(store.location(of: 1))
    }

    func testAMissingDirectoryIsAnError() {
        XCTAssertThrowsError(try NodeLocationStore(directory: "/nonexistent/openmapkit")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/openmapkit"), "\(error)")
        }
    }
}
