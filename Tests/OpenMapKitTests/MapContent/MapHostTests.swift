import Foundation
import MapRender
@testable import OpenMapKit
import XCTest

/// `Map { }` content made live by a `MapHost` (issue 23): bindings written back, selection by
/// tag and by map item, camera callbacks, `onChange`, controls, `MapReader`, user location,
/// interaction modes and bounds, all over a real MKMapView drawing the Monaco sample.
final class MapHostTests: XCTestCase {
    static let size = CGSize(width: 400, height: 300)

    /// A planner-like scene: state, a map made from it, and its host on a manual clock.
    /// Written as a SwiftUI view is: a struct whose state lives in `@State` boxes.
    struct Planner {
        @State var position: MapCameraPosition = .automatic
        @State var selection: Int?
        @State var places: [CLLocationCoordinate2D] = [.casino, .palace]
        @State var cameraEnds: [MapCameraUpdateContext] = []
        @State var cameraSteps = 0
        @State var placesChanged = 0
        @State var taps: [CGPoint] = []

        var body: Map {
            Map(position: $position, selection: $selection) {
                ForEach(places.indices, id: \.self) { index in
                    Marker("Place \(index)", coordinate: places[index]).tag(index)
                }
                Marker("Untagged", coordinate: .museum)
            }
            .onMapCameraChange { context in cameraEnds.append(context) }
            .onMapCameraChange(frequency: .continuous) { cameraSteps += 1 }
            .onChange(of: places.count) { placesChanged += 1 }
            .onTapGesture { point in taps.append(point) }
        }
    }

    func makeHost(_ planner: Planner) throws -> (MapHost, MKManualMapViewClock) {
        let clock = MKManualMapViewClock()
        let host = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: clock, dataSource: try MonacoBundle.dataSource()) { planner.body }
        return (host, clock)
    }

    /// Where a marker's balloon head is drawn (its tip is on the coordinate).
    static func balloonHead(_ host: MapHost, _ coordinate: CLLocationCoordinate2D) -> CGPoint {
        let tip = host.mapView.convert(coordinate, toPointTo: nil)
        return CGPoint(x: tip.x, y: tip.y - AnnotationDrawing.tipToCenter)
    }

    func testAutomaticFramesTheContentAndFollowsItsChanges() throws {
        let planner = Planner()
        let (host, _) = try makeHost(planner)
        let rect = host.mapView.visibleMapRect
        for place in planner.places + [.museum] { XCTAssertTrue(rect.contains(MKMapPoint(place)), "\(place) is framed") }
        // New content while the position stays automatic is framed again; onChange sees the change.
        let far = CLLocationCoordinate2D(latitude: 43.7500, longitude: 7.4400)
        planner.places.append(far)
        XCTAssertTrue(host.update())
        XCTAssertTrue(host.mapView.visibleMapRect.contains(MKMapPoint(far)))
        XCTAssertEqual(planner.placesChanged, 1)
        XCTAssertFalse(host.update(), "nothing changed since")
        XCTAssertEqual(planner.placesChanged, 1)
        // Code sets a region: applied, and not written back as the person's.
        let region = MKCoordinateRegion(center: .parking, latitudinalMeters: 600, longitudinalMeters: 600)
        planner.position = .region(region)
        host.update()
        XCTAssertEqual(host.mapView.centerCoordinate.latitude, region.center.latitude, accuracy: 1e-5)
        XCTAssertEqual(host.mapView.region.span.latitudeDelta, region.span.latitudeDelta, accuracy: region.span.latitudeDelta * 0.35)
        XCTAssertFalse(planner.position.positionedByUser)
        XCTAssertEqual(planner.position.region?.center.latitude, region.center.latitude)
    }

    func testAPanWritesThePositionBackAsTheUsersAndReportsTheCamera() throws {
        let planner = Planner()
        let (host, _) = try makeHost(planner)
        let before = host.mapView.centerCoordinate
        let steps = planner.cameraSteps, ends = planner.cameraEnds.count
        XCTAssertGreaterThan(ends, 0, "framing the content was a camera change too")
        host.mapView.beginGesture()
        host.mapView.pan(by: CGPoint(x: 60, y: 0))
        host.mapView.pan(by: CGPoint(x: 40, y: 0))
        XCTAssertGreaterThanOrEqual(planner.cameraSteps - steps, 2, "continuous updates follow the drag")
        XCTAssertEqual(planner.cameraEnds.count, ends, "onEnd waits for the gesture to end")
        host.mapView.endGesture()
        XCTAssertEqual(planner.cameraEnds.count, ends + 1)
        let context = try XCTUnwrap(planner.cameraEnds.last)
        XCTAssertLessThan(context.camera.centerCoordinate.longitude, before.longitude, "dragging right shows the west")
        XCTAssertEqual(context.region.center.longitude, host.mapView.centerCoordinate.longitude, accuracy: 1e-9)
        XCTAssertTrue(context.rect.contains(MKMapPoint(host.mapView.centerCoordinate)))
        XCTAssertTrue(planner.position.positionedByUser)
        XCTAssertNil(planner.position.region)
        XCTAssertFalse(planner.position.followsUserLocation)
        // The next update keeps the person's view, even though new content arrives.
        let center = host.mapView.centerCoordinate
        planner.places.append(CLLocationCoordinate2D(latitude: 43.7500, longitude: 7.4400))
        host.update()
        XCTAssertEqual(host.mapView.centerCoordinate.longitude, center.longitude, accuracy: 1e-9)
        // Setting .automatic again frames the content (the talk's onChange(of: searchResults)).
        planner.position = .automatic
        host.update()
        XCTAssertFalse(planner.position.positionedByUser)
        XCTAssertTrue(host.mapView.visibleMapRect.contains(MKMapPoint(CLLocationCoordinate2D(latitude: 43.7500, longitude: 7.4400))))
    }

    func testTappingATaggedMarkerSelectsItsTagAndGrowsItsBalloon() throws {
        let planner = Planner()
        let (host, _) = try makeHost(planner)
        let unselected = try host.render()
        let head = Self.balloonHead(host, planner.places[1])
        host.tap(at: head)
        XCTAssertEqual(planner.selection, 1)
        XCTAssertTrue(planner.taps.isEmpty, "a tap that selects is not the map's tap")
        // New content (a route, more results) keeps the selection and the selected view.
        let view = try XCTUnwrap(host.mapView.selectedAnnotations.first as? MapContentAnnotation)
        planner.places.append(CLLocationCoordinate2D(latitude: 43.7420, longitude: 7.4300))
        host.update()
        XCTAssertEqual(planner.selection, 1)
        XCTAssertTrue(host.mapView.selectedAnnotations.first === view, "the unchanged marker was kept, not made again")
        planner.places.removeLast()
        host.update()
        let selected = try host.render()
        // The selected balloon is half as large again: its head reaches where the plain one's did
        // not (beside its glyph, 1.5 × 25 points above the tip).
        let tip = host.mapView.convert(planner.places[1], toPointTo: nil)
        let above = CGPoint(x: tip.x + 17, y: tip.y - AnnotationDrawing.tipToCenter * AnnotationDrawing.selectedScale)
        XCTAssertFalse(isColor(unselected.color(at: above), near: UIColor.systemRed, tolerance: 0.12))
        assertColor(selected.color(at: above), near: UIColor.systemRed, tolerance: 0.12)
        // An untagged marker cannot be selected: the tap is the map's, and clears the selection.
        let untagged = Self.balloonHead(host, .museum)
        host.tap(at: untagged)
        XCTAssertNil(planner.selection)
        XCTAssertEqual(planner.taps.count, 1)
        XCTAssertEqual(planner.taps.first?.x ?? 0, untagged.x, accuracy: 1e-9)
        // Code selects: the map view's selection follows.
        planner.selection = 0
        host.update()
        let selectedAnnotation = try XCTUnwrap(host.mapView.selectedAnnotations.first as? MapContentAnnotation)
        XCTAssertEqual(selectedAnnotation.tag, AnyHashable(0))
        planner.selection = nil
        host.update()
        XCTAssertTrue(host.mapView.selectedAnnotations.isEmpty)
    }

    func testMapItemMarkersAreSelectedByTheirItem() throws {
        let items = [CLLocationCoordinate2D.casino, .palace].enumerated().map { index, coordinate in
            let item = MKMapItem(placemark: MKPlacemark(coordinate: coordinate))
            item.name = "Item \(index)"
            return item
        }
        let selected = State<MKMapItem?>(wrappedValue: nil)
        let tagged = State<String?>(wrappedValue: nil)
        let host = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                           dataSource: try MonacoBundle.dataSource()) {
            Map(selection: selected.projectedValue) {
                ForEach(items, id: \.self) { item in Marker(item: item) }
            }
        }
        host.tap(at: Self.balloonHead(host, items[1].placemark.coordinate))
        XCTAssertTrue(selected.wrappedValue === items[1])
        // A String selection cannot take an MKMapItem: nothing is selected.
        let other = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                            dataSource: try MonacoBundle.dataSource()) {
            Map(selection: tagged.projectedValue) { ForEach(items, id: \.self) { item in Marker(item: item) } }
        }
        other.tap(at: Self.balloonHead(other, items[0].placemark.coordinate))
        XCTAssertNil(tagged.wrappedValue)
    }

    func testControlsAreTheMapViewsOwn() throws {
        let host = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                           dataSource: try MonacoBundle.dataSource()) {
            Map(initialPosition: .region(MKCoordinateRegion(center: .parking, latitudinalMeters: 800, longitudinalMeters: 800)))
                .mapControls {
                    MapCompass().mapControlVisibility(.visible)
                    MapScaleView()
                    MapPitchToggle()
                }
        }
        XCTAssertTrue(host.mapView.showsScale)
        XCTAssertTrue(host.mapView.showsPitchControl)
        XCTAssertFalse(host.mapView.showsUserTrackingButton)
        XCTAssertFalse(host.mapView.showsZoomControls)
        XCTAssertNotNil(host.mapView.compassFrame, "a visible compass shows on a map facing north")
        _ = try host.render()
        // Without mapControls: MapKit's default, the compass only while the map is turned.
        let plain = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                            dataSource: try MonacoBundle.dataSource()) { Map() }
        XCTAssertFalse(plain.mapView.showsScale)
        XCTAssertNil(plain.mapView.compassFrame)
        plain.mapView.beginGesture()
        plain.mapView.rotate(by: 30, around: CGPoint(x: 200, y: 150))
        plain.mapView.endGesture()
        XCTAssertNotNil(plain.mapView.compassFrame)
    }

    func testReaderUserLocationInteractionModesAndBounds() throws {
        // MapReader's proxy converts both ways.
        var proxy: MapProxy?
        let host = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                           dataSource: try MonacoBundle.dataSource(), MapReader { reader in
            Map(initialPosition: .region(MKCoordinateRegion(center: .parking, latitudinalMeters: 800, longitudinalMeters: 800)),
                interactionModes: [.zoom]) {
                Marker("Parking", coordinate: .parking)
            }
            .onTapGesture { point in _ = reader.convert(point) }
        })
        proxy = host.proxy
        let point = try XCTUnwrap(proxy?.convert(CLLocationCoordinate2D.parking))
        XCTAssertEqual(point.x, 200, accuracy: 0.5)
        let back = try XCTUnwrap(proxy?.convert(point))
        XCTAssertEqual(back.latitude, CLLocationCoordinate2D.parking.latitude, accuracy: 1e-7)
        // Only zooming is allowed: a drag moves nothing.
        let center = host.mapView.centerCoordinate
        host.mapView.beginGesture()
        host.mapView.pan(by: CGPoint(x: 80, y: 0))
        host.mapView.endGesture()
        XCTAssertEqual(host.mapView.centerCoordinate.longitude, center.longitude, accuracy: 1e-12)

        // The user's location: followed when known, the fallback when not.
        let user = CLLocationCoordinate2D(latitude: 43.7350, longitude: 7.4200)
        let following = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                                dataSource: try MonacoBundle.dataSource()) {
            Map(initialPosition: .userLocation(fallback: .region(MKCoordinateRegion(center: .casino, latitudinalMeters: 500, longitudinalMeters: 500)))) {
                UserAnnotation()
            }
            .userLocation(user)
        }
        following.update()
        XCTAssertEqual(following.mapView.userTrackingMode, .follow)
        XCTAssertEqual(following.mapView.centerCoordinate.latitude, user.latitude, accuracy: 1e-5)
        let fallback = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                               dataSource: try MonacoBundle.dataSource()) {
            Map(initialPosition: .userLocation(fallback: .region(MKCoordinateRegion(center: .casino, latitudinalMeters: 500, longitudinalMeters: 500))))
        }
        XCTAssertEqual(fallback.mapView.centerCoordinate.latitude, CLLocationCoordinate2D.casino.latitude, accuracy: 1e-5)

        // Bounds keep the camera's distance within limits.
        let bounded = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                              dataSource: try MonacoBundle.dataSource()) {
            Map(initialPosition: .region(MKCoordinateRegion(center: .parking, latitudinalMeters: 800, longitudinalMeters: 800)),
                bounds: MapCameraBounds(minimumDistance: 500, maximumDistance: 3000))
        }
        bounded.mapView.beginGesture()
        bounded.mapView.pinch(scale: 0.05, around: CGPoint(x: 200, y: 150))
        bounded.mapView.endGesture()
        XCTAssertLessThanOrEqual(bounded.mapView.camera.centerCoordinateDistance, 3000 * 1.001)
    }

    func testAnnotationContentIsDrawnAtItsAnchorWithItsTitle() throws {
        let host = MapHost(frame: CGRect(origin: .zero, size: Self.size), clock: MKManualMapViewClock(),
                           dataSource: try MonacoBundle.dataSource()) {
            Map(initialPosition: .region(MKCoordinateRegion(center: .parking, latitudinalMeters: 800, longitudinalMeters: 800))) {
                Annotation("Parking", coordinate: .parking, anchor: .bottom) {
                    RoundedRectangle(cornerRadius: 4).fill(Color(red: 1, green: 0, blue: 1)).frame(width: 30, height: 20)
                }
            }
        }
        let image = try host.render()
        let tip = host.mapView.convert(CLLocationCoordinate2D.parking, toPointTo: nil)
        assertColor(image.color(at: CGPoint(x: tip.x, y: tip.y - 10)), near: UIColor(red: 1, green: 0, blue: 1, alpha: 1), "above the coordinate")
        XCTAssertFalse(isColor(image.color(at: CGPoint(x: tip.x, y: tip.y + 6)), near: UIColor(red: 1, green: 0, blue: 1, alpha: 1)))
        XCTAssertTrue(AnnotationDrawing.lastDrawnTitles.contains("Parking"), "the title is drawn under it")
    }

    func testAMapFeatureSelectionSelectsTheMapsOwnLabels() async throws {
        let selection = State<MapFeature?>(wrappedValue: nil)
        let disabled = State<Set<String>>(wrappedValue: [])
        let region = MKCoordinateRegion(center: CLLocationCoordinate2D(latitude: 43.7390, longitude: 7.4277), latitudinalMeters: 400,
                                        longitudinalMeters: 400)
        let host = MapHost(frame: CGRect(x: 0, y: 0, width: 400, height: 400), clock: MKManualMapViewClock(),
                           dataSource: try MonacoBundle.dataSource()) {
            Map(initialPosition: .region(region), selection: selection.projectedValue)
                .mapFeatureSelectionDisabled { disabled.wrappedValue.contains($0.title ?? "") }
        }
        XCTAssertEqual(host.mapView.selectableMapFeatures, [.pointsOfInterest, .territories, .physicalFeatures])
        _ = try host.render()
        var found: (CGPoint, MKMapFeatureAnnotation)?
        for y in stride(from: 20.0, to: 380, by: 6) where found == nil {
            for x in stride(from: 20.0, to: 380, by: 6) where found == nil {
                if let feature = host.mapView.mapFeature(at: CGPoint(x: x, y: y)), feature.featureType == .pointOfInterest {
                    found = (CGPoint(x: x, y: y), feature)
                }
            }
        }
        let (point, label) = try XCTUnwrap(found, "the frame shows a point of interest")
        host.tap(at: point)
        let feature = try XCTUnwrap(selection.wrappedValue)
        XCTAssertEqual(feature.kind, .pointOfInterest)
        XCTAssertEqual(feature.title, label.title)
        XCTAssertNotNil(feature.backgroundColor)
        // The feature resolves to the place in the index.
        let request = MKMapItemRequest(feature: feature)
        request.dataSource = try MonacoBundle.dataSource()
        let item = try await request.mapItem
        XCTAssertEqual(item.name, label.title)
        // Code clears it; a disabled feature cannot be selected.
        selection.wrappedValue = nil
        host.update()
        XCTAssertTrue(host.mapView.selectedAnnotations.isEmpty)
        disabled.wrappedValue = [label.title ?? ""]
        host.tap(at: point)
        XCTAssertNil(selection.wrappedValue)
        XCTAssertTrue(host.mapView.selectedAnnotations.isEmpty)
    }
}
