import Foundation
@testable import OpenMapKit
import XCTest

/// A cluster annotation of the app's own, to check the map uses what the delegate supplies.
final class CountedClusterAnnotation: MKClusterAnnotation {}

/// A delegate that gives each annotation a marker whose clustering identifier and display
/// priority come from tables keyed by title, and records the clustering callbacks.
final class ClusteringDelegate: MKMapViewDelegate {
    /// Clustering identifiers by annotation title (absent: nil, the view never clusters).
    var identifiers: [String: String] = [:]
    /// Display priorities by annotation title (absent: the marker's default, defaultLow).
    var priorities: [String: Float] = [:]
    /// Whether `clusterAnnotationForMemberAnnotations` makes a ``CountedClusterAnnotation``.
    var suppliesClusters = false
    /// The member titles of each cluster the map asked for, sorted within each cluster.
    var clusterRequests: [[String]] = []
    var viewRequests: [String] = []
    /// Titles whose views are draggable.
    var draggable: Set<String> = []
    /// Every view, cluster and didAdd callback, in order.
    var log: [String] = []

    static func name(_ annotation: any MKAnnotation) -> String {
        if let cluster = annotation as? MKClusterAnnotation { return "cluster(\(cluster.memberAnnotations.count))" }
        return (annotation.title ?? nil) ?? "?"
    }

    func mapView(_ mapView: MKMapView, viewFor annotation: any MKAnnotation) -> MKAnnotationView? {
        viewRequests.append(Self.name(annotation))
        log.append("viewFor(\(Self.name(annotation)))")
        if annotation is MKClusterAnnotation { return nil }
        let view = mapView.dequeueReusableAnnotationView(withIdentifier: "pin", for: annotation)
        let title = Self.name(annotation)
        view.clusteringIdentifier = identifiers[title]
        if let priority = priorities[title] { view.displayPriority = MKFeatureDisplayPriority(priority) }
        view.isDraggable = draggable.contains(title)
        return view
    }

    func mapView(_ mapView: MKMapView, didAdd views: [MKAnnotationView]) {
        log.append("didAdd(\(views.map { $0.annotation.map(Self.name) ?? "nil" }.joined(separator: ",")))")
    }

    func mapView(_ mapView: MKMapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any MKAnnotation]) -> MKClusterAnnotation {
        clusterRequests.append(memberAnnotations.map(Self.name).sorted())
        log.append("clusterFor(\(memberAnnotations.map(Self.name).sorted().joined(separator: ",")))")
        guard suppliesClusters else { return MKClusterAnnotation(memberAnnotations: memberAnnotations) }
        let cluster = CountedClusterAnnotation(memberAnnotations: memberAnnotations)
        cluster.title = "\(memberAnnotations.count) places"
        return cluster
    }
}

/// Annotation clustering in MKMapView: grouping by screen distance within one clustering
/// identifier, display priority, zoom, the delegate's cluster annotations, removal, selection.
final class MapViewClusteringTests: XCTestCase {
    /// A 400 × 400 map centred on Monaco at a whole zoom level (so the clustering radius is
    /// exactly ``MKMapView/defaultClusteringRadius`` points on screen).
    private func makeMap(zoom: Double = 15) -> (MKMapView, ClusteringDelegate) {
        let map = MKMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), clock: MKManualMapViewClock())
        map.setCenter(MapViewFixtures.monaco, animated: false)
        map.setZoomLevel(zoom, animated: false)
        let delegate = ClusteringDelegate()
        map.delegate = delegate
        map.register(MKMarkerAnnotationView.self, forAnnotationViewWithReuseIdentifier: "pin")
        return (map, delegate)
    }

    /// An annotation `dx`, `dy` points from the centre of `map` as it is now.
    private func point(_ title: String, _ dx: Double, _ dy: Double, on map: MKMapView) -> MKPointAnnotation {
        let centre = MKMapPoint(map.centerCoordinate)
        let perPoint = exp2(19 - map.zoomLevel)
        let coordinate = MKMapPoint(x: centre.x + dx * perPoint, y: centre.y + dy * perPoint).coordinate
        return MKPointAnnotation(coordinate: coordinate, title: title, subtitle: nil)
    }

    private func titles(_ annotations: [any MKAnnotation]) -> [String] {
        annotations.map(ClusteringDelegate.name).sorted()
    }

    func testCloseAnnotationsFormOneClusterWithItsCountAndCentre() throws {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["A": "shop", "B": "shop", "C": "shop", "Far": "shop"]
        let a = point("A", 0, 0, on: map), b = point("B", 10, 4, on: map), c = point("C", -6, 9, on: map)
        let far = point("Far", 150, -120, on: map)
        map.addAnnotations([a, b, c, far])

        XCTAssertEqual(map.clusterAnnotations.count, 1)
        let cluster = try XCTUnwrap(map.clusterAnnotations.first)
        XCTAssertEqual(titles(cluster.memberAnnotations), ["A", "B", "C"])
        XCTAssertEqual(delegate.clusterRequests, [["A", "B", "C"]])
        // The centre is the members' mean on the map's plane.
        let points = [a, b, c].map { MKMapPoint($0.coordinate) }
        let mean = MKMapPoint(x: points.map(\.x).reduce(0, +) / 3, y: points.map(\.y).reduce(0, +) / 3)
        let centre = MKMapPoint(cluster.coordinate)
        XCTAssertEqual(centre.x, mean.x, accuracy: 1e-3)
        XCTAssertEqual(centre.y, mean.y, accuracy: 1e-3)

        // The cluster has a view of its own, MapKit's default cluster marker showing the count;
        // the members' views point at it and give way to it for taps.
        let clusterView = try XCTUnwrap(map.view(for: cluster) as? MKMarkerAnnotationView)
        XCTAssertEqual(clusterView.reuseIdentifier, MKMapViewDefaultClusterAnnotationViewReuseIdentifier)
        XCTAssertEqual(clusterView.glyphText, "3")
        for member in [a, b, c] {
            XCTAssertTrue(map.view(for: member)?.cluster === clusterView)
            XCTAssertTrue(map.cluster(containing: member) === cluster)
        }
        XCTAssertTrue(delegate.viewRequests.contains("cluster(3)"))
        let tip = map.convert(cluster.coordinate, toPointTo: nil)
        XCTAssertTrue(map.annotationView(at: CGPoint(x: tip.x, y: tip.y - 20)) === clusterView)

        // 190 points away, Far stands alone with its own view.
        XCTAssertNil(map.cluster(containing: far))
        XCTAssertNil(map.view(for: far)?.cluster)
        XCTAssertNotNil(map.view(for: far))
    }

    func testDisplayPriorityDecidesWhichAnnotationGathersTheOthers() {
        // A, B, C in a line 20 points apart: B reaches both (radius 28), A and C not each other.
        for (first, expected) in [("B", [["A", "B", "C"]]), ("A", [["A", "B"]]), ("C", [["B", "C"]])] {
            let (map, delegate) = makeMap()
            delegate.identifiers = ["A": "x", "B": "x", "C": "x"]
            delegate.priorities = [first: 900]
            map.addAnnotations([point("A", -20, 0, on: map), point("B", 0, 0, on: map), point("C", 20, 0, on: map)])
            XCTAssertEqual(map.clusterAnnotations.map { titles($0.memberAnnotations) }, expected, "\(first) first")
            let clustered = Set(map.clusterAnnotations.flatMap { titles($0.memberAnnotations) })
            for annotation in map.annotations where !clustered.contains(ClusteringDelegate.name(annotation)) {
                XCTAssertNil(map.cluster(containing: annotation), "\(ClusteringDelegate.name(annotation)) stands alone")
            }
        }
    }

    func testZoomingInSplitsClustersAndPanningKeepsThem() throws {
        let (map, delegate) = makeMap(zoom: 14)
        delegate.identifiers = ["A": "x", "B": "x", "C": "x"]
        let a = point("A", 0, 0, on: map), b = point("B", 12, 0, on: map), c = point("C", 0, 12, on: map)
        map.addAnnotations([a, b, c])
        let cluster = try XCTUnwrap(map.clusterAnnotations.first)
        XCTAssertEqual(cluster.memberAnnotations.count, 3)

        // A pan at the same zoom keeps the same cluster: no new request, the same object.
        map.setCenter(point("Pan", 30, 30, on: map).coordinate, animated: false)
        XCTAssertTrue(map.clusterAnnotations.first === cluster)
        XCTAssertEqual(delegate.clusterRequests.count, 1)

        // Three levels in, they are 96 points apart: each stands alone.
        map.setZoomLevel(17, animated: false)
        XCTAssertTrue(map.clusterAnnotations.isEmpty)
        XCTAssertNil(map.view(for: cluster), "the cluster's view left")
        for member in [a, b, c] {
            XCTAssertNil(map.cluster(containing: member))
            let view = try XCTUnwrap(map.view(for: member))
            XCTAssertNil(view.cluster)
            let tip = map.convert(member.coordinate, toPointTo: nil)
            XCTAssertTrue(map.annotationView(at: CGPoint(x: tip.x, y: tip.y - 20)) === view, "a member's own view takes taps again")
        }

        // Back out: they cluster again.
        map.setZoomLevel(14, animated: false)
        XCTAssertEqual(map.clusterAnnotations.map { titles($0.memberAnnotations) }, [["A", "B", "C"]])
    }

    func testDifferentIdentifiersNeverMixAndNilNeverClusters() {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["Red1": "red", "Red2": "red", "Blue1": "blue", "Blue2": "blue"]
        // Same place for each pair, all within a few points; Plain1 and Plain2 have no identifier.
        map.addAnnotations([point("Red1", 0, 0, on: map), point("Blue1", 0, 0, on: map), point("Red2", 3, 0, on: map),
                            point("Blue2", 3, 0, on: map), point("Plain1", 1, 1, on: map), point("Plain2", 1, 1, on: map)])
        let groups = map.clusterAnnotations.map { titles($0.memberAnnotations) }.sorted { $0[0] < $1[0] }
        XCTAssertEqual(groups, [["Blue1", "Blue2"], ["Red1", "Red2"]])
        for annotation in map.annotations where ClusteringDelegate.name(annotation).hasPrefix("Plain") {
            XCTAssertNil(map.cluster(containing: annotation))
            XCTAssertNotNil(map.view(for: annotation))
            XCTAssertNil(map.view(for: annotation)?.cluster)
        }
    }

    func testTheDelegatesClusterAnnotationIsUsedAndCanBeSelected() throws {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["A": "x", "B": "x"]
        delegate.suppliesClusters = true
        let a = point("A", 0, 0, on: map), b = point("B", 8, 8, on: map)
        map.addAnnotations([a, b])
        let cluster = try XCTUnwrap(map.clusterAnnotations.first as? CountedClusterAnnotation)
        XCTAssertEqual(cluster.title, "2 places")
        XCTAssertEqual(titles(cluster.memberAnnotations), ["A", "B"])

        // A clustered member cannot be selected; the cluster can, by code or by a tap.
        map.selectAnnotation(a, animated: false)
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        let tip = map.convert(cluster.coordinate, toPointTo: nil)
        map.tap(at: CGPoint(x: tip.x, y: tip.y - 20))
        XCTAssertTrue(map.selectedAnnotations.first === cluster)
        XCTAssertTrue(map.view(for: cluster)?.isSelected ?? false)

        // Zooming in dissolves the selected cluster: it is deselected.
        map.setZoomLevel(19, animated: false)
        XCTAssertTrue(map.selectedAnnotations.isEmpty)
        XCTAssertTrue(map.clusterAnnotations.isEmpty)
    }

    func testRemovingMembersUpdatesTheirCluster() throws {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["A": "x", "B": "x", "C": "x"]
        let a = point("A", 0, 0, on: map), b = point("B", 6, 0, on: map), c = point("C", 0, 6, on: map)
        map.addAnnotations([a, b, c])
        XCTAssertEqual(map.clusterAnnotations.map { titles($0.memberAnnotations) }, [["A", "B", "C"]])

        map.removeAnnotation(b)
        XCTAssertEqual(map.clusterAnnotations.map { titles($0.memberAnnotations) }, [["A", "C"]])
        XCTAssertNil(map.cluster(containing: b))

        map.removeAnnotation(c)
        XCTAssertTrue(map.clusterAnnotations.isEmpty)
        let view = try XCTUnwrap(map.view(for: a))
        XCTAssertNil(view.cluster)
        XCTAssertNil(map.cluster(containing: a))
        let tip = map.convert(a.coordinate, toPointTo: nil)
        XCTAssertTrue(map.annotationView(at: CGPoint(x: tip.x, y: tip.y - 20)) === view)
    }

    func testAnnotationsListsOnlyWhatTheAppAdded() throws {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["A": "x", "B": "x", "C": "x"]
        let added = [point("A", 0, 0, on: map), point("B", 5, 5, on: map), point("C", 200, 0, on: map)]
        map.addAnnotations(added)
        XCTAssertEqual(map.clusterAnnotations.count, 1)
        XCTAssertEqual(map.annotations.count, 3)
        XCTAssertFalse(map.annotations.contains { $0 is MKClusterAnnotation })
        XCTAssertEqual(titles(map.annotationList(in: .world)), ["A", "B", "C"])
        for (annotation, original) in zip(map.annotations, added) { XCTAssertTrue(annotation === original) }
    }

    func testAnIdentifierSetAfterTheViewIsShownTakesEffect() {
        // The identifier may be set on the view later (in didAdd, say): the next pass sees it.
        let (map, _) = makeMap()
        let a = point("A", 0, 0, on: map), b = point("B", 4, 4, on: map)
        map.addAnnotations([a, b])
        XCTAssertTrue(map.clusterAnnotations.isEmpty)
        map.view(for: a)?.clusteringIdentifier = "late"
        map.view(for: b)?.clusteringIdentifier = "late"
        map.setZoomLevel(15.5, animated: false)
        XCTAssertEqual(map.clusterAnnotations.map { titles($0.memberAnnotations) }, [["A", "B"]])
    }

    func testDrawingShowsTheClusterMarkerInsteadOfItsMembers() throws {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["A": "x", "B": "x", "C": "x"]
        let far = point("Far", 150, 100, on: map)
        map.addAnnotations([point("A", 0, 0, on: map), point("B", 5, 5, on: map), point("C", -5, 5, on: map), far])
        let cluster = try XCTUnwrap(map.clusterAnnotations.first)
        let markers = map.snapshotOptions().markers
        XCTAssertEqual(markers.count, 2, "Far and the cluster; A, B and C are drawn as the cluster")
        XCTAssertTrue(markers.contains { $0.annotation === far })
        let clusterMarker = try XCTUnwrap(markers.first { $0.annotation === cluster })
        guard case .text(let text) = clusterMarker.glyph else { return XCTFail("the cluster marker shows its count") }
        XCTAssertEqual(text, "3")
    }

    func testDroppingAnAnnotationNextToAnotherClustersThem() {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["A": "x", "B": "x"]
        delegate.draggable = ["A"]
        let a = point("A", -100, 0, on: map), b = point("B", 0, 0, on: map)
        map.addAnnotations([a, b])
        XCTAssertTrue(map.clusterAnnotations.isEmpty)
        let start = map.convert(a.coordinate, toPointTo: nil)
        XCTAssertTrue(map.beginDrag(at: CGPoint(x: start.x, y: start.y - 20)))
        map.drag(to: CGPoint(x: start.x + 95, y: start.y - 20))
        XCTAssertTrue(map.clusterAnnotations.isEmpty, "not while it is dragged")
        map.endDrag()
        XCTAssertEqual(map.clusterAnnotations.map { titles($0.memberAnnotations) }, [["A", "B"]])
    }

    func testClusterGlyphTextFitsThreeCharacters() {
        XCTAssertEqual(MKMapView.clusterGlyphText(count: 2), "2")
        XCTAssertEqual(MKMapView.clusterGlyphText(count: 999), "999")
        XCTAssertEqual(MKMapView.clusterGlyphText(count: 1500), "1k")
        XCTAssertEqual(MKMapView.clusterGlyphText(count: 99_999), "99k")
        XCTAssertEqual(MKMapView.clusterGlyphText(count: 250_000), "k+")
    }

    func testClusterCallbacksComeInOnePassAfterTheMembersViews() {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["A": "x", "B": "x"]
        map.addAnnotations([point("A", 0, 0, on: map), point("B", 6, 0, on: map)])
        XCTAssertEqual(delegate.log, ["viewFor(A)", "viewFor(B)", "clusterFor(A,B)", "viewFor(cluster(2))", "didAdd(A,B,cluster(2))"])
        // At the same zoom a pan that keeps the cluster on screen asks nothing again.
        delegate.log = []
        map.setCenter(point("Pan", 20, 0, on: map).coordinate, animated: false)
        XCTAssertEqual(delegate.log, [])
    }

    func testAMemberMovedToAnInvalidCoordinateLeavesItsCluster() {
        let (map, delegate) = makeMap()
        delegate.identifiers = ["A": "x", "B": "x", "C": "x"]
        let a = point("A", 0, 0, on: map), b = point("B", 5, 0, on: map), c = point("C", 0, 5, on: map)
        map.addAnnotations([a, b, c])
        XCTAssertEqual(map.clusterAnnotations.map { titles($0.memberAnnotations) }, [["A", "B", "C"]])
        c.coordinate = CLLocationCoordinate2D(latitude: .nan, longitude: 7.42)
        map.setZoomLevel(15.2, animated: false)
        XCTAssertEqual(map.clusterAnnotations.map { titles($0.memberAnnotations) }, [["A", "B"]])
        XCTAssertNil(map.cluster(containing: c))
        // Another pass at the same whole zoom keeps the cluster and asks the delegate nothing.
        let cluster = map.clusterAnnotations.first
        map.setZoomLevel(15.4, animated: false)
        XCTAssertTrue(map.clusterAnnotations.first === cluster)
        XCTAssertEqual(delegate.clusterRequests.count, 2)
    }
}
