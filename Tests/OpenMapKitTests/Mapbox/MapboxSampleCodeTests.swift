// Code written the way the Mapbox Maps SDK's iOS examples are ("camera animation", "annotation
// views", "add a polygon", "restrict map panning"), to show it compiles unchanged against
// `import OpenMapKit`. UIKit's view controller is replaced by a plain class (there is no UIKit on
// Linux); everything touching the map view is as in Mapbox's examples.

import Foundation
import OpenMapKit
import XCTest

// MARK: - Camera animation

final class CameraAnimationController: MGLMapViewDelegate {
    var mapView: MGLMapView!

    func viewDidLoad(clock: MKMapViewClock) {
        mapView = MGLMapView(frame: CGRect(x: 0, y: 0, width: 375, height: 667), styleURL: MGLStyle.outdoorsStyleURL, clock: clock)
        mapView.delegate = self
        mapView.setCenter(CLLocationCoordinate2D(latitude: 50.999, longitude: -1.2), zoomLevel: 14, animated: false)
    }

    func mapViewDidFinishLoadingMap(_ mapView: MGLMapView) {
        // Wait for the map to load before initiating the first camera movement.
        // Create a camera that rotates around the same center point, rotating 180°.
        // `fromDistance:` is meters above mean sea level that an eye would have to be in order to see what the map view is showing.
        let camera = MGLMapCamera(lookingAtCenter: mapView.centerCoordinate, altitude: 4500, pitch: 15, heading: 180)
        // Animate the camera movement over 5 seconds.
        mapView.setCamera(camera, withDuration: 5, animationTimingFunction: CAMediaTimingFunction(name: CAMediaTimingFunctionName.easeInEaseOut))
    }
}

// MARK: - Annotation views

// MGLAnnotationView subclass
final class CustomAnnotationView: MGLAnnotationView {
    override func setSelected(_ selected: Bool, animated: Bool) {
        super.setSelected(selected, animated: animated)
        // Change the background colour when selected.
        backgroundColor = selected ? .white : .systemBlue
    }
}

final class AnnotationViewsController: MGLMapViewDelegate {
    var mapView: MGLMapView!

    func viewDidLoad(clock: MKMapViewClock) {
        mapView = MGLMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), styleURL: nil, clock: clock)
        mapView.styleURL = MGLStyle.darkStyleURL
        mapView.tintColor = .lightGray
        mapView.centerCoordinate = CLLocationCoordinate2D(latitude: 0, longitude: 66)
        mapView.zoomLevel = 2
        mapView.delegate = self

        // Specify coordinates for our annotations.
        let coordinates = [
            CLLocationCoordinate2D(latitude: 0, longitude: 33),
            CLLocationCoordinate2D(latitude: 0, longitude: 66),
            CLLocationCoordinate2D(latitude: 0, longitude: 99),
        ]

        // Fill an array with point annotations and add it to the map.
        var pointAnnotations = [MGLPointAnnotation]()
        for coordinate in coordinates {
            let point = MGLPointAnnotation()
            point.coordinate = coordinate
            point.title = "\(coordinate.latitude), \(coordinate.longitude)"
            pointAnnotations.append(point)
        }

        mapView.addAnnotations(pointAnnotations)
    }

    // This delegate method is where you tell the map to load a view for a specific annotation.
    func mapView(_ mapView: MGLMapView, viewFor annotation: MGLAnnotation) -> MGLAnnotationView? {
        // This example is only concerned with point annotations.
        guard annotation is MGLPointAnnotation else {
            return nil
        }

        // Use the point annotation’s longitude value (as a string) as the reuse identifier for its view.
        let reuseIdentifier = "\(annotation.coordinate.longitude)"

        // For better performance, always try to reuse existing annotations.
        var annotationView = mapView.dequeueReusableAnnotationView(withIdentifier: reuseIdentifier)

        // If there’s no reusable annotation view available, initialize a new one.
        if annotationView == nil {
            annotationView = CustomAnnotationView(reuseIdentifier: reuseIdentifier)
            annotationView!.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)

            // Set the annotation view’s background color to a value determined by its longitude.
            let hue = CGFloat(annotation.coordinate.longitude) / 100
            annotationView!.backgroundColor = UIColor(hue: hue, saturation: 0.5, brightness: 1, alpha: 1)
        }

        return annotationView
    }

    func mapView(_ mapView: MGLMapView, annotationCanShowCallout annotation: MGLAnnotation) -> Bool {
        return true
    }
}

// MARK: - Add a polygon annotation

final class PolygonController: MGLMapViewDelegate {
    var mapView: MGLMapView!

    func viewDidLoad(clock: MKMapViewClock) {
        mapView = MGLMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), styleURL: nil, clock: clock)
        mapView.setCenter(CLLocationCoordinate2D(latitude: 45.520486, longitude: -122.673541), zoomLevel: 11, animated: false)
        mapView.delegate = self
        addPolygon()
    }

    func addPolygon() {
        // Create a coordinates array to hold all of the coordinates for our shape.
        var coordinates = [
            CLLocationCoordinate2D(latitude: 45.522585, longitude: -122.685699),
            CLLocationCoordinate2D(latitude: 45.534611, longitude: -122.708873),
            CLLocationCoordinate2D(latitude: 45.530883, longitude: -122.678833),
            CLLocationCoordinate2D(latitude: 45.547115, longitude: -122.667503),
            CLLocationCoordinate2D(latitude: 45.530643, longitude: -122.660121),
            CLLocationCoordinate2D(latitude: 45.533529, longitude: -122.636260),
            CLLocationCoordinate2D(latitude: 45.521743, longitude: -122.659091),
            CLLocationCoordinate2D(latitude: 45.510677, longitude: -122.648792),
            CLLocationCoordinate2D(latitude: 45.515008, longitude: -122.664070),
            CLLocationCoordinate2D(latitude: 45.502496, longitude: -122.669048),
            CLLocationCoordinate2D(latitude: 45.515369, longitude: -122.678489),
            CLLocationCoordinate2D(latitude: 45.506346, longitude: -122.702007),
            CLLocationCoordinate2D(latitude: 45.522585, longitude: -122.685699),
        ]
        let shape = MGLPolygon(coordinates: &coordinates, count: UInt(coordinates.count))
        mapView.addAnnotation(shape)
    }

    func mapView(_ mapView: MGLMapView, alphaForShapeAnnotation annotation: MGLShape) -> CGFloat {
        return 0.5
    }

    func mapView(_ mapView: MGLMapView, strokeColorForShapeAnnotation annotation: MGLShape) -> UIColor {
        return .white
    }

    func mapView(_ mapView: MGLMapView, fillColorForPolygonAnnotation annotation: MGLPolygon) -> UIColor {
        return UIColor(red: 59 / 255, green: 178 / 255, blue: 208 / 255, alpha: 1)
    }
}

// MARK: - Restrict map panning to an area

final class RestrictPanningController: MGLMapViewDelegate {
    var mapView: MGLMapView!
    var colorado: MGLCoordinateBounds!

    func viewDidLoad(clock: MKMapViewClock) {
        mapView = MGLMapView(frame: CGRect(x: 0, y: 0, width: 400, height: 400), styleURL: MGLStyle.streetsStyleURL, clock: clock)
        mapView.delegate = self
        // Colorado’s bounds
        let northeast = CLLocationCoordinate2D(latitude: 40.989329, longitude: -102.062592)
        let southwest = CLLocationCoordinate2D(latitude: 36.986207, longitude: -109.049896)
        colorado = MGLCoordinateBounds(sw: southwest, ne: northeast)
        mapView.setVisibleCoordinateBounds(colorado, animated: false)
    }

    // This example uses Colorado’s boundaries to restrict the camera movement.
    func mapView(_ mapView: MGLMapView, shouldChangeFrom oldCamera: MGLMapCamera, to newCamera: MGLMapCamera) -> Bool {
        // Get the current camera to restore it after.
        let currentCamera = mapView.camera

        // From the new camera obtain the center to test if it’s inside the boundaries.
        let newCameraCenter = newCamera.centerCoordinate

        // Set the map’s visible bounds to newCamera.
        mapView.camera = newCamera
        let newVisibleCoordinates = mapView.visibleCoordinateBounds

        // Revert the camera.
        mapView.camera = currentCamera

        // Test if the newCameraCenter and newVisibleCoordinates are inside self.colorado.
        let inside = MGLCoordinateInCoordinateBounds(newCameraCenter, self.colorado)
        let intersects = MGLCoordinateInCoordinateBounds(newVisibleCoordinates.ne, self.colorado) && MGLCoordinateInCoordinateBounds(newVisibleCoordinates.sw, self.colorado)

        return inside && intersects
    }
}

/// Runs the examples headlessly.
final class MapboxSampleCodeTests: XCTestCase {
    func testCameraAnimationExample() {
        let clock = MKManualMapViewClock()
        let controller = CameraAnimationController()
        controller.viewDidLoad(clock: clock)
        controller.mapViewDidFinishLoadingMap(controller.mapView)
        clock.advance(by: 2.5)
        controller.mapView.advanceAnimations()
        XCTAssertTrue(controller.mapView.isAnimating)
        clock.advance(by: 2.5)
        controller.mapView.advanceAnimations()
        XCTAssertFalse(controller.mapView.isAnimating)
        XCTAssertEqual(controller.mapView.direction, 180, accuracy: 1e-9)
        XCTAssertEqual(controller.mapView.camera.altitude, 4500, accuracy: 1e-6)
    }

    func testAnnotationViewsExample() {
        let controller = AnnotationViewsController()
        controller.viewDidLoad(clock: MKManualMapViewClock())
        let map = controller.mapView!
        XCTAssertEqual(map.annotations?.count, 3)
        let middle = map.annotations![1]
        let view = map.view(for: middle)
        XCTAssertTrue(view is CustomAnnotationView)
        XCTAssertEqual(view?.bounds.size, CGSize(width: 40, height: 40))
        map.selectAnnotation(middle, animated: false, completionHandler: nil)
        XCTAssertEqual(view?.backgroundColor, .white)
    }

    func testPolygonExample() {
        let controller = PolygonController()
        controller.viewDidLoad(clock: MKManualMapViewClock())
        XCTAssertEqual(controller.mapView.overlays.count, 1)
        XCTAssertEqual((controller.mapView.annotations?.first as? MGLPolygon)?.pointCount, 13)
    }

    func testRestrictPanningExample() {
        let controller = RestrictPanningController()
        controller.viewDidLoad(clock: MKManualMapViewClock())
        let map = controller.mapView!
        let before = map.centerCoordinate
        map.pan(by: CGPoint(x: 2000, y: 0))
        XCTAssertEqual(map.centerCoordinate, before, "panning out of Colorado is refused")
        map.zoomLevel += 1
        map.pan(by: CGPoint(x: 20, y: 0))
        XCTAssertNotEqual(map.centerCoordinate.longitude, before.longitude, "a small pan inside is allowed")
    }
}
