import Foundation
@testable import OpenMapKit
import XCTest

/// A delegate that writes down what an MGLMapView tells it.
final class RecordingMGLDelegate: MGLMapViewDelegate {
    var log: [String] = []
    var reasons: [MGLCameraChangeReason] = []
    var onWill: ((MGLMapView) -> Void)?
    var onDid: ((MGLMapView) -> Void)?
    var veto: ((MGLMapCamera, MGLMapCamera) -> Bool)?
    var viewFactory: ((MGLAnnotation) -> MGLAnnotationView?)?
    var imageFactory: ((MGLAnnotation) -> MGLAnnotationImage?)?
    var canShowCallout = false
    var strokeColor: UIColor?
    var lineWidth: CGFloat?
    var loadedStyle: MGLStyle?
    var failure: Error?

    func mapView(_ mapView: MGLMapView, regionWillChangeWith reason: MGLCameraChangeReason, animated: Bool) {
        log.append("will(\(animated))")
        reasons.append(reason)
        onWill?(mapView)
    }
    func mapView(_ mapView: MGLMapView, regionIsChangingWith reason: MGLCameraChangeReason) { log.append("changing") }
    func mapView(_ mapView: MGLMapView, regionDidChangeWith reason: MGLCameraChangeReason, animated: Bool) {
        log.append("did(\(animated))")
        reasons.append(reason)
        onDid?(mapView)
    }
    func mapView(_ mapView: MGLMapView, shouldChangeFrom oldCamera: MGLMapCamera, to newCamera: MGLMapCamera) -> Bool {
        veto?(oldCamera, newCamera) ?? true
    }
    func mapViewWillStartLoadingMap(_ mapView: MGLMapView) { log.append("willStartLoading") }
    func mapViewDidFinishLoadingMap(_ mapView: MGLMapView) { log.append("didFinishLoading") }
    func mapViewDidFailLoadingMap(_ mapView: MGLMapView, withError error: Error) {
        log.append("didFailLoading")
        failure = error
    }
    func mapViewWillStartRenderingMap(_ mapView: MGLMapView) { log.append("willStartRenderingMap") }
    func mapViewDidFinishRenderingMap(_ mapView: MGLMapView, fullyRendered: Bool) { log.append("didFinishRenderingMap(\(fullyRendered))") }
    func mapViewWillStartRenderingFrame(_ mapView: MGLMapView) { log.append("willStartRenderingFrame") }
    func mapViewDidFinishRenderingFrame(_ mapView: MGLMapView, fullyRendered: Bool) { log.append("didFinishRenderingFrame(\(fullyRendered))") }
    func mapViewDidBecomeIdle(_ mapView: MGLMapView) { log.append("idle") }
    func mapView(_ mapView: MGLMapView, didFinishLoading style: MGLStyle) {
        log.append("didFinishLoadingStyle")
        loadedStyle = style
    }
    func mapViewWillStartLocatingUser(_ mapView: MGLMapView) { log.append("willStartLocating") }
    func mapViewDidStopLocatingUser(_ mapView: MGLMapView) { log.append("didStopLocating") }
    func mapView(_ mapView: MGLMapView, didUpdate userLocation: MGLUserLocation?) { log.append("didUpdateLocation") }
    func mapView(_ mapView: MGLMapView, didFailToLocateUserWithError error: Error) { log.append("didFailToLocate") }
    func mapView(_ mapView: MGLMapView, didChange mode: MGLUserTrackingMode, animated: Bool) { log.append("mode(\(mode))") }
    func mapView(_ mapView: MGLMapView, viewFor annotation: MGLAnnotation) -> MGLAnnotationView? {
        log.append("viewFor(\(annotation.title ?? "?"))")
        return viewFactory?(annotation)
    }
    func mapView(_ mapView: MGLMapView, imageFor annotation: MGLAnnotation) -> MGLAnnotationImage? {
        log.append("imageFor(\(annotation.title ?? "?"))")
        return imageFactory?(annotation)
    }
    func mapView(_ mapView: MGLMapView, didSelect annotation: MGLAnnotation) { log.append("didSelect(\(annotation.title ?? "?"))") }
    func mapView(_ mapView: MGLMapView, didDeselect annotation: MGLAnnotation) { log.append("didDeselect(\(annotation.title ?? "?"))") }
    func mapView(_ mapView: MGLMapView, didSelect annotationView: MGLAnnotationView) { log.append("didSelectView") }
    func mapView(_ mapView: MGLMapView, didDeselect annotationView: MGLAnnotationView) { log.append("didDeselectView") }
    func mapView(_ mapView: MGLMapView, annotationCanShowCallout annotation: MGLAnnotation) -> Bool { canShowCallout }
    func mapView(_ mapView: MGLMapView, tapOnCalloutFor annotation: MGLAnnotation) { log.append("tapOnCallout(\(annotation.title ?? "?"))") }
    func mapView(_ mapView: MGLMapView, strokeColorForShapeAnnotation annotation: MGLShape) -> UIColor { strokeColor ?? mapView.tintColor }
    func mapView(_ mapView: MGLMapView, lineWidthForPolylineAnnotation annotation: MGLPolyline) -> CGFloat { lineWidth ?? 3 }

    /// The log with runs of "changing" collapsed to one "changing*".
    var collapsed: [String] {
        var out: [String] = []
        for entry in log {
            if entry == "changing" {
                if out.last != "changing*" { out.append("changing*") }
            } else {
                out.append(entry)
            }
        }
        return out
    }
}

enum MapboxFixtures {
    static let monaco = CLLocationCoordinate2D(latitude: 43.7384, longitude: 7.4246)
    static let nice = CLLocationCoordinate2D(latitude: 43.7102, longitude: 7.2620)

    /// A 400 × 400 map on a manual clock with a recording delegate (its log empty).
    static func map(width: CGFloat = 400, height: CGFloat = 400) -> (MGLMapView, RecordingMGLDelegate, MKManualMapViewClock) {
        let clock = MKManualMapViewClock()
        let map = MGLMapView(frame: CGRect(x: 0, y: 0, width: width, height: height), styleURL: nil, clock: clock)
        let delegate = RecordingMGLDelegate()
        map.delegate = delegate
        return (map, delegate, clock)
    }

    static func point(_ title: String, _ latitude: Double, _ longitude: Double) -> MGLPointAnnotation {
        let point = MGLPointAnnotation()
        point.coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        point.title = title
        return point
    }

    /// Runs animations to their end in 1/60 s steps (at most `limit` frames); the frames run.
    @discardableResult
    static func finish(_ map: MGLMapView, _ clock: MKManualMapViewClock, limit: Int = 2000) -> Int {
        var frames = 0
        while map.isAnimating, frames < limit {
            clock.advance(by: 1.0 / 60)
            map.advanceAnimations()
            frames += 1
        }
        return frames
    }
}
