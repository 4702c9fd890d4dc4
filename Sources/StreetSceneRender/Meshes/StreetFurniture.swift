// What stands on the ground at points: trees, street lamps, benches, bus stops, bollards, waste
// baskets, post boxes, fountains. Sizes are those of common street furniture; what OSM tags (a
// tree's height) wins.

import Foundation
import StreetScene

enum StreetFurniture {
    static let trunk = Paint(hex: 0x6B5038), metalDark = Paint(hex: 0x3C4045), stone = Paint(hex: 0xBDB5A6)
    static let foliage: [UInt32] = [0x4F7A36, 0x5A8640, 0x46702F, 0x628B45]

    static func appendTree(at p: ScenePoint2, height tagged: Double?, to mesh: inout SceneMesh) {
        let jitter = sceneNoise(p.x, p.y, salt: 3)
        let height = min(max(tagged ?? (7 + 5 * jitter), 2), 40)
        mesh.prism(at: p, radius: 0.12 + 0.01 * height, bottom: 0, top: height * 0.45, sides: 6, trunk)
        let crown = Paint(hex: foliage[Int(jitter * Double(foliage.count)) % foliage.count])
        mesh.ellipsoid(centre: Point3(p, height * 0.64), radius: height * 0.28, verticalRadius: height * 0.36, segments: 8, rings: 5, crown)
    }

    /// A lamp post 6 m tall with its arm and head leaning over `toward` (the road).
    static func appendStreetLamp(at p: ScenePoint2, toward: ScenePoint2, to mesh: inout SceneMesh) {
        mesh.prism(at: p, radius: 0.07, bottom: 0, top: 6, sides: 6, metalDark)
        let d = toward.length > 0 ? toward.normalized : ScenePoint2(x: 1, y: 0)
        mesh.box(at: p + d * 0.6, direction: d, length: 1.2, width: 0.08, bottom: 5.9, height: 0.08, metalDark)
        mesh.box(at: p + d * 1.25, direction: d, length: 0.6, width: 0.28, bottom: 5.75, height: 0.16, metalDark)
        mesh.box(at: p + d * 1.25, direction: d, length: 0.5, width: 0.22, bottom: 5.72, height: 0.03, Paint(hex: 0xF4EEDA))
    }

    static func appendBench(at p: ScenePoint2, facing: ScenePoint2, to mesh: inout SceneMesh) {
        let along = facing.length > 0 ? facing.normalized.right : ScenePoint2(x: 1, y: 0)
        let wood = Paint(hex: 0x7A5A3C)
        mesh.box(at: p, direction: along, length: 1.8, width: 0.45, bottom: 0.42, height: 0.06, wood)
        mesh.box(at: p - along.right * 0.22, direction: along, length: 1.8, width: 0.06, bottom: 0.5, height: 0.4, wood)
        for end in [-0.8, 0.8] { mesh.box(at: p + along * end, direction: along, length: 0.06, width: 0.45, bottom: 0, height: 0.42, metalDark) }
    }

    /// A bus stop's pole with its sign plate (the plate's text is a label).
    static func appendBusStopPole(at p: ScenePoint2, to mesh: inout SceneMesh) {
        mesh.prism(at: p, radius: 0.04, bottom: 0, top: 2.7, sides: 6, metalDark)
    }

    static func appendBollard(at p: ScenePoint2, to mesh: inout SceneMesh) {
        mesh.prism(at: p, radius: 0.1, bottom: 0, top: 0.9, sides: 8, metalDark)
    }

    static func appendWasteBasket(at p: ScenePoint2, to mesh: inout SceneMesh) {
        mesh.prism(at: p, radius: 0.22, bottom: 0.1, top: 0.9, sides: 8, Paint(hex: 0x4A5A4A))
        mesh.prism(at: p, radius: 0.04, bottom: 0, top: 0.1, sides: 6, metalDark)
    }

    static func appendPostBox(at p: ScenePoint2, to mesh: inout SceneMesh) {
        mesh.box(at: p, direction: ScenePoint2(x: 1, y: 0), length: 0.45, width: 0.35, bottom: 0.4, height: 0.6, Paint(hex: 0x5B6470))
        mesh.prism(at: p, radius: 0.05, bottom: 0, top: 0.4, sides: 6, metalDark)
    }

    static func appendFountain(at p: ScenePoint2, to mesh: inout SceneMesh) {
        mesh.prism(at: p, radius: 2.2, bottom: 0, top: 0.5, sides: 16, stone)
        mesh.prism(at: p, radius: 2.0, bottom: 0, top: 0.52, sides: 16, Paint(hex: 0x4F7F9C, material: .glossy))
        mesh.prism(at: p, radius: 0.25, bottom: 0.5, top: 1.6, sides: 8, stone)
        mesh.prism(at: p, radius: 0.7, bottom: 1.6, top: 1.75, sides: 12, stone)
    }

    /// A door: a dark panel standing just in front of the wall.
    static func appendDoor(at p: ScenePoint2, outward: ScenePoint2, to mesh: inout SceneMesh) {
        let face = p + outward * 0.05, along = outward.right
        mesh.quad(Point3(face - along * 0.6, 0), Point3(face + along * 0.6, 0), Point3(face + along * 0.6, 2.3), Point3(face - along * 0.6, 2.3),
                  Paint(hex: 0x4A3B30), normal: Point3(outward.x, outward.y, 0))
    }
}
