// The ground: what covers it (parks, water, squares), the roads with their widths, kerbs and
// sidewalks, markings, crossings and rails. All of it lies within a few centimetres of z = 0; each
// kind of surface has its own small height so that overlapping surfaces do not flicker, in the
// order a street is built: ground, cover, paths, carriageways, markings.

import Foundation
import StreetScene

enum GroundMesh {
    /// Heights above the ground plane, bottom to top.
    static let coverHeight = 0.01, pathHeight = 0.03, roadHeight = 0.04, markingHeight = 0.05
    /// How high a kerb lifts a sidewalk above the carriageway.
    static let kerbHeight = 0.12
    /// A sidewalk's width when OSM says only that there is one.
    static let sidewalkWidth = 2.0

    static let asphalt = Paint(hex: 0x55585C), paving = Paint(hex: 0xB4AEA3), kerb = Paint(hex: 0xC9C5BD)
    static let marking = Paint(hex: 0xF2F2EE), rail = Paint(hex: 0x8A8D91), ballast = Paint(hex: 0x7D7264)
    static let ground = Paint(hex: 0xBDB7A9)

    /// The ground plane: a square of `radius` metres around the origin.
    static func appendGround(radius: Double, to mesh: inout SceneMesh) {
        let r = radius
        mesh.quad(Point3(-r, -r, 0), Point3(r, -r, 0), Point3(r, r, 0), Point3(-r, r, 0), ground, normal: Point3(0, 0, 1))
    }

    // MARK: - Areas

    static func paint(for kind: SceneAreaKind) -> Paint {
        switch kind {
        case .park, .garden: return Paint(hex: 0x7FA05A)
        case .grass, .playground: return Paint(hex: 0x8DB063)
        case .pitch: return Paint(hex: 0x6FA35A)
        case .wood, .scrub: return Paint(hex: 0x5E7F45)
        case .water: return Paint(hex: 0x3F6F8F, material: .glossy)
        case .beach, .sand: return Paint(hex: 0xDCCB9F)
        case .pedestrian: return Paint(hex: 0xC4BBAA)
        case .parking: return Paint(hex: 0x77797C)
        case .farmland: return Paint(hex: 0xA9A76A)
        case .cemetery: return Paint(hex: 0x86A070)
        case .railway: return Paint(hex: 0x8F877A)
        }
    }

    /// Larger covers first, so that a playground inside a park is drawn above it.
    static func appendAreas(_ areas: [(SceneArea, [[ScenePoint2]])], to mesh: inout SceneMesh) {
        let ordered = areas.map { ($0, abs(Rings.signedArea2($0.1.first ?? []))) }.sorted { $0.1 > $1.1 }
        for (index, ((area, rings), _)) in ordered.enumerated() {
            // Water lies a little lower so that banks and piers drawn as cover stay above it.
            let z = area.kind == .water ? coverHeight * 0.5 : coverHeight + Double(index % 16) * 0.0008
            mesh.flat(rings, z: z, paint(for: area.kind))
        }
    }

    // MARK: - Roads

    /// The carriageway's width: `width`, else lanes of 3.25 m, else a width by kind.
    static func width(of road: SceneRoad) -> Double {
        if let width = road.width, width.isFinite, width > 0.5, width < 60 { return width }
        if let lanes = road.lanes, lanes > 0, lanes < 16, road.kind.isCarriageway { return Double(lanes) * 3.25 }
        switch road.kind {
        case .motorway: return 11
        case .trunk: return 9
        case .primary: return 8
        case .secondary: return 7
        case .tertiary: return 6.5
        case .residential, .livingStreet: return 5.5
        case .unclassified: return 5
        case .service: return 3.5
        case .pedestrian: return 5
        case .footway, .cycleway, .steps: return 2
        case .path: return 1.5
        case .track: return 3
        case .railway: return 3.2
        case .tram: return 2.4
        }
    }

    static func appendRoads(_ roads: [(SceneRoad, [ScenePoint2])], crossings: [ScenePoint2], to mesh: inout SceneMesh) {
        for (road, line) in roads where !road.isTunnel && line.count >= 2 {
            let w = width(of: road)
            switch road.kind {
            case .railway:
                strip(line, halfWidth: w / 2, z: pathHeight, ballast, to: &mesh)
                rails(line, z: pathHeight + 0.12, to: &mesh)
            case .tram:
                rails(line, z: roadHeight + 0.004, to: &mesh)
            case .footway, .path, .cycleway, .steps, .pedestrian, .track:
                strip(line, halfWidth: w / 2, z: pathHeight, road.kind == .track ? Paint(hex: 0x9C8E76) : paving, to: &mesh)
            default:
                strip(line, halfWidth: w / 2, z: roadHeight, asphalt, to: &mesh)
                if !road.sidewalks.isEmpty { sidewalks(line, road: road, halfWidth: w / 2, to: &mesh) }
                markings(line, road: road, width: w, to: &mesh)
                if road.hasTramRails { rails(line, z: roadHeight + 0.004, to: &mesh) }
            }
        }
        for crossing in crossings { zebra(at: crossing, roads: roads, to: &mesh) }
    }

    /// A band of `halfWidth` each side of `line` at height `z`, with round joins.
    static func strip(_ line: [ScenePoint2], halfWidth: Double, offset: Double = 0, z: Double, _ paint: Paint, joins: Bool = true,
                      to mesh: inout SceneMesh) {
        let up = Point3(0, 0, 1)
        for index in 0..<(line.count - 1) {
            let a = line[index], b = line[index + 1]
            let d = (b - a).normalized
            guard d.length > 0 else { continue }
            let r = d.right
            let left = r * (offset - halfWidth), right = r * (offset + halfWidth)
            mesh.quad(Point3(a + left, z), Point3(a + right, z), Point3(b + right, z), Point3(b + left, z), paint, normal: up)
        }
        guard joins, offset == 0 else { return }
        // A disc at each bend fills the wedge between the two segments' bands.
        for point in line.dropFirst().dropLast() {
            let sides = 10
            let base = UInt32(mesh.vertices.count)
            mesh.vertices.append(mesh.vertex(Point3(point, z), normal: up, paint))
            for k in 0..<sides {
                let angle = Double(k) / Double(sides) * 2 * .pi
                mesh.vertices.append(mesh.vertex(Point3(point.x + halfWidth * cos(angle), point.y + halfWidth * sin(angle), z), normal: up, paint))
            }
            for k in 0..<UInt32(sides) { mesh.indices += [base, base + 1 + k, base + 1 + (k + 1) % UInt32(sides)] }
        }
    }

    /// Raised sidewalks beside the carriageway, with the kerb's face toward the road.
    static func sidewalks(_ line: [ScenePoint2], road: SceneRoad, halfWidth: Double, to mesh: inout SceneMesh) {
        for (side, sign) in [(SidewalkSides.left, -1.0), (.right, 1.0)] where road.sidewalks.contains(side) {
            let centre = sign * (halfWidth + sidewalkWidth / 2)
            strip(line, halfWidth: sidewalkWidth / 2, offset: centre, z: roadHeight + kerbHeight, paving, joins: false, to: &mesh)
            for index in 0..<(line.count - 1) {
                let a = line[index], b = line[index + 1]
                let r = (b - a).normalized.right
                guard r.length > 0 else { continue }
                let e = r * (sign * halfWidth)
                let facing = r * -sign
                mesh.quad(Point3(a + e, roadHeight), Point3(b + e, roadHeight), Point3(b + e, roadHeight + kerbHeight),
                          Point3(a + e, roadHeight + kerbHeight), kerb, normal: Point3(facing.x, facing.y, 0))
            }
        }
    }

    /// Lane lines: a dashed centre line on two-way roads wide enough for two lanes, dashed lane
    /// dividers where OSM counts more lanes, solid edge lines on the larger roads.
    static func markings(_ line: [ScenePoint2], road: SceneRoad, width: Double, to mesh: inout SceneMesh) {
        guard road.kind.isCarriageway, road.kind != .service, road.kind != .livingStreet, width >= 5 else { return }
        let lanes = max(road.lanes ?? (road.isOneway ? 1 : 2), 1)
        let laneWidth = width / Double(lanes)
        for lane in 1..<max(lanes, 1) {
            let offset = -width / 2 + Double(lane) * laneWidth
            dashes(line, offset: offset, to: &mesh)
        }
        if [.motorway, .trunk, .primary].contains(road.kind) {
            for sign in [-1.0, 1.0] {
                strip(line, halfWidth: 0.08, offset: sign * (width / 2 - 0.35), z: markingHeight, marking, joins: false, to: &mesh)
            }
        }
    }

    /// Dashes 3 m long every 9 m, `offset` metres right of the line.
    static func dashes(_ line: [ScenePoint2], offset: Double, to mesh: inout SceneMesh) {
        var phase = 0.0
        for index in 0..<(line.count - 1) {
            let a = line[index], b = line[index + 1]
            let length = (b - a).length
            guard length > 0 else { continue }
            let d = (b - a) * (1 / length), r = d.right
            var t = phase
            while t < length {
                let end = min(t + 3, length)
                let p = a + d * t + r * offset, q = a + d * end + r * offset
                mesh.quad(Point3(p - r * 0.07, markingHeight), Point3(p + r * 0.07, markingHeight),
                          Point3(q + r * 0.07, markingHeight), Point3(q - r * 0.07, markingHeight), marking, normal: Point3(0, 0, 1))
                t += 9
            }
            phase = t - length
        }
    }

    /// Two rails at standard gauge (1.435 m), 7 cm wide.
    static func rails(_ line: [ScenePoint2], z: Double, to mesh: inout SceneMesh) {
        for sign in [-1.0, 1.0] { strip(line, halfWidth: 0.035, offset: sign * 0.7525, z: z, rail, joins: false, to: &mesh) }
    }

    /// Zebra stripes across the carriageway nearest `point`, running with the traffic.
    static func zebra(at point: ScenePoint2, roads: [(SceneRoad, [ScenePoint2])], to mesh: inout SceneMesh) {
        var best: (distance: Double, direction: ScenePoint2, width: Double)?
        for (road, line) in roads where road.kind.isCarriageway && !road.isTunnel {
            for index in 0..<max(line.count - 1, 0) {
                let a = line[index], b = line[index + 1]
                let ab = b - a, l2 = ab.dot(ab)
                guard l2 > 0 else { continue }
                let t = max(0, min(1, (point - a).dot(ab) / l2))
                let distance = (a + ab * t - point).length
                if distance < (best?.distance ?? 3) { best = (distance, ab.normalized, width(of: road)) }
            }
        }
        guard let best else { return }
        let d = best.direction, r = d.right
        var across = -best.width / 2 + 0.4
        while across + 0.5 <= best.width / 2 - 0.2 {
            let c = point + r * (across + 0.25)
            mesh.quad(Point3(c - d * 1.5 - r * 0.25, markingHeight), Point3(c - d * 1.5 + r * 0.25, markingHeight),
                      Point3(c + d * 1.5 + r * 0.25, markingHeight), Point3(c + d * 1.5 - r * 0.25, markingHeight), marking, normal: Point3(0, 0, 1))
            across += 1
        }
    }
}

extension SceneRoadKind {
    /// Whether motor traffic drives on it (asphalt, kerbs, lane markings).
    var isCarriageway: Bool {
        switch self {
        case .motorway, .trunk, .primary, .secondary, .tertiary, .residential, .unclassified, .service, .livingStreet: return true
        default: return false
        }
    }
}
