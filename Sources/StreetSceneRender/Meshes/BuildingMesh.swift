// Buildings: walls extruded from the footprint, roofs built from OSM's roof tags.
//
// Every roof shape is the lowest of a few planes over the footprint (a gabled roof is two planes
// meeting at the ridge, a hipped roof four, a pyramid four meeting at a point, a cone twelve):
// the roof's height at any point is the minimum of the planes, so each plane's face is the part
// of the footprint where it is lowest, cut out by half-planes, and walls rise to the roof's
// height at each corner (gable ends come out of that by themselves). This holds for any
// footprint, not only rectangles, as OSM-3D renderers (OSM Buildings, F4) fit roofs to the
// footprint's oriented box.

import Foundation
import StreetScene

/// A plane over the ground: height = base + gradient · (p − centre), metres above the walls' top.
struct RoofPlane {
    var centre: ScenePoint2
    var base: Double
    var gradient: ScenePoint2
    func height(_ p: ScenePoint2) -> Double { base + gradient.dot(p - centre) }
}

enum BuildingMesh {
    /// Walls and roof of `building`, its rings already in the scene's metres.
    static func append(_ building: SceneBuilding, rings: [[ScenePoint2]], to mesh: inout SceneMesh, roofOverride: Paint? = nil) {
        var rings = rings.map(Rings.open).filter { $0.count >= 3 }
        guard !rings.isEmpty else { return }
        // Outer ring counter-clockwise, holes clockwise: the right of each edge is then outside.
        for index in rings.indices {
            let ccw = Rings.signedArea2(rings[index]) > 0
            if ccw != (index == 0) { rings[index].reverse() }
        }
        let top = max(building.height, building.minHeight + 0.5)
        // A flat roof has no height of its own, whatever roof:height says: the walls reach the top.
        let roofHeight = building.roofShape == .flat ? 0 : min(max(building.roofHeight, 0), top - building.minHeight)
        let wallTop = top - roofHeight
        let planes = roofHeight > 0.05 ? roofPlanes(building, outer: rings[0], height: roofHeight) : []
        func roofAt(_ p: ScenePoint2) -> Double {
            guard let first = planes.first else { return 0 }
            return max(0, planes.dropFirst().reduce(first.height(p)) { min($0, $1.height(p)) })
        }

        var wallPaint = wallPaint(for: building, near: rings[0][0])
        if wallPaint.material == .facade {
            // Windows per tagged level; the rasteriser's default (3 m) otherwise.
            let levelHeight = building.levels.map { (wallTop - building.minHeight) / Double(max($0, 1)) } ?? 3
            wallPaint.alpha = SceneVertex.facadeAlpha(levelHeight: levelHeight)
        }
        // An open structure (`building=roof`: a carport, a canopy) is a roof on posts: a thin band here.
        let wallBottom = building.kind == "roof" ? max(building.minHeight, wallTop - 0.4) : building.minHeight
        for ring in rings {
            var along = 0.0
            for index in ring.indices {
                let a = ring[index], b = ring[(index + 1) % ring.count]
                let edge = b - a
                let length = edge.length
                guard length > 0.01 else { continue }
                let outward = edge.right.normalized
                let normal = Point3(outward.x, outward.y, 0)
                // Split the edge where the lowest roof plane changes, so each piece's top is straight.
                var cuts: [Double] = [0, 1]
                if planes.count > 1 {
                    for i in 0..<planes.count {
                        for j in (i + 1)..<planes.count {
                            let ha = planes[i].height(a) - planes[j].height(a), hb = planes[i].height(b) - planes[j].height(b)
                            if (ha < 0) != (hb < 0), abs(ha - hb) > 1e-9 {
                                let t = ha / (ha - hb)
                                if t > 1e-4, t < 1 - 1e-4 { cuts.append(t) }
                            }
                        }
                    }
                    cuts.sort()
                }
                for k in 0..<(cuts.count - 1) {
                    let p = a + edge * cuts[k], q = a + edge * cuts[k + 1]
                    let up = along + length * cuts[k], uq = along + length * cuts[k + 1]
                    let tp = wallTop + roofAt(p), tq = wallTop + roofAt(q)
                    mesh.quad(Point3(p, wallBottom), Point3(q, wallBottom), Point3(q, tq), Point3(p, tp), wallPaint, normal: normal,
                              uv: [(up, wallBottom), (uq, wallBottom), (uq, tq), (up, tp)])
                }
                along += length
            }
        }

        let roofPaint = roofOverride ?? roofPaint(for: building, pitched: !planes.isEmpty)
        if planes.isEmpty {
            mesh.flat(rings, z: top, roofPaint)
            if wallBottom > 0.3 { mesh.flat(rings, z: wallBottom, roofPaint.scaled(0.6)) }  // the underside of what floats
            return
        }
        for (i, plane) in planes.enumerated() {
            // The part of the footprint where this plane is the lowest.
            var pieces = rings
            for (j, other) in planes.enumerated() where j != i {
                pieces = pieces.map { clip($0, keepingWhere: { plane.height($0) - other.height($0) }) }.filter { $0.count >= 3 }
                if pieces.isEmpty { break }
            }
            guard !pieces.isEmpty else { continue }
            let (points, triangles) = Tessellator.triangulate(pieces)
            guard !triangles.isEmpty else { continue }
            let normal = Point3(-plane.gradient.x, -plane.gradient.y, 1).normalized
            let base = UInt32(mesh.vertices.count)
            for point in points {
                mesh.vertices.append(mesh.vertex(Point3(point, wallTop + max(0, plane.height(point))), normal: normal, roofPaint))
            }
            mesh.indices += triangles.map { $0 + base }
        }
    }

    /// Sutherland–Hodgman: the part of `ring` where `value` ≤ 0 (a linear function, so one cut line).
    static func clip(_ ring: [ScenePoint2], keepingWhere value: (ScenePoint2) -> Double) -> [ScenePoint2] {
        var result: [ScenePoint2] = []
        guard var previous = ring.last else { return result }
        var previousValue = value(previous)
        for point in ring {
            let current = value(point)
            if (current <= 0) != (previousValue <= 0) {
                let t = previousValue / (previousValue - current)
                result.append(previous + (point - previous) * t)
            }
            if current <= 0 { result.append(point) }
            previous = point
            previousValue = current
        }
        return result
    }

    /// The planes of the roof's shape over the footprint's oriented box.
    static func roofPlanes(_ building: SceneBuilding, outer: [ScenePoint2], height: Double) -> [RoofPlane] {
        // The box is aligned with the footprint's longest edge, as roofs usually run with the walls.
        var axis = ScenePoint2(x: 1, y: 0), longest = 0.0
        for index in outer.indices {
            let edge = outer[(index + 1) % outer.count] - outer[index]
            if edge.length > longest { longest = edge.length; axis = edge.normalized }
        }
        let cross = axis.right
        func extent(_ direction: ScenePoint2) -> (min: Double, max: Double) {
            outer.reduce((Double.infinity, -Double.infinity)) { (min($0.0, $1.dot(direction)), max($0.1, $1.dot(direction))) }
        }
        let ea = extent(axis), ec = extent(cross)
        let centre = axis * ((ea.min + ea.max) / 2) + cross * ((ec.min + ec.max) / 2)
        // The ridge runs along the longer side unless the tags say otherwise.
        var ridge = (ea.max - ea.min) >= (ec.max - ec.min) ? axis : cross
        if building.roofAcross { ridge = ridge.right }
        if let direction = building.roofDirection, direction.isFinite {
            // roof:direction is where the slope faces; the ridge runs across it.
            let radians = direction * .pi / 180
            let facing = ScenePoint2(x: sin(radians), y: cos(radians))
            if building.roofShape == .skillion { ridge = facing.right } else {
                ridge = abs(facing.dot(axis)) > abs(facing.dot(cross)) ? cross : axis
            }
        }
        let side = ridge.right
        let halfAlong = max((extent(ridge).max - extent(ridge).min) / 2, 0.5)
        let halfAcross = max((extent(side).max - extent(side).min) / 2, 0.5)
        func slope(_ direction: ScenePoint2, _ half: Double, base: Double = height) -> RoofPlane {
            // height at centre `base`, falling to `base - height` at `half` along `direction`.
            RoofPlane(centre: centre, base: base, gradient: direction * (-height / half))
        }
        switch building.roofShape {
        case .flat:
            return []
        case .gabled, .round, .gambrel:
            return [slope(side, halfAcross), slope(side * -1, halfAcross)]
        case .hipped, .halfHipped, .mansard:
            // The end planes reach the full height halfAcross in from the ends, as hips of equal pitch do.
            let endBase = height * halfAlong / halfAcross
            return [slope(side, halfAcross), slope(side * -1, halfAcross),
                    slope(ridge, halfAcross, base: endBase), slope(ridge * -1, halfAcross, base: endBase)]
        case .pyramidal:
            return [slope(side, halfAcross), slope(side * -1, halfAcross), slope(ridge, halfAlong), slope(ridge * -1, halfAlong)]
        case .skillion:
            // High at the back, low at the front (the side roof:direction names).
            let facing = ridge.right * -1
            let e = extent(facing)
            let mid = (e.min + e.max) / 2, half = max((e.max - e.min) / 2, 0.5)
            let shift = facing * (mid - facing.dot(centre))
            return [RoofPlane(centre: centre + shift, base: height / 2, gradient: facing * (-height / (2 * half)))]
        case .dome, .onion, .cone:
            // Twelve planes around the footprint's centre, each reaching the eaves at its farthest point.
            let middle = Rings.centroid(outer)
            return (0..<12).map { index in
                let angle = Double(index) / 12 * 2 * .pi
                let direction = ScenePoint2(x: cos(angle), y: sin(angle))
                let reach = max(outer.map { ($0 - middle).dot(direction) }.max() ?? 1, 0.5)
                return RoofPlane(centre: middle, base: height, gradient: direction * (-height / reach))
            }
        }
    }

    // MARK: - Colours

    /// Wall colours for untagged buildings: plasters and stones common on every continent, chosen
    /// per building by position so that a street is not one colour.
    static let plasters: [UInt32] = [0xE8DFCF, 0xDDD3C0, 0xE6D5B8, 0xD9CBB6, 0xEDE6DA, 0xD6D0C4, 0xE3CDB0, 0xCFC6B8]

    static func wallPaint(for building: SceneBuilding, near point: ScenePoint2) -> Paint {
        let noWindows = ["garage", "garages", "shed", "hut", "roof", "carport", "storage_tank", "silo", "bunker", "wall", "ruins"]
        let material: SceneMaterial = noWindows.contains(building.kind) ? .plain : .facade
        if let colour = building.wallColour { return Paint(colour, material: material) }
        switch building.wallMaterial?.lowercased() {
        case "glass"?, "mirror"?: return Paint(hex: 0x6F8FA6, material: .glossy)
        case "brick"?, "bricks"?: return Paint(hex: 0xA0583E, material: material)
        case "concrete"?, "cement_block"?: return Paint(hex: 0xB9B5AD, material: material)
        case "stone"?, "sandstone"?, "limestone"?: return Paint(hex: 0xCDBFA3, material: material)
        case "wood"?, "timber_framing"?: return Paint(hex: 0x8E6B4A, material: material)
        case "metal"?, "steel"?: return Paint(hex: 0x9AA1A8, material: material)
        default: break
        }
        let pick = plasters[Int(sceneNoise(point.x, point.y, salt: 7) * Double(plasters.count)) % plasters.count]
        return Paint(hex: pick, material: material)
    }

    static func roofPaint(for building: SceneBuilding, pitched: Bool) -> Paint {
        if let colour = building.roofColour { return Paint(colour) }
        switch building.roofMaterial?.lowercased() {
        case "roof_tiles"?, "tile"?, "tiles"?, "clay"?: return Paint(hex: 0xA9573C)
        case "slate"?: return Paint(hex: 0x4E5359)
        case "metal"?, "copper"?, "tin"?: return Paint(hex: 0x8C949A)
        case "glass"?: return Paint(hex: 0x7E9CB0, material: .glossy)
        case "grass"?, "plants"?: return Paint(hex: 0x6F8F4E)
        case "concrete"?, "gravel"?, "asphalt"?, "tar_paper"?: return Paint(hex: 0x9C9891)
        default: return pitched ? Paint(hex: 0x9E5A43) : Paint(hex: 0xA9A59D)
        }
    }
}
