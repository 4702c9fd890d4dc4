import Foundation
import MapGeometry

/// Lines or polygon rings of a place, kept for reverse geocoding: the distance to a street's
/// lines, or whether a point lies inside an area (rings combine even–odd, so holes work).
public struct PlaceGeometry: Sendable, Hashable {
    public enum Shape: Int, Sendable { case lines = 1, rings = 2 }
    public var shape: Shape
    public var parts: [[CLLocationCoordinate2D]]

    public init(shape: Shape, parts: [[CLLocationCoordinate2D]]) {
        self.shape = shape
        self.parts = parts
    }

    /// The bounding box in degrees (west, south, east, north); nil when empty.
    var box: (west: Double, south: Double, east: Double, north: Double)? {
        var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
        for part in parts {
            for c in part {
                west = min(west, c.longitude); east = max(east, c.longitude)
                south = min(south, c.latitude); north = max(north, c.latitude)
            }
        }
        return west.isFinite ? (west, south, east, north) : nil
    }

    /// Encoded as little-endian Int32s: part count, then per part its point count and
    /// 1e-7-degree latitude/longitude pairs (OSM's own precision, half the size of doubles).
    var encoded: Data {
        var words: [Int32] = [Int32(parts.count)]
        for part in parts {
            words.append(Int32(part.count))
            for c in part {
                words.append(Int32((c.latitude * 1e7).rounded()))
                words.append(Int32((c.longitude * 1e7).rounded()))
            }
        }
        return words.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    init?(shape: Shape, encoded data: Data) {
        let count = data.count / 4
        var words = [Int32](repeating: 0, count: count)
        _ = words.withUnsafeMutableBytes { data.copyBytes(to: $0) }
        guard count >= 1 else { return nil }
        var index = 1
        var parts: [[CLLocationCoordinate2D]] = []
        for _ in 0..<max(0, Int(words[0])) {
            guard index < count else { return nil }
            let n = Int(words[index]); index += 1
            guard n >= 0, index + 2 * n <= count else { return nil }
            var part: [CLLocationCoordinate2D] = []
            part.reserveCapacity(n)
            for k in 0..<n {
                part.append(CLLocationCoordinate2D(latitude: Double(words[index + 2 * k]) / 1e7,
                                                   longitude: Double(words[index + 2 * k + 1]) / 1e7))
            }
            index += 2 * n
            parts.append(part)
        }
        self.init(shape: shape, parts: parts)
    }

    /// Even–odd containment over all rings.
    public func contains(_ point: CLLocationCoordinate2D) -> Bool {
        guard shape == .rings else { return false }
        var inside = false
        for ring in parts where ring.count >= 3 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                    let x = (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
                    if point.longitude < x { inside.toggle() }
                }
                j = i
            }
        }
        return inside
    }

    /// Approximate distance in metres from `point` to the nearest line (or ring edge), on a local
    /// equirectangular plane — exact enough at the tens-of-metres scale reverse geocoding uses.
    public func distance(to point: CLLocationCoordinate2D) -> Double {
        let metersPerDegreeLat = 111_132.0
        let metersPerDegreeLon = 111_320.0 * cos(point.latitude * .pi / 180)
        var best = Double.infinity
        for part in parts {
            if part.count == 1 {
                let dx = (part[0].longitude - point.longitude) * metersPerDegreeLon
                let dy = (part[0].latitude - point.latitude) * metersPerDegreeLat
                best = min(best, (dx * dx + dy * dy).squareRoot())
                continue
            }
            for i in 1..<max(1, part.count) {
                let ax = (part[i - 1].longitude - point.longitude) * metersPerDegreeLon
                let ay = (part[i - 1].latitude - point.latitude) * metersPerDegreeLat
                let bx = (part[i].longitude - point.longitude) * metersPerDegreeLon
                let by = (part[i].latitude - point.latitude) * metersPerDegreeLat
                let dx = bx - ax, dy = by - ay
                let length2 = dx * dx + dy * dy
                var t = length2 > 0 ? -(ax * dx + ay * dy) / length2 : 0
                t = min(1, max(0, t))
                let px = ax + t * dx, py = ay + t * dy
                best = min(best, (px * px + py * py).squareRoot())
            }
        }
        return best
    }
}

/// Which address field an administrative area fills in the places it contains.
public enum PlaceAddressField: Int, Sendable, Codable, CaseIterable {
    case country = 1, administrativeArea, subAdministrativeArea, locality, subLocality, postalCode
}

/// An area that gives the places inside it part of their address: a country, a region, a
/// municipality, a suburb, a postal code area. MapImport decides which field each boundary fills
/// (that depends on the country's customs); the writer applies them by containment.
public struct PlaceArea: Sendable {
    public var id: String
    public var field: PlaceAddressField
    public var name: String
    public var countryCode: String?
    public var timeZone: String?
    public var geometry: PlaceGeometry
    /// An estimate (a circle around a `place=village` node) used only where no real boundary
    /// gives this field.
    public var isFallback: Bool

    public init(id: String, field: PlaceAddressField, name: String, countryCode: String? = nil,
                timeZone: String? = nil, geometry: PlaceGeometry, isFallback: Bool = false) {
        self.isFallback = isFallback
        self.id = id
        self.field = field
        self.name = name
        self.countryCode = countryCode
        self.timeZone = timeZone
        self.geometry = geometry
    }
}

/// Metres between two coordinates on a sphere of the Earth's mean radius (ranking and
/// reverse-geocoding precision; geodesic exactness is not needed here).
func haversineMeters(_ a: CLLocationCoordinate2D, _ b: CLLocationCoordinate2D) -> Double {
    let r = 6_371_008.8
    let dLat = (b.latitude - a.latitude) * .pi / 180
    let dLon = (b.longitude - a.longitude) * .pi / 180
    let s = sin(dLat / 2) * sin(dLat / 2)
        + cos(a.latitude * .pi / 180) * cos(b.latitude * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * r * asin(min(1, s.squareRoot()))
}
