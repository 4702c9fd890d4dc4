import Foundation
import MapGeometry

/// The part of the world a map has no data for, as the GeoJSON the default styles' `no-data`
/// layer draws (see ``DefaultStyle/json(extrudedBuildings:dataBounds:)``).
///
/// An extract ends at its bounds: beyond them there is no land, no sea and no road in the data,
/// only the style's background, which is the colour of land. Drawing that as land makes the sea
/// an extract's coastline closes at its bounds look like a lake with a straight shore. So the
/// default styles cover the world outside the data's bounds with a neutral hatching that reads as
/// "nothing here", and the map's own features (a road that runs on past the box, the sea up to
/// its edge) stay drawn over it.
enum NoDataArea {
    /// The world's rectangle in degrees, as far north and south as Mercator draws.
    private static let world = (west: -180.0, south: -MKMercatorMaximumLatitude, east: 180.0, north: MKMercatorMaximumLatitude)

    /// The rectangles the data covers, clamped to the world, with every two that overlap or touch
    /// replaced by the rectangle around both (until none do), so that the holes of the outside
    /// polygon never overlap: two overlapping holes would fill their overlap again. Nil rectangles
    /// and empty ones are left out.
    static func merged(_ covered: [MKMapRect]) -> [MKMapRect] {
        var boxes = covered.compactMap { rect -> MKMapRect? in
            guard !rect.isNull, [rect.minX, rect.minY, rect.maxX, rect.maxY].allSatisfy(\.isFinite) else { return nil }
            let clamped = rect.intersection(.world)
            return clamped.isNull || clamped.width <= 0 || clamped.height <= 0 ? nil : clamped
        }
        var changed = true
        while changed {
            changed = false
            search: for i in boxes.indices {
                for j in boxes.indices where j > i {
                    let a = boxes[i], b = boxes[j]
                    guard a.minX <= b.maxX, b.minX <= a.maxX, a.minY <= b.maxY, b.minY <= a.maxY else { continue }
                    boxes[i] = a.union(b)
                    boxes.remove(at: j)
                    changed = true
                    break search
                }
            }
        }
        return boxes
    }

    /// A GeoJSON FeatureCollection: the world with a hole for each of `covered` (after
    /// ``merged(_:)``), rings wound as RFC 7946 asks (the world counter-clockwise, holes
    /// clockwise); no feature when nothing is covered (the data's extent is unknown, so nothing
    /// is claimed) or when the data covers the whole world.
    static func geoJSON(outside covered: [MKMapRect]) -> String {
        let holes = merged(covered)
        let empty = #"{"type": "FeatureCollection", "features": []}"#
        guard !holes.isEmpty, !holes.contains(where: { $0.contains(MKMapRect.world) }) else { return empty }
        func position(_ longitude: Double, _ latitude: Double) -> String {
            "[\(String(format: "%.7f", longitude)), \(String(format: "%.7f", latitude))]"
        }
        let w = world
        var rings = ["[" + [position(w.west, w.south), position(w.east, w.south), position(w.east, w.north), position(w.west, w.north),
                            position(w.west, w.south)].joined(separator: ", ") + "]"]
        for hole in holes {
            let northWest = MKMapPoint(x: hole.minX, y: hole.minY).coordinate
            let southEast = MKMapPoint(x: hole.maxX, y: hole.maxY).coordinate
            let (west, north, east, south) = (northWest.longitude, northWest.latitude, southEast.longitude, southEast.latitude)
            rings.append("[" + [position(west, south), position(west, north), position(east, north), position(east, south),
                                position(west, south)].joined(separator: ", ") + "]")
        }
        return #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": "#
            + #"{"type": "Polygon", "coordinates": ["# + rings.joined(separator: ", ") + "]}}]}"
    }
}
