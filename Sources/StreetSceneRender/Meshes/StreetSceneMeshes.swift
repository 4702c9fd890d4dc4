// A scene's objects → one mesh and its label atlas: the ground, the covers, the roads, the
// buildings, the street furniture, and the words (signs on the facades that face the street, house
// numbers, street names painted on the road ahead, bus stop plates).

import Foundation
import MapGeometry
import MapRender
import StreetScene

/// The meshes of one standpoint's surroundings, ready to draw from any heading.
public struct StreetSceneMeshes: Sendable {
    public var mesh: SceneMesh
    /// The label atlas the mesh's `.label` triangles sample (nil when the scene has no words).
    public var atlas: (width: Int, height: Int, rgba: [UInt8])?
    /// How many of each the scene drew, for tests and benchmarks.
    public var buildingCount = 0, roadCount = 0, treeCount = 0, labelCount = 0
    /// Street names to show over the picture, each where its street passes the viewer (see
    /// ``StreetLabel``): drawn after the frame, upright and readable from any heading, where a name
    /// painted on the road would be seen so flat from eye height that it could not be read.
    public var streetLabels: [StreetLabel] = []
    /// The ground lines of the buildings' walls, in metres: what hides a street's name from the viewer.
    public var wallLines: [(a: ScenePoint2, b: ScenePoint2)] = []

    /// Builds the meshes of `objects` around `frame`'s origin within `radius` metres.
    /// - Parameters:
    ///   - eye: where the viewer stands, in metres (street names are placed for it).
    ///   - showsRoadLabels: whether street names are painted on the roads.
    ///   - showsBusiness: whether a business's sign is drawn, given its category tag (`shop=bakery`).
    public static func build(_ objects: SceneObjects, frame: LocalFrame, radius: Double, eye: ScenePoint2,
                             fonts: FontCatalog, showsRoadLabels: Bool = true, showsBusiness: (String?) -> Bool = { _ in true }) -> StreetSceneMeshes {
        var builder = Builder(frame: frame, radius: radius, fonts: fonts)
        builder.build(objects, eye: eye, showsBusiness: showsBusiness)
        if showsRoadLabels { builder.streetNames(focus: eye) }
        return builder.finish()
    }

    /// A street's name and the point on the street where it is shown.
    public struct StreetLabel: Sendable {
        public var name: String
        /// On the street's centre line, in metres.
        public var point: ScenePoint2
    }

    /// The metres the ground plane reaches: beyond what the fog lets anyone see.
    public static let groundRadius = 2000.0
}

private struct Wall {
    var a: ScenePoint2, b: ScenePoint2, outward: ScenePoint2
    var top: Double
    var building: Int
}

/// A label waiting for the atlas to be complete: its entry and where its quad stands.
private struct PendingLabel {
    var entry: LabelAtlas.Entry
    var corners: [Point3]  // bottom-left, bottom-right, top-right, top-left
    var tint: SceneColour
}

private struct Builder {
    let frame: LocalFrame
    let radius: Double
    var mesh = SceneMesh()
    var atlas: LabelAtlas
    var labels: [PendingLabel] = []
    var walls: [Wall] = []
    var wallGrid: [Int64: [Int]] = [:]
    var roads: [(SceneRoad, [ScenePoint2])] = []
    var result = StreetSceneMeshes(mesh: SceneMesh(), atlas: nil)
    static let cell = 20.0

    init(frame: LocalFrame, radius: Double, fonts: FontCatalog) {
        self.frame = frame
        self.radius = radius
        atlas = LabelAtlas(fonts: fonts)
    }

    func local(_ ring: [CLLocationCoordinate2D]) -> [ScenePoint2] { ring.map(frame.point) }

    func isNear(_ points: [ScenePoint2]) -> Bool {
        let r2 = (radius + 50) * (radius + 50)
        return points.contains { $0.x * $0.x + $0.y * $0.y < r2 } || points.count >= 2 && {
            // A long edge may pass by with both ends far away.
            var lo = ScenePoint2(x: .infinity, y: .infinity), hi = ScenePoint2(x: -.infinity, y: -.infinity)
            for p in points { lo = ScenePoint2(x: min(lo.x, p.x), y: min(lo.y, p.y)); hi = ScenePoint2(x: max(hi.x, p.x), y: max(hi.y, p.y)) }
            return lo.x < radius && hi.x > -radius && lo.y < radius && hi.y > -radius
        }()
    }

    static func key(_ x: Int, _ y: Int) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: Int32(truncatingIfNeeded: y))) }
    static func cellIndex(_ v: Double) -> Int { Int((v / cell).rounded(.down)) }

    mutating func build(_ objects: SceneObjects, eye: ScenePoint2, showsBusiness: (String?) -> Bool) {
        GroundMesh.appendGround(radius: StreetSceneMeshes.groundRadius, to: &mesh)

        var areas: [(SceneArea, [[ScenePoint2]])] = []
        for area in objects.areas {
            let rings = area.rings.map(local)
            guard let outer = rings.first, isNear(outer) else { continue }
            areas.append((area, rings))
        }
        GroundMesh.appendAreas(areas, to: &mesh)
        for (area, rings) in areas where area.kind == .wood { scatterTrees(in: rings) }

        for road in objects.roads {
            let line = local(road.line)
            guard isNear(line) else { continue }
            roads.append((road, line))
        }
        let crossings = objects.points.filter { $0.kind == .crossing }.map { frame.point($0.coordinate) }
        GroundMesh.appendRoads(roads, crossings: crossings, to: &mesh)
        result.roadCount = roads.count

        for (index, building) in objects.buildings.enumerated() {
            // An outline with parts is drawn by its parts.
            guard !(building.hasParts && !building.isPart) else { continue }
            let rings = building.rings.map(local)
            guard let outer = rings.first, outer.count >= 3, isNear(outer) else { continue }
            BuildingMesh.append(building, rings: rings, to: &mesh)
            result.buildingCount += 1
            if building.minHeight < 2.5, !building.isPart || building.minHeight == 0 { addWalls(Rings.open(outer), top: building.height - building.roofHeight, building: index) }
        }

        for point in objects.points {
            let p = frame.point(point.coordinate)
            guard p.x * p.x + p.y * p.y < (radius + 20) * (radius + 20) else { continue }
            switch point.kind {
            case .tree:
                StreetFurniture.appendTree(at: p, height: point.height, to: &mesh)
                result.treeCount += 1
            case .streetLamp:
                StreetFurniture.appendStreetLamp(at: p, toward: nearestRoadDirection(from: p), to: &mesh)
            case .bench: StreetFurniture.appendBench(at: p, facing: nearestRoadDirection(from: p), to: &mesh)
            case .bollard: StreetFurniture.appendBollard(at: p, to: &mesh)
            case .wasteBasket: StreetFurniture.appendWasteBasket(at: p, to: &mesh)
            case .postBox: StreetFurniture.appendPostBox(at: p, to: &mesh)
            case .fountain: StreetFurniture.appendFountain(at: p, to: &mesh)
            case .crossing: break
            case .busStop:
                StreetFurniture.appendBusStopPole(at: p, to: &mesh)
                if let name = point.name { plate(name, at: p, facing: nearestRoadDirection(from: p), bottom: 2.2, height: 0.45) }
            case .entrance:
                if let wall = nearestWall(to: p, within: 3) { StreetFurniture.appendDoor(at: wall.point, outward: wall.outward, to: &mesh) }
            case .business:
                guard showsBusiness(point.category), let name = point.name else { continue }
                sign(name, for: point, at: p)
            case .houseNumber:
                guard let number = point.name else { continue }
                houseNumber(number, for: point, at: p)
            }
        }
    }

    // MARK: Trees in woods

    mutating func scatterTrees(in rings: [[ScenePoint2]]) {
        guard let outer = rings.first else { return }
        let spacing = 9.0
        let xs = outer.map(\.x), ys = outer.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return }
        var y = (max(minY, -radius) / spacing).rounded(.down) * spacing
        var planted = 0
        while y <= min(maxY, radius), planted < 1500 {
            var x = (max(minX, -radius) / spacing).rounded(.down) * spacing
            while x <= min(maxX, radius), planted < 1500 {
                let p = ScenePoint2(x: x + (sceneNoise(x, y, salt: 11) - 0.5) * spacing * 0.8, y: y + (sceneNoise(x, y, salt: 13) - 0.5) * spacing * 0.8)
                if Rings.contains(outer, p), !rings.dropFirst().contains(where: { Rings.contains($0, p) }) {
                    StreetFurniture.appendTree(at: p, height: nil, to: &mesh)
                    planted += 1
                }
                x += spacing
            }
            y += spacing
        }
        result.treeCount += planted
    }

    // MARK: Walls and roads nearby

    mutating func addWalls(_ ring: [ScenePoint2], top: Double, building: Int) {
        guard ring.count >= 3 else { return }
        let ccw = Rings.signedArea2(ring) > 0
        for index in ring.indices {
            var a = ring[index], b = ring[(index + 1) % ring.count]
            if !ccw { swap(&a, &b) }
            let edge = b - a
            guard edge.length > 1.5 else { continue }
            let wall = Wall(a: a, b: b, outward: edge.right.normalized, top: top, building: building)
            let id = walls.count
            walls.append(wall)
            for cx in Self.cellIndex(min(a.x, b.x))...Self.cellIndex(max(a.x, b.x)) {
                for cy in Self.cellIndex(min(a.y, b.y))...Self.cellIndex(max(a.y, b.y)) { wallGrid[Self.key(cx, cy), default: []].append(id) }
            }
        }
    }

    /// The nearest point on a wall within `limit` metres (of `building` only, when given).
    func nearestWall(to p: ScenePoint2, within limit: Double, building: Int? = nil, preferringStreet: Bool = false)
        -> (point: ScenePoint2, outward: ScenePoint2, wall: Wall)? {
        var best: (score: Double, point: ScenePoint2, wall: Wall)?
        let reach = Int((limit / Self.cell).rounded(.up))
        let cx = Self.cellIndex(p.x), cy = Self.cellIndex(p.y)
        var seen = Set<Int>()
        for x in (cx - reach)...(cx + reach) {
            for y in (cy - reach)...(cy + reach) {
                for id in wallGrid[Self.key(x, y)] ?? [] where seen.insert(id).inserted {
                    let wall = walls[id]
                    if let building, wall.building != building { continue }
                    let ab = wall.b - wall.a, l2 = ab.dot(ab)
                    let t = max(0.15, min(0.85, (p - wall.a).dot(ab) / l2))
                    let q = wall.a + ab * t
                    let distance = (q - p).length
                    guard distance <= limit else { continue }
                    // A sign belongs on the side that faces a street.
                    var score = distance
                    if preferringStreet { score += nearestRoadDistance(from: q + wall.outward * 2, limit: 40) * 2 }
                    if score < (best?.score ?? .infinity) { best = (score, q, wall) }
                }
            }
        }
        return best.map { ($0.point, $0.wall.outward, $0.wall) }
    }

    func nearestRoadDistance(from p: ScenePoint2, limit: Double) -> Double {
        var best = limit
        for (road, line) in roads where road.kind.isCarriageway || road.kind == .pedestrian || road.kind == .footway {
            for index in 0..<max(line.count - 1, 0) {
                let a = line[index], b = line[index + 1]
                let ab = b - a, l2 = ab.dot(ab)
                guard l2 > 0 else { continue }
                let t = max(0, min(1, (p - a).dot(ab) / l2))
                best = min(best, (a + ab * t - p).length)
            }
        }
        return best
    }

    /// The direction from `p` toward the nearest carriageway (east when there is none within 30 m).
    func nearestRoadDirection(from p: ScenePoint2) -> ScenePoint2 {
        var best: (Double, ScenePoint2)?
        for (road, line) in roads where road.kind.isCarriageway {
            for index in 0..<max(line.count - 1, 0) {
                let a = line[index], b = line[index + 1]
                let ab = b - a, l2 = ab.dot(ab)
                guard l2 > 0 else { continue }
                let q = a + ab * max(0, min(1, (p - a).dot(ab) / l2))
                let d = (q - p).length
                if d < (best?.0 ?? 30) { best = (d, q - p) }
            }
        }
        return best?.1.normalized ?? ScenePoint2(x: 1, y: 0)
    }

    // MARK: Words

    /// A text standing upright `outward` of a facade point, reading left to right from outside.
    mutating func upright(_ entry: LabelAtlas.Entry, centre: ScenePoint2, outward: ScenePoint2, bottom: Double, height: Double,
                          maximumWidth: Double, tint: SceneColour) -> Double {
        var h = height, w = entry.aspect * height
        if w > maximumWidth { h *= maximumWidth / w; w = maximumWidth }
        let right = (outward * -1).right
        let l = centre - right * (w / 2), r = centre + right * (w / 2)
        let z0 = bottom + (height - h) / 2
        labels.append(PendingLabel(entry: entry, corners: [Point3(l, z0), Point3(r, z0), Point3(r, z0 + h), Point3(l, z0 + h)], tint: tint))
        return w
    }

    /// A business's name on a board above the ground floor, on its facade that faces the street.
    mutating func sign(_ name: String, for point: ScenePoint, at p: ScenePoint2) {
        let found = nearestWall(to: p, within: point.isFromBuilding ? 60 : 25, preferringStreet: true)
        guard let found, let entry = atlas.entry(name, bold: true) else { return }
        let length = (found.wall.b - found.wall.a).length
        let bottom = min(3.1, max(found.wall.top - 0.9, 2.2))
        let boardCentre = found.point + found.outward * 0.06
        let width = upright(entry, centre: boardCentre + found.outward * 0.05, outward: found.outward, bottom: bottom, height: 0.62,
                            maximumWidth: min(length * 0.9, 9), tint: SceneColour(red: 255, green: 255, blue: 255))
        let shade = Paint(hex: [0x2E3B4E, 0x3B2E2A, 0x25463A, 0x4A2C3A, 0x333333][Int(sceneNoise(p.x, p.y, salt: 5) * 5) % 5])
        mesh.box(at: boardCentre, direction: found.outward.right, length: width + 0.3, width: 0.1, bottom: bottom - 0.06, height: 0.74, shade)
        result.labelCount += 1
    }

    /// A house number on a small plate beside the door, on the side facing the street.
    mutating func houseNumber(_ number: String, for point: ScenePoint, at p: ScenePoint2) {
        guard number.count <= 12, let found = nearestWall(to: p, within: point.isFromBuilding ? 60 : 8, preferringStreet: true),
              let entry = atlas.entry(number, bold: true) else { return }
        let centre = found.point + (found.outward * -1).right * 1.2 + found.outward * 0.04
        let width = upright(entry, centre: centre + found.outward * 0.025, outward: found.outward, bottom: 2.25, height: 0.3, maximumWidth: 1.2,
                            tint: SceneColour(red: 30, green: 40, blue: 60))
        mesh.box(at: centre, direction: found.outward.right, length: width + 0.1, width: 0.03, bottom: 2.22, height: 0.36, Paint(hex: 0xF4F4EE))
        result.labelCount += 1
    }

    /// A plate on a pole (bus stops), double-sided.
    mutating func plate(_ text: String, at p: ScenePoint2, facing: ScenePoint2, bottom: Double, height: Double) {
        guard let entry = atlas.entry(text, bold: true) else { return }
        for side in [facing, facing * -1] {
            let width = upright(entry, centre: p + side * 0.03, outward: side, bottom: bottom, height: height * 0.7, maximumWidth: 1.6,
                                tint: SceneColour(red: 255, green: 255, blue: 255))
            mesh.box(at: p, direction: side.right, length: width + 0.15, width: 0.04, bottom: bottom - 0.05, height: height,
                     Paint(hex: 0x1F4E8C))
        }
        result.labelCount += 1
    }

    /// The names of the streets near `eye`: on a street the viewer stands on, ahead and behind (so
    /// that any heading sees one); on another, where it passes nearest. Independent of the heading,
    /// so one mesh serves every direction from a standpoint.
    mutating func streetNames(focus eye: ScenePoint2) {
        var nearest: [String: (distance: Double, point: ScenePoint2, direction: ScenePoint2, width: Double)] = [:]
        for (road, line) in roads where !road.isTunnel && (road.kind.isCarriageway || road.kind == .pedestrian) {
            guard let name = road.name, !name.isEmpty else { continue }
            for index in 0..<max(line.count - 1, 0) {
                let a = line[index], b = line[index + 1]
                let ab = b - a, l2 = ab.dot(ab)
                guard l2 > 1 else { continue }
                let q = a + ab * max(0, min(1, (eye - a).dot(ab) / l2))
                let d = (q - eye).length
                if d < 80, d < (nearest[name]?.distance ?? .infinity) { nearest[name] = (d, q, ab.normalized, GroundMesh.width(of: road)) }
            }
        }
        for (name, place) in nearest.sorted(by: { $0.key < $1.key }) {
            let onIt = place.distance < place.width / 2 + 3
            let spots = onIt ? [place.point + place.direction * 18, place.point - place.direction * 18] : [place.point]
            for spot in spots { result.streetLabels.append(StreetSceneMeshes.StreetLabel(name: name, point: spot)) }
        }
    }

    mutating func finish() -> StreetSceneMeshes {
        for label in labels {
            let e = atlas.normalized(label.entry)
            let c = label.corners
            let normal = (c[1] - c[0]).cross(c[3] - c[0]).normalized
            let uv = [(e.u0, e.v1), (e.u1, e.v1), (e.u1, e.v0), (e.u0, e.v0)]
            let paint = Paint(label.tint, material: .label)
            let vertices = (0..<4).map { mesh.vertex(c[$0], normal: normal, paint, u: uv[$0].0, v: uv[$0].1) }
            mesh.appendLabel(vertices: vertices, indices: [0, 1, 2, 0, 2, 3])
        }
        result.mesh = mesh
        result.atlas = atlas.draw()
        result.wallLines = walls.map { ($0.a, $0.b) }
        return result
    }
}
