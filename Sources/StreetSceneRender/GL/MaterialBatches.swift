/// A mesh's opaque triangles regrouped by material, so each material is drawn by its own program
/// (see `SceneShaders.sceneFragment(material:)`), and its indices checked on the way.
struct MaterialBatches {
    /// The materials in the order their triangles are stored; anything else draws as `.plain`
    /// (including `.label` triangles in the opaque list).
    static let materials: [SceneMaterial] = [.plain, .facade, .glossy]

    /// All the triangles' indices, grouped in the order of ``materials``.
    var indices: [UInt32]
    /// How many indices each group holds.
    var counts: [Int]

    /// Groups `indices` (triangles; a trailing incomplete one is dropped) by the material of each
    /// triangle's first vertex. Throws when an index is past the vertices.
    init(vertices: [SceneVertex], indices source: [UInt32]) throws(SceneRenderError) {
        let triangleCount = source.count / 3
        var groups = [UInt8](repeating: 0, count: triangleCount)
        var triangles = [0, 0, 0]
        var badIndex: UInt32?
        // Plain loops over unsafe buffers: a few hundred thousand triangles a frame, and debug
        // builds make anything generic here cost more than drawing them.
        vertices.withUnsafeBufferPointer { vertices in
            source.withUnsafeBufferPointer { source in
                groups.withUnsafeMutableBufferPointer { groups in
                    let vertexCount = UInt32(truncatingIfNeeded: vertices.count)
                    for triangle in 0..<triangleCount {
                        let first = source[3 * triangle]
                        guard first < vertexCount, source[3 * triangle + 1] < vertexCount, source[3 * triangle + 2] < vertexCount else {
                            badIndex = max(first, source[3 * triangle + 1], source[3 * triangle + 2])
                            return
                        }
                        let material = vertices[Int(first)].material
                        let group: UInt8 = material > 0.5 && material < 1.5 ? 1 : (material > 2.5 && material < 3.5 ? 2 : 0)
                        groups[triangle] = group
                        triangles[Int(group)] += 1
                    }
                }
            }
        }
        if let badIndex { throw .invalidInput("triangle index \(badIndex) is past the \(vertices.count) vertices") }
        var output = [UInt32](repeating: 0, count: triangleCount * 3)
        var next = [0, triangles[0] * 3, (triangles[0] + triangles[1]) * 3]
        source.withUnsafeBufferPointer { source in
            groups.withUnsafeBufferPointer { groups in
                output.withUnsafeMutableBufferPointer { output in
                    for triangle in 0..<triangleCount {
                        let group = Int(groups[triangle])
                        let at = next[group]
                        output[at] = source[3 * triangle]
                        output[at + 1] = source[3 * triangle + 1]
                        output[at + 2] = source[3 * triangle + 2]
                        next[group] = at + 3
                    }
                }
            }
        }
        self.indices = output
        self.counts = triangles.map { $0 * 3 }
    }
}
