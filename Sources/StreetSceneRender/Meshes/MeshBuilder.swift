// The small vocabulary every part of a scene is built with: flat-shaded quads and triangle lists,
// prisms and ellipsoids, each appended to a `SceneMesh` in the scene's metres.

import Foundation
import StreetScene

/// A vertex colour (sRGB, 0–255) and how it is shaded.
struct Paint {
    var colour: SceneColour
    var alpha: UInt8 = 255
    var material: SceneMaterial = .plain

    init(_ colour: SceneColour, alpha: UInt8 = 255, material: SceneMaterial = .plain) {
        self.colour = colour
        self.alpha = alpha
        self.material = material
    }

    init(hex: UInt32, material: SceneMaterial = .plain) {
        self.init(SceneColour(red: UInt8(hex >> 16 & 0xff), green: UInt8(hex >> 8 & 0xff), blue: UInt8(hex & 0xff)), material: material)
    }

    /// The colour lightened (factor > 1) or darkened (< 1).
    func scaled(_ factor: Double) -> Paint {
        func channel(_ value: UInt8) -> UInt8 { UInt8(max(0, min(255, (Double(value) * factor).rounded()))) }
        var copy = self
        copy.colour = SceneColour(red: channel(colour.red), green: channel(colour.green), blue: channel(colour.blue))
        return copy
    }
}

/// A point in the scene's 3D metres.
struct Point3: Sendable {
    var x: Double, y: Double, z: Double
    init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
    init(_ p: ScenePoint2, _ z: Double) { self.init(p.x, p.y, z) }
    static func - (a: Self, b: Self) -> Self { Self(a.x - b.x, a.y - b.y, a.z - b.z) }
    static func + (a: Self, b: Self) -> Self { Self(a.x + b.x, a.y + b.y, a.z + b.z) }
    static func * (a: Self, s: Double) -> Self { Self(a.x * s, a.y * s, a.z * s) }
    func cross(_ b: Self) -> Self { Self(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
    var normalized: Self {
        let l = (x * x + y * y + z * z).squareRoot()
        return l > 0 ? self * (1 / l) : Self(0, 0, 1)
    }
}

extension SceneMesh {
    func vertex(_ p: Point3, normal n: Point3, _ paint: Paint, u: Double = 0, v: Double = 0) -> SceneVertex {
        SceneVertex(x: Float(p.x), y: Float(p.y), z: Float(p.z), nx: Float(n.x), ny: Float(n.y), nz: Float(n.z),
                    red: paint.colour.red, green: paint.colour.green, blue: paint.colour.blue, alpha: paint.alpha,
                    u: Float(u), v: Float(v), material: paint.material)
    }

    /// A flat quad a → b → c → d (any winding); its normal from the corners, or `normal` when given.
    /// `uv` gives each corner's texture coordinates (facades: metres along the wall and up).
    mutating func quad(_ a: Point3, _ b: Point3, _ c: Point3, _ d: Point3, _ paint: Paint,
                       normal: Point3? = nil, uv: [(Double, Double)]? = nil) {
        let n = normal ?? (b - a).cross(d - a).normalized
        let corners = [a, b, c, d]
        let base = UInt32(vertices.count)
        for (index, corner) in corners.enumerated() {
            let t = uv?[index] ?? (0, 0)
            vertices.append(vertex(corner, normal: n, paint, u: t.0, v: t.1))
        }
        indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    }

    /// A flat triangle.
    mutating func triangle(_ a: Point3, _ b: Point3, _ c: Point3, _ paint: Paint, normal: Point3? = nil) {
        let n = normal ?? (b - a).cross(c - a).normalized
        let base = UInt32(vertices.count)
        vertices += [vertex(a, normal: n, paint), vertex(b, normal: n, paint), vertex(c, normal: n, paint)]
        indices += [base, base + 1, base + 2]
    }

    /// A polygon (rings with holes) lying flat at height `z`, facing up.
    mutating func flat(_ rings: [[ScenePoint2]], z: Double, _ paint: Paint) {
        let (points, triangles) = Tessellator.triangulate(rings)
        guard !triangles.isEmpty else { return }
        let base = UInt32(vertices.count)
        let up = Point3(0, 0, 1)
        for point in points { vertices.append(vertex(Point3(point, z), normal: up, paint, u: point.x, v: point.y)) }
        indices += triangles.map { $0 + base }
    }

    /// An upright prism of `sides` faces around `centre`, from `bottom` to `top`, with a lid.
    mutating func prism(at centre: ScenePoint2, radius: Double, bottom: Double, top: Double, sides: Int, _ paint: Paint) {
        let ring = (0..<sides).map { index -> ScenePoint2 in
            let angle = Double(index) / Double(sides) * 2 * .pi
            return ScenePoint2(x: centre.x + radius * cos(angle), y: centre.y + radius * sin(angle))
        }
        for index in 0..<sides {
            let a = ring[index], b = ring[(index + 1) % sides]
            let mid = (a + b) * 0.5 - centre
            quad(Point3(a, bottom), Point3(b, bottom), Point3(b, top), Point3(a, top), paint, normal: Point3(mid.x, mid.y, 0).normalized)
        }
        for index in 1..<(sides - 1) {
            triangle(Point3(ring[0], top), Point3(ring[index], top), Point3(ring[index + 1], top), paint, normal: Point3(0, 0, 1))
        }
    }

    /// A box `size` metres (along, across, up) centred on `centre` at ground height `bottom`,
    /// turned so its length runs along `direction`.
    mutating func box(at centre: ScenePoint2, direction: ScenePoint2, length: Double, width: Double, bottom: Double, height: Double, _ paint: Paint) {
        let d = direction.normalized, r = d.right
        let hl = length / 2, hw = width / 2
        let corners = [centre + d * hl + r * hw, centre + d * hl - r * hw, centre - d * hl - r * hw, centre - d * hl + r * hw]
        let top = bottom + height
        for index in 0..<4 {
            let a = corners[index], b = corners[(index + 1) % 4]
            let mid = (a + b) * 0.5 - centre
            quad(Point3(a, bottom), Point3(b, bottom), Point3(b, top), Point3(a, top), paint, normal: Point3(mid.x, mid.y, 0).normalized)
        }
        quad(Point3(corners[0], top), Point3(corners[1], top), Point3(corners[2], top), Point3(corners[3], top), paint, normal: Point3(0, 0, 1))
    }

    /// A smooth-shaded ellipsoid (tree crowns): `rings` bands of `segments` faces.
    mutating func ellipsoid(centre: Point3, radius: Double, verticalRadius: Double, segments: Int, rings: Int, _ paint: Paint) {
        let base = UInt32(vertices.count)
        for ring in 0...rings {
            let phi = Double(ring) / Double(rings) * .pi  // 0 at the top
            for segment in 0...segments {
                let theta = Double(segment) / Double(segments) * 2 * .pi
                let n = Point3(sin(phi) * cos(theta), sin(phi) * sin(theta), cos(phi))
                let p = Point3(centre.x + radius * n.x, centre.y + radius * n.y, centre.z + verticalRadius * n.z)
                vertices.append(vertex(p, normal: Point3(n.x / radius, n.y / radius, n.z / verticalRadius).normalized, paint))
            }
        }
        let stride = UInt32(segments + 1)
        for ring in 0..<UInt32(rings) {
            for segment in 0..<UInt32(segments) {
                let a = base + ring * stride + segment, b = a + stride
                indices += [a, b, a + 1, a + 1, b, b + 1]
            }
        }
    }
}

/// A stable pseudo-random number in 0..<1 from a position, for variety (tree sizes, facade
/// colours) that is the same in every frame and on every machine.
func sceneNoise(_ x: Double, _ y: Double, salt: UInt64 = 0) -> Double {
    var h = UInt64(bitPattern: Int64((x * 10).rounded())) &* 0x9E37_79B9_7F4A_7C15
    h ^= UInt64(bitPattern: Int64((y * 10).rounded())) &* 0xC2B2_AE3D_27D4_EB4F
    h ^= salt &* 0x1656_67B1_9E37_79F9
    h ^= h >> 31
    h = h &* 0xBF58_476D_1CE4_E5B9
    h ^= h >> 29
    return Double(h >> 11) / Double(1 << 53)
}
