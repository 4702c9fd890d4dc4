// The window's Look Around mode: the street drawn from where a person stands (MKLookAroundSnapshotter's
// pictures), turned by dragging, walked by clicking ahead or with the arrow keys. The window enters
// it with the L key (at the pointer) or a click on a panel's Look Around preview, and leaves it
// with L or Escape.

import Foundation
import MapRender
import OpenMapKit

/// Where the window's viewer stands and looks.
struct LookAroundSession {
    var scene: MKLookAroundScene
    var heading: Double
    var pitch = 0.0
    var fieldOfView = 75.0
    let dataSource: MapDataSource?

    /// Metres one click or arrow key walks.
    static let step = 12.0

    /// A session at the street nearest `coordinate`; nil where there is no street.
    static func start(at coordinate: CLLocationCoordinate2D, dataSource: MapDataSource?) throws -> LookAroundSession? {
        let request = MKLookAroundSceneRequest(coordinate: coordinate)
        request.dataSource = dataSource
        guard let scene = try request.sceneHere() else { return nil }
        return LookAroundSession(scene: scene, heading: scene.heading, dataSource: dataSource)
    }

    /// The picture at `size` points and `scale` pixels per point.
    func draw(width: Double, height: Double, scale: Double) throws -> RenderCanvas {
        let options = MKLookAroundSnapshotter.Options()
        options.size = CGSize(width: width, height: height)
        options.traitCollection = UITraitCollection(displayScale: CGFloat(scale))
        options.heading = heading
        options.pitch = pitch
        options.fieldOfView = fieldOfView
        let snapshotter = MKLookAroundSnapshotter(scene: scene, options: options)
        snapshotter.dataSource = dataSource
        return try snapshotter.snapshotHere().image.renderCanvas
    }

    /// Turns the view as a drag of (`dx`, `dy`) points in a view `width` wide drags the picture.
    mutating func drag(dx: Double, dy: Double, width: Double) {
        let degreesPerPoint = fieldOfView / max(width, 1)
        heading = (heading - dx * degreesPerPoint).truncatingRemainder(dividingBy: 360)
        if heading < 0 { heading += 360 }
        pitch = max(-60, min(60, pitch + dy * degreesPerPoint))
    }

    /// Walks `metres` toward the direction a point `x` of a view `width` wide looks (negative: back),
    /// to the street there; false when there is no street to stand on.
    mutating func walk(toward x: Double, width: Double, metres: Double = step) throws -> Bool {
        let half = fieldOfView / 2 * .pi / 180
        let offset = atan((x - width / 2) / max(width / 2, 1) * tan(half)) * 180 / .pi
        let direction = (heading + offset + 360).truncatingRemainder(dividingBy: 360)
        let target = Geodesic.wgs84.direct(latitude1: scene.coordinate.latitude, longitude1: scene.coordinate.longitude,
                                           azimuth1: metres >= 0 ? direction : direction + 180, distance: abs(metres))
        let request = MKLookAroundSceneRequest(coordinate: CLLocationCoordinate2D(latitude: target.latitude2, longitude: target.longitude2))
        request.dataSource = dataSource
        guard let next = try request.sceneHere(), next.coordinate != scene.coordinate else { return false }
        scene = next
        return true
    }
}
