import Foundation
@testable import MapRender
import XCTest

/// The collision grid and the choice of label anchors along lines.
final class CollisionIndexTests: XCTestCase {
    func testBoxesCollideOnlyWhenTheyOverlap() {
        var index = CollisionIndex(width: 400, height: 300, cellSize: 32)
        let a = CollisionBox(minX: 10, minY: 10, maxX: 110, maxY: 30)
        XCTAssertFalse(index.collides(a))
        index.insert(a)
        XCTAssertTrue(index.collides(CollisionBox(minX: 100, minY: 25, maxX: 200, maxY: 45)))
        // Touching edges do not overlap; a box across many cells is still found.
        XCTAssertFalse(index.collides(CollisionBox(minX: 110, minY: 10, maxX: 150, maxY: 30)))
        XCTAssertTrue(index.collides(CollisionBox(minX: 0, minY: 0, maxX: 400, maxY: 300)))
        // Padding makes near boxes collide.
        let near = CollisionBox(minX: 112, minY: 10, maxX: 150, maxY: 30)
        XCTAssertFalse(index.collides(near))
        XCTAssertTrue(index.collides(near.padded(2.5)))
        XCTAssertTrue(index.collides(CollisionBox(minX: .nan, minY: 0, maxX: 1, maxY: 1)), "a NaN box is never free")
    }

    func testOnlyBoxesInsideTheImageAndMarginArePlaceable() {
        let plain = CollisionIndex(width: 200, height: 100)
        XCTAssertTrue(plain.contains(CollisionBox(minX: 0, minY: 0, maxX: 200, maxY: 100)))
        XCTAssertFalse(plain.contains(CollisionBox(minX: -5, minY: 10, maxX: 50, maxY: 20)))
        let margin = CollisionIndex(width: 200, height: 100, margin: 20)
        XCTAssertTrue(margin.contains(CollisionBox(minX: -5, minY: 10, maxX: 50, maxY: 20)))
        XCTAssertFalse(margin.contains(CollisionBox(minX: -25, minY: 10, maxX: 50, maxY: 20)))
        // Boxes far outside the grid neither crash nor collide.
        var index = margin
        index.insert(CollisionBox(minX: 5000, minY: 5000, maxX: 5100, maxY: 5100))
        XCTAssertFalse(index.collides(CollisionBox(minX: 10, minY: 10, maxX: 20, maxY: 20)))
    }

    // MARK: Anchors along lines

    func testAnchorsStartHalfALabelInAndRepeatEverySpacing() {
        let line: [ScreenPoint] = [(0, 100), (1000, 100)]
        let anchors = LineLabelPlacement.anchors(line, spacing: 250, labelLength: 100, size: 16, maxAngle: .pi / 4, continued: false)
        // First at half the label plus two ems (50 + 32), then every 250.
        XCTAssertEqual(anchors.map(\.x), [82, 332, 582, 832])
        XCTAssertTrue(anchors.allSatisfy { $0.y == 100 && $0.segment == 0 })
        // A line continued from a neighbouring tile starts half a spacing in.
        let continued = LineLabelPlacement.anchors(line, spacing: 250, labelLength: 100, size: 16, maxAngle: .pi / 4, continued: true)
        XCTAssertEqual(continued.map(\.x), [125, 375, 625, 875])
        // Too short for the label: nothing.
        XCTAssertEqual(LineLabelPlacement.anchors([(0, 0), (60, 0)], spacing: 250, labelLength: 100, size: 16,
                                                  maxAngle: .pi / 4, continued: false).count, 0)
        // Long enough for one label but not the first offset: one at the middle.
        let middle = LineLabelPlacement.anchors([(0, 0), (150, 0)], spacing: 250, labelLength: 100, size: 30,
                                                maxAngle: .pi / 4, continued: false)
        XCTAssertEqual(middle.map(\.x), [75])
    }

    func testSharpBendsUnderALabelRejectTheAnchor() {
        // A right angle in the middle of a 200-point line.
        let bent: [ScreenPoint] = [(0, 0), (100, 0), (100, 100)]
        let at = LineAnchor(x: 100, y: 0, segment: 0)
        XCTAssertFalse(LineLabelPlacement.fitsAngle(bent, at, labelLength: 80, window: 10, maxAngle: .pi / 4))
        XCTAssertTrue(LineLabelPlacement.fitsAngle(bent, at, labelLength: 80, window: 10, maxAngle: .pi * 0.6))
        // Away from the bend the label fits.
        XCTAssertTrue(LineLabelPlacement.fitsAngle(bent, LineAnchor(x: 40, y: 0, segment: 0), labelLength: 60, window: 10,
                                                   maxAngle: .pi / 4))
        XCTAssertNil(LineLabelPlacement.centerAnchor(bent, labelLength: 80, size: 16, maxAngle: .pi / 4))
    }

    func testWalkingAlongALineFollowsItsSegments() throws {
        let line: [ScreenPoint] = [(0, 0), (10, 0), (10, 10)]
        let anchor = LineAnchor(x: 5, y: 0, segment: 0)
        let forward = try XCTUnwrap(LineLabelPlacement.walk(line, from: anchor, by: 8))
        XCTAssertEqual(forward.point.x, 10, accuracy: 1e-9)
        XCTAssertEqual(forward.point.y, 3, accuracy: 1e-9)
        XCTAssertEqual(forward.angle, .pi / 2, accuracy: 1e-9)
        let back = try XCTUnwrap(LineLabelPlacement.walk(line, from: anchor, by: -4))
        XCTAssertEqual(back.point.x, 1, accuracy: 1e-9)
        XCTAssertEqual(back.angle, 0, accuracy: 1e-9)
        XCTAssertNil(LineLabelPlacement.walk(line, from: anchor, by: 20))
        XCTAssertNil(LineLabelPlacement.walk(line, from: anchor, by: -6))
    }
}
