import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// Decluttering: annotation views that collide on screen with views of higher display priority
/// are hidden (left out of the frame and of hit-testing), by their collision shapes, recomputed
/// as the camera and the views change.
final class MapViewDeclutterTests: XCTestCase {
    /// A map with annotations at the given screen points (in the fixture's 400 × 400 frame), titled
    /// by their index.
    private func map(at points: [CGPoint]) -> (MKMapView, [MKPointAnnotation]) {
        let (map, _, _) = MapViewFixtures.map()
        map.delegate = nil
        let annotations = points.enumerated().map { index, point in
            MKPointAnnotation(coordinate: map.convert(point, toCoordinateFrom: map), title: "\(index)", subtitle: nil)
        }
        map.addAnnotations(annotations)
        return (map, annotations)
    }

    private func shown(_ map: MKMapView, _ annotations: [MKPointAnnotation]) -> [Bool] {
        annotations.map { !map.isDecluttered(map.view(for: $0)!) }
    }

    func testOverlappingMarkersOfEqualPriorityShowTheOneAddedFirst() {
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 210, y: 205), CGPoint(x: 300, y: 300)])
        XCTAssertEqual(map.view(for: annotations[0])!.displayPriority, .defaultLow)
        XCTAssertEqual(shown(map, annotations), [true, false, true])
        // Left out of the frame too: two markers drawn, not three.
        XCTAssertEqual(map.snapshotOptions().markers.compactMap { $0.annotation?.title ?? nil }, ["0", "2"])
        // Apart, both show.
        annotations[1].coordinate = map.convert(CGPoint(x: 260, y: 200), toCoordinateFrom: map)
        XCTAssertEqual(shown(map, annotations), [true, true, true])
    }

    func testRequiredBeatsDefaultLowAndHigherPriorityWins() {
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 205, y: 200)])
        map.view(for: annotations[1])!.displayPriority = .required
        XCTAssertEqual(shown(map, annotations), [false, true], "the required view is placed first")
        map.view(for: annotations[1])!.displayPriority = .defaultLow
        map.view(for: annotations[0])!.displayPriority = MKFeatureDisplayPriority(100)
        XCTAssertEqual(shown(map, annotations), [false, true], "priority 100 gives way to defaultLow (250)")
        // Two required views both show, even overlapping.
        map.view(for: annotations[0])!.displayPriority = .required
        map.view(for: annotations[1])!.displayPriority = .required
        XCTAssertEqual(shown(map, annotations), [true, true])
    }

    func testCollisionModeNoneNeverCollides() {
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 202, y: 201), CGPoint(x: 204, y: 202)])
        map.view(for: annotations[0])!.collisionMode = .none
        // The first takes no part, so the second is placed and hides the third.
        XCTAssertEqual(shown(map, annotations), [true, true, false])
        map.view(for: annotations[0])!.displayPriority = MKFeatureDisplayPriority(1)
        map.view(for: annotations[1])!.collisionMode = .none
        XCTAssertEqual(shown(map, annotations), [true, true, true], "a .none view is never hidden and hides nothing")
    }

    func testCirclesOfDiagonalNeighboursDoNotCollideWhereTheirFramesDo() {
        // Centres 30 pt apart on both axes: 40 × 40 frames overlap, the inscribed circles
        // (radius 20, centres 42.4 pt apart) do not.
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 230, y: 230)])
        for annotation in annotations {
            let view = map.view(for: annotation)!
            view.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            view.centerOffset = .zero
            view.collisionMode = .rectangle
        }
        XCTAssertEqual(shown(map, annotations), [true, false])
        map.view(for: annotations[0])!.collisionMode = .circle
        XCTAssertEqual(shown(map, annotations), [true, false], "a circle reaches into the square's corner")
        map.view(for: annotations[1])!.collisionMode = .circle
        XCTAssertEqual(shown(map, annotations), [true, true])
        // Side by side 30 pt apart, circles overlap.
        annotations[1].coordinate = map.convert(CGPoint(x: 230, y: 200), toCoordinateFrom: map)
        XCTAssertEqual(shown(map, annotations), [true, false])
    }

    func testZoomingOutHidesAndZoomingInShowsAgain() {
        let (map, annotations) = map(at: [CGPoint(x: 180, y: 200), CGPoint(x: 240, y: 200)])
        XCTAssertEqual(shown(map, annotations), [true, true])
        let zoom = map.zoomLevel
        map.setZoomLevel(zoom - 2, animated: false)  // 15 pt apart: the balloons overlap
        XCTAssertEqual(shown(map, annotations), [true, false])
        XCTAssertEqual(map.snapshotOptions().markers.count, 1)
        map.setZoomLevel(zoom, animated: false)
        XCTAssertEqual(shown(map, annotations), [true, true])
        XCTAssertEqual(map.snapshotOptions().markers.count, 2)
    }

    func testTheSelectedAnnotationAlwaysShows() {
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 205, y: 200)])
        XCTAssertEqual(shown(map, annotations), [true, false])
        map.selectAnnotation(annotations[1], animated: false)
        XCTAssertEqual(shown(map, annotations), [false, true], "the selected view is placed first")
        map.deselectAnnotation(annotations[1], animated: false)
        XCTAssertEqual(shown(map, annotations), [true, false])
    }

    func testTapSelectsOnlyShownViews() {
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 212, y: 200)])
        // The hidden one would be in front, were it shown.
        map.view(for: annotations[1])!.zPriority = .max
        XCTAssertEqual(shown(map, annotations), [true, false])
        XCTAssertTrue(map.annotationView(at: CGPoint(x: 206, y: 175))?.annotation === annotations[0])
        map.tap(at: CGPoint(x: 206, y: 175))
        XCTAssertTrue(map.selectedAnnotations.first === annotations[0])
        // Where only the hidden view is, a tap finds nothing and deselects.
        XCTAssertNil(map.annotationView(at: CGPoint(x: 224, y: 175)))
        map.tap(at: CGPoint(x: 224, y: 175))
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        // Once shown (required), it takes the tap where it is in front.
        map.view(for: annotations[1])!.displayPriority = .required
        map.tap(at: CGPoint(x: 206, y: 175))
        XCTAssertTrue(map.selectedAnnotations.first === annotations[1])
    }

    func testClustersTakePartWithTheirOwnViewsPriority() throws {
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 201, y: 200), CGPoint(x: 206, y: 200)])
        map.view(for: annotations[0])!.clusteringIdentifier = "c"
        map.view(for: annotations[1])!.clusteringIdentifier = "c"
        map.setCenter(map.convert(CGPoint(x: 201, y: 200), toCoordinateFrom: map), animated: false)  // a pass reads the identifiers
        let cluster = try XCTUnwrap(map.cluster(containing: annotations[0]))
        let clusterView = try XCTUnwrap(map.view(for: cluster))
        XCTAssertEqual(clusterView.displayPriority, .defaultLow)
        XCTAssertTrue(map.declutteredAnnotations().contains(ObjectIdentifier(annotations[2])),
                      "at equal priority the cluster, standing for two, is placed first")
        XCTAssertFalse(map.isDecluttered(clusterView))
        map.view(for: annotations[2])!.displayPriority = .defaultHigh
        XCTAssertTrue(map.isDecluttered(clusterView))
        XCTAssertFalse(map.declutteredAnnotations().contains(ObjectIdentifier(annotations[2])))
        XCTAssertFalse(map.snapshotOptions().markers.contains { $0.annotation === cluster })
    }

    func testHiddenAndEmptyViewsTakeNoPart() {
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 205, y: 200)])
        map.view(for: annotations[0])!.isHidden = true
        XCTAssertTrue(map.declutteredAnnotations().isEmpty, "a hidden view hides nothing")
        map.view(for: annotations[0])!.isHidden = false
        map.view(for: annotations[0])!.frame = .zero
        XCTAssertTrue(map.declutteredAnnotations().isEmpty, "a view with an empty frame hides nothing")
    }

    func testCollisionShapesOverlap() {
        func shape(_ kind: CollisionShape.Kind, _ x: Double, _ y: Double, _ w: Double = 10, _ h: Double = 10) -> CollisionShape {
            CollisionShape(kind: kind, rect: CGRect(x: x, y: y, width: w, height: h))
        }
        XCTAssertFalse(shape(.rectangle, 0, 0).overlaps(shape(.rectangle, 10, 0)), "touching edges do not overlap")
        XCTAssertTrue(shape(.rectangle, 0, 0).overlaps(shape(.rectangle, 9.9, 9.9)))
        XCTAssertFalse(shape(.circle, 0, 0).overlaps(shape(.circle, 8, 8)), "diagonal circles 11.3 apart, radii 5")
        XCTAssertTrue(shape(.circle, 0, 0).overlaps(shape(.circle, 7, 0)))
        XCTAssertFalse(shape(.circle, 0, 0).overlaps(shape(.rectangle, 9, 9)), "the square's corner is outside the circle")
        XCTAssertTrue(shape(.rectangle, 9, 9).overlaps(shape(.circle, 0, 0, 20, 20)) == shape(.circle, 0, 0, 20, 20).overlaps(shape(.rectangle, 9, 9)))
        // A wide frame's circle is the inscribed one: radius half the shorter side, at the centre.
        XCTAssertFalse(shape(.circle, 0, 0, 40, 10).overlaps(shape(.rectangle, 0, 0, 10, 10)))
        XCTAssertTrue(shape(.circle, 0, 0, 40, 10).overlaps(shape(.rectangle, 16, 0, 10, 10)))
    }

    func testRenderLeavesHiddenViewsOut() throws {
        let (map, annotations) = map(at: [CGPoint(x: 200, y: 200), CGPoint(x: 215, y: 200)])
        map.dataSource = try MonacoBundle.dataSource()
        (map.view(for: annotations[0]) as! MKMarkerAnnotationView).markerTintColor = .systemGreen
        (map.view(for: annotations[1]) as! MKMarkerAnnotationView).markerTintColor = .systemBlue
        // Right of the second balloon's head centre, outside the first balloon's head.
        let probe = CGPoint(x: 219, y: 200 - AnnotationDrawing.tipToCenter)
        let hidden = try map.render()
        XCTAssertFalse(isColor(hidden.color(at: probe), near: .systemBlue, tolerance: 0.15), "the hidden balloon is not drawn")
        assertColor(hidden.color(at: CGPoint(x: 200, y: 200 - AnnotationDrawing.tipToCenter - 8)), near: .systemGreen, tolerance: 0.15)
        map.view(for: annotations[1])!.displayPriority = .required
        let shown = try map.render()
        MonacoBundle.save(shown, "mapview-declutter-required")
        assertColor(shown.color(at: probe), near: .systemBlue, tolerance: 0.15)
    }
}
