// The triangles of a scene, in the form the GPU takes them: one interleaved vertex array and
// 32-bit indices. Built on the CPU from the scene's objects (this folder), drawn by `SceneRasterizer`.
//
// Coordinates are metres in a local frame around the scene's origin: x east, y north, z up. At
// street scale (a few hundred metres) the flat frame is exact to centimetres.

import StreetScene

/// How the fragment shader colours a triangle.
public enum SceneMaterial: Float, Sendable {
    /// The vertex colour, lit.
    case plain = 0
    /// A building's wall: the vertex colour with windows drawn per level; `u` is metres along the
    /// wall from its corner and `v` metres above the ground.
    case facade = 1
    /// A glyph texture from the scene's label atlas (signs, house numbers, street names), at `u`, `v`
    /// in 0…1; the vertex colour tints the text; not lit.
    case label = 2
    /// Glass or water: the vertex colour with the sky's reflection, lit.
    case glossy = 3
}

/// One vertex: position, normal, colour, texture coordinates and material, interleaved as the
/// shader reads them (`MemoryLayout<SceneVertex>.stride` bytes).
public struct SceneVertex: Sendable {
    public var x: Float, y: Float, z: Float
    public var nx: Float, ny: Float, nz: Float
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
    public var u: Float, v: Float
    public var material: Float

    public init(x: Float, y: Float, z: Float, nx: Float, ny: Float, nz: Float,
                red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255,
                u: Float = 0, v: Float = 0, material: SceneMaterial = .plain) {
        self.x = x; self.y = y; self.z = z
        self.nx = nx; self.ny = ny; self.nz = nz
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        self.u = u; self.v = v
        self.material = material.rawValue
    }
}

/// Triangles to draw: opaque ones first, then the translucent ones (labels), each in its own list
/// so the rasteriser can draw labels after everything they stand on.
public struct SceneMesh: Sendable {
    public var vertices: [SceneVertex] = []
    public var indices: [UInt32] = []
    /// Label quads (material `.label`), drawn after the opaque triangles with blending.
    public var labelVertices: [SceneVertex] = []
    public var labelIndices: [UInt32] = []

    public init() {}

    public var triangleCount: Int { (indices.count + labelIndices.count) / 3 }

    /// Appends a triangle list whose indices count from 0 within `vertices`.
    public mutating func append(vertices newVertices: [SceneVertex], indices newIndices: [UInt32]) {
        let base = UInt32(vertices.count)
        vertices += newVertices
        indices += newIndices.map { $0 + base }
    }

    /// Appends label triangles (material `.label`) the same way.
    public mutating func appendLabel(vertices newVertices: [SceneVertex], indices newIndices: [UInt32]) {
        let base = UInt32(labelVertices.count)
        labelVertices += newVertices
        labelIndices += newIndices.map { $0 + base }
    }
}
