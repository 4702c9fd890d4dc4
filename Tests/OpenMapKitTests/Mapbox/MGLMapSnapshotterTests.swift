import Foundation
@testable import OpenMapKit
import TestSupport
import XCTest

/// Mapbox's snapshotter on the Monaco bundle: a headless MGLMapView's frame, its conversions, the
/// zoom / bounds rules of MGLMapSnapshotOptions, failures and cancellation.
final class MGLMapSnapshotterTests: XCTestCase {
    static let monaco = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)

    func options(_ style: URL? = nil, zoom: Double = 15) throws -> MGLMapSnapshotOptions {
        let camera = MGLMapCamera(lookingAtCenter: Self.monaco, altitude: 1_000_000, pitch: 0, heading: 0)
        let options = MGLMapSnapshotOptions(styleURL: style, camera: camera, size: CGSize(width: 300, height: 200))
        options.zoomLevel = zoom
        options.dataSource = try MonacoBundle.dataSource()
        return options
    }

    func testSnapshotIsTheMapViewsFrameWithItsConversions() async throws {
        let options = try options()
        options.scale = 2
        let snapshot = try await MGLMapSnapshotter(options: options).start()
        XCTAssertEqual(snapshot.image.size, CGSize(width: 300, height: 200))
        XCTAssertEqual(snapshot.image.scale, 2)
        // The centre is in the middle; a point 100 points right is east of it by Mapbox's metres per point.
        let centre = snapshot.point(for: Self.monaco)
        XCTAssertEqual(centre.x, 150, accuracy: 1e-6)
        XCTAssertEqual(centre.y, 100, accuracy: 1e-6)
        let east = snapshot.coordinate(for: CGPoint(x: 250, y: 100))
        let metres = CLLocation(latitude: Self.monaco.latitude, longitude: Self.monaco.longitude)
            .distance(from: CLLocation(latitude: east.latitude, longitude: east.longitude))
        let metresPerPoint = 40_075_016.686 / 512 / pow(2, 15) * cos(Self.monaco.latitude * .pi / 180)
        XCTAssertEqual(metres, 100 * metresPerPoint, accuracy: 100 * metresPerPoint * 0.01)
        // The same frame a map view of that camera draws (the snapshot is one, headless).
        let map = MGLMapView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), styleURL: nil, clock: MKManualMapViewClock())
        map.dataSource = options.dataSource
        map.contentScaleFactor = 2
        map.setCenter(Self.monaco, zoomLevel: 15, animated: false)
        let frame = try map.render()
        XCTAssertEqual(try frame.renderCanvas.fastPNGData(), try snapshot.image.renderCanvas.fastPNGData())
    }

    func testZoomLevelAndBoundsWinOverTheCamerasAltitude() async throws {
        let zoomed = try options(zoom: 14)
        let atZoom = try await MGLMapSnapshotter(options: zoomed).start()
        let span = atZoom.coordinate(for: CGPoint(x: 300, y: 100)).longitude - atZoom.coordinate(for: CGPoint(x: 0, y: 100)).longitude
        XCTAssertEqual(span, 300 * 360 / (512 * pow(2, 14)), accuracy: 1e-9)
        // Zoom 0 takes the altitude: 1000 km up is far out, about zoom 4.
        let fromAltitude = try await MGLMapSnapshotter(options: try options(zoom: 0)).start()
        let wide = fromAltitude.coordinate(for: CGPoint(x: 300, y: 100)).longitude - fromAltitude.coordinate(for: CGPoint(x: 0, y: 100)).longitude
        XCTAssertGreaterThan(wide, 5)
        // A box wins over both: it fits inside the image.
        let boxed = try options(zoom: 14)
        let sw = CLLocationCoordinate2D(latitude: 43.727, longitude: 7.409), ne = CLLocationCoordinate2D(latitude: 43.752, longitude: 7.440)
        boxed.coordinateBounds = MGLCoordinateBounds(sw: sw, ne: ne)
        let fitted = try await MGLMapSnapshotter(options: boxed).start()
        for corner in [sw, ne] {
            let p = fitted.point(for: corner)
            XCTAssertTrue((-1...301).contains(p.x) && (-1...201).contains(p.y), "\(corner) at \(p)")
        }
    }

    func testFailuresAndTheMainQueueCompletion() throws {
        // Satellite needs imagery the Monaco source does not have.
        let satellite = try options(MGLStyle.satelliteStyleURL)
        let failed = expectation(description: "satellite fails")
        MGLMapSnapshotter(options: satellite).start(with: .global()) { snapshot, error in
            XCTAssertNil(snapshot)
            XCTAssertTrue("\(error.map { "\($0)" } ?? "")".contains("imagery"), "\(String(describing: error))")
            failed.fulfill()
        }
        let zero = MGLMapSnapshotOptions(styleURL: nil, camera: MGLMapCamera(), size: .zero)
        let refused = expectation(description: "zero size fails")
        MGLMapSnapshotter(options: zero).start(with: .global()) { snapshot, error in
            XCTAssertNil(snapshot)
            XCTAssertNotNil(error)
            refused.fulfill()
        }
        // The main queue, as Mapbox calls back.
        let onMain = expectation(description: "main queue")
        MGLMapSnapshotter(options: try options()).start { snapshot, _ in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertNotNil(snapshot)
            onMain.fulfill()
        }
        wait(for: [failed, refused, onMain], timeout: 120)
    }

    func testCancelDeliversNoSnapshot() throws {
        let snapshotter = MGLMapSnapshotter(options: try options())
        let done = expectation(description: "cancelled")
        snapshotter.start(with: .global()) { snapshot, error in
            XCTAssertNil(snapshot)
            XCTAssertTrue(error is CancellationError, "\(String(describing: error))")
            done.fulfill()
        }
        snapshotter.cancel()
        wait(for: [done], timeout: 120)
        XCTAssertFalse(snapshotter.isLoading)
    }
}
