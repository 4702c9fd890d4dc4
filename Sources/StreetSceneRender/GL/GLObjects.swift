import CEGL
import Foundation

/// The GL objects of one rasteriser's context and the frame drawing that uses them. Only used with
/// the context current and the rasteriser's lock held.
final class GLObjects {
    /// A linked program and the locations of the uniforms the frame sets.
    private struct Program {
        let id: GLuint
        let uniforms: [String: GLint]

        init(vertex: String, fragment: String, name: String, uniforms names: [String]) throws(SceneRenderError) {
            id = try GLObjects.link(vertex: vertex, fragment: fragment, name: name)
            var uniforms: [String: GLint] = [:]
            for uniform in names { uniforms[uniform] = glGetUniformLocation(id, uniform) }
            self.uniforms = uniforms
        }

        func location(_ name: String) -> GLint { uniforms[name] ?? -1 }
    }

    private static let skyUniforms = ["uSunDirection", "uSunGlow", "uZenith", "uHorizon"]
    private static let viewUniforms = ["uFog", "uViewProjection", "uEye"]
    private static let lightUniforms = ["uSunLight", "uAmbient", "uSkyLight", "uGroundLight"]

    private var programs: [Program] = []
    /// The sky, the opaque triangles one per ``MaterialBatches/materials`` entry, the labels.
    private var skyProgram: Program { programs[0] }
    private var labelProgram: Program { programs[1] }
    private func sceneProgram(_ group: Int) -> Program { programs[2 + group] }
    /// Vertex arrays: none (the sky's vertices come from their index), the opaque and the label triangles.
    private var emptyArray: GLuint = 0, opaqueArray: GLuint = 0, labelArray: GLuint = 0
    /// Vertex and index buffers of the opaque triangles, then of the labels.
    private var buffers: [GLuint] = [0, 0, 0, 0]
    private var atlasTexture: GLuint = 0
    /// The atlas last uploaded: comparing arrays is immediate when the caller passes the same one again.
    private var uploadedAtlas: (width: Int, height: Int, pixels: [UInt8])?
    /// The multisampled framebuffer drawn into, and the single-sampled one it resolves to for reading.
    private var framebuffers = Framebuffers()
    private let samples: GLsizei
    private let maximumTextureSize: Int

    private struct Framebuffers {
        var width = 0, height = 0
        var multisampled: GLuint = 0, resolved: GLuint = 0
        var renderbuffers: [GLuint] = [0, 0, 0]   // multisampled colour and depth, resolved colour
    }

    /// The number of samples per pixel the framebuffer has (0: not multisampled).
    var sampleCount: Int { Int(samples) }

    init(samples requestedSamples: Int) throws(SceneRenderError) {
        do {
            programs.append(try Program(vertex: SceneShaders.skyVertex, fragment: SceneShaders.skyFragment, name: "sky",
                                        uniforms: Self.skyUniforms + ["uForward", "uRight", "uUp", "uTangents"]))
            programs.append(try Program(vertex: SceneShaders.sceneVertex, fragment: SceneShaders.labelFragment, name: "label",
                                        uniforms: Self.skyUniforms + Self.viewUniforms + Self.lightUniforms + ["uAtlas"]))
            for material in MaterialBatches.materials {
                programs.append(try Program(vertex: SceneShaders.sceneVertex,
                                            fragment: SceneShaders.sceneFragment(material: Int(material.rawValue)),
                                            name: "scene (\(material))",
                                            uniforms: Self.skyUniforms + Self.viewUniforms + Self.lightUniforms))
            }
        } catch {
            for program in programs { glDeleteProgram(program.id) }
            throw error
        }
        var maxSamples: GLint = 0, maxTexture: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_SAMPLES), &maxSamples)
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxTexture)
        // One sample is an ordinary renderbuffer (0 samples to GL); more are clamped to what GL offers.
        samples = requestedSamples <= 1 ? 0 : GLsizei(max(0, min(GLint(requestedSamples), maxSamples)))
        maximumTextureSize = Int(maxTexture)
        glGenVertexArrays(1, &emptyArray)
        glGenVertexArrays(1, &opaqueArray)
        glGenVertexArrays(1, &labelArray)
        glGenBuffers(4, &buffers)
        Self.describeVertices(array: opaqueArray, vertexBuffer: buffers[0], indexBuffer: buffers[1])
        Self.describeVertices(array: labelArray, vertexBuffer: buffers[2], indexBuffer: buffers[3])
        glBindVertexArray(0)

        glGenTextures(1, &atlasTexture)
        glBindTexture(GLenum(GL_TEXTURE_2D), atlasTexture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR_MIPMAP_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        let error = glGetError()
        if error != GLenum(GL_NO_ERROR) { delete(); throw .contextFailed("setting up GL objects: GL error \(Self.hex(error))") }
    }

    func delete() {
        for program in programs { glDeleteProgram(program.id) }
        programs = []
        glDeleteVertexArrays(1, &emptyArray)
        glDeleteVertexArrays(1, &opaqueArray)
        glDeleteVertexArrays(1, &labelArray)
        glDeleteBuffers(4, &buffers)
        glDeleteTextures(1, &atlasTexture)
        deleteFramebuffers()
    }

    static func hex(_ code: GLenum) -> String { "0x" + String(code, radix: 16) }

    // MARK: Programs

    private static func compile(_ source: String, type: Int32, name: String) throws(SceneRenderError) -> GLuint {
        let shader = glCreateShader(GLenum(type))
        guard shader != 0 else { throw .shaderFailed("\(name): glCreateShader failed (GL error \(hex(glGetError())))") }
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var status: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &status)
        guard status == GL_TRUE else {
            let log = infoLog(shader, length: glGetShaderiv, read: glGetShaderInfoLog)
            glDeleteShader(shader)
            throw .shaderFailed("\(name) \(type == GL_VERTEX_SHADER ? "vertex" : "fragment") shader: \(log)")
        }
        return shader
    }

    fileprivate static func link(vertex: String, fragment: String, name: String) throws(SceneRenderError) -> GLuint {
        let vertexShader = try compile(vertex, type: GL_VERTEX_SHADER, name: name)
        defer { glDeleteShader(vertexShader) }
        let fragmentShader = try compile(fragment, type: GL_FRAGMENT_SHADER, name: name)
        defer { glDeleteShader(fragmentShader) }
        let program = glCreateProgram()
        glAttachShader(program, vertexShader)
        glAttachShader(program, fragmentShader)
        glLinkProgram(program)
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        guard status == GL_TRUE else {
            let log = infoLog(program, length: glGetProgramiv, read: glGetProgramInfoLog)
            glDeleteProgram(program)
            throw .shaderFailed("\(name) program: \(log)")
        }
        return program
    }

    private static func infoLog(_ object: GLuint,
                                length: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
                                read: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void) -> String {
        var size: GLint = 0
        length(object, GLenum(GL_INFO_LOG_LENGTH), &size)
        guard size > 0 else { return "(no log)" }
        var bytes = [GLchar](repeating: 0, count: Int(size) + 1)
        read(object, size, nil, &bytes)
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Points `array`'s attributes into `vertexBuffer` laid out as ``SceneVertex`` and gives it
    /// `indexBuffer`; the buffers' contents are replaced each frame, the description stays.
    private static func describeVertices(array: GLuint, vertexBuffer: GLuint, indexBuffer: GLuint) {
        glBindVertexArray(array)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
        let stride = GLsizei(MemoryLayout<SceneVertex>.stride)
        // Offsets of stored properties always exist; the fallbacks are the declared layout.
        let attributes: [(index: GLuint, size: GLint, type: Int32, normalized: Bool, offset: Int)] = [
            (0, 3, GL_FLOAT, false, MemoryLayout<SceneVertex>.offset(of: \.x) ?? 0),
            (1, 3, GL_FLOAT, false, MemoryLayout<SceneVertex>.offset(of: \.nx) ?? 12),
            (2, 4, GL_UNSIGNED_BYTE, true, MemoryLayout<SceneVertex>.offset(of: \.red) ?? 24),
            (3, 2, GL_FLOAT, false, MemoryLayout<SceneVertex>.offset(of: \.u) ?? 28),
        ]
        for attribute in attributes {
            glEnableVertexAttribArray(attribute.index)
            glVertexAttribPointer(attribute.index, attribute.size, GLenum(attribute.type),
                                  GLboolean(attribute.normalized ? GL_TRUE : GL_FALSE), stride,
                                  UnsafeRawPointer(bitPattern: attribute.offset))
        }
    }

    // MARK: Framebuffers

    private func deleteFramebuffers() {
        glDeleteFramebuffers(1, &framebuffers.multisampled)
        glDeleteFramebuffers(1, &framebuffers.resolved)
        glDeleteRenderbuffers(3, &framebuffers.renderbuffers)
        framebuffers = Framebuffers()
    }

    /// Makes the framebuffers `width` × `height` unless they already are.
    private func prepareFramebuffers(width: Int, height: Int) throws(SceneRenderError) {
        guard framebuffers.width != width || framebuffers.height != height || framebuffers.multisampled == 0 else { return }
        deleteFramebuffers()
        var made = Framebuffers()
        glGenFramebuffers(1, &made.multisampled)
        glGenFramebuffers(1, &made.resolved)
        glGenRenderbuffers(3, &made.renderbuffers)
        // Record them at once so a failure below still deletes them on the next attempt.
        framebuffers = made
        let (w, h) = (GLsizei(width), GLsizei(height))
        func attach(_ renderbuffer: GLuint, samples: GLsizei, format: Int32, attachment: Int32) {
            glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
            glRenderbufferStorageMultisample(GLenum(GL_RENDERBUFFER), samples, GLenum(format), w, h)
            glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(attachment), GLenum(GL_RENDERBUFFER), renderbuffer)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), made.multisampled)
        attach(made.renderbuffers[0], samples: samples, format: GL_RGBA8, attachment: GL_COLOR_ATTACHMENT0)
        attach(made.renderbuffers[1], samples: samples, format: GL_DEPTH_COMPONENT24, attachment: GL_DEPTH_ATTACHMENT)
        try checkFramebuffer()
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), made.resolved)
        attach(made.renderbuffers[2], samples: 0, format: GL_RGBA8, attachment: GL_COLOR_ATTACHMENT0)
        try checkFramebuffer()
        framebuffers.width = width
        framebuffers.height = height
    }

    private func checkFramebuffer() throws(SceneRenderError) {
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            let error = glGetError()
            deleteFramebuffers()
            throw .framebufferIncomplete(Self.hex(status) + (error == GLenum(GL_NO_ERROR) ? "" : ", GL error \(Self.hex(error))"))
        }
    }

    // MARK: Drawing

    private func set(_ program: Program, _ name: String, _ v: SIMD3<Float>) {
        glUniform3f(program.location(name), v.x, v.y, v.z)
    }

    /// An sRGB colour in the shaders' linear light (squared: see SceneShaders).
    private static func linear(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let clamped = c.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: .greatestFiniteMagnitude))
        return clamped * clamped
    }

    private static func float3(_ v: SIMD3<Double>) -> SIMD3<Float> { SIMD3(Float(v.x), Float(v.y), Float(v.z)) }

    /// Sets the sky's uniforms, which every program shares.
    private func setSky(_ program: Program, lighting: SceneLighting) {
        let length = (lighting.sunDirection * lighting.sunDirection).sum().squareRoot()
        let sun = length > 0 ? lighting.sunDirection / length : SIMD3(0, 0, 1)
        // The glow and disc fade as the sun sets (elevation +2° … −2°).
        let visible = Float(max(0, min(1, (sun.z + 0.035) / 0.07)))
        set(program, "uSunDirection", Self.float3(sun))
        set(program, "uSunGlow", Self.linear(lighting.sunColor) * visible)
        set(program, "uZenith", Self.linear(lighting.skyZenithColor))
        set(program, "uHorizon", Self.linear(lighting.skyHorizonColor))
    }

    /// Sets the light, which the vertex shader of the scene and label programs computes.
    private func setLight(_ program: Program, lighting: SceneLighting) {
        let sunUp = Float(max(0, min(1, (lighting.sunDirection.z + 0.02) / 0.04)))   // no sunlight once it has set
        set(program, "uSunLight", Self.linear(lighting.sunColor) * lighting.sunIntensity * sunUp)
        set(program, "uAmbient", Self.linear(lighting.ambientColor) * lighting.ambientIntensity)
        set(program, "uSkyLight", Self.linear(lighting.skyZenithColor) * lighting.skyLightIntensity)
        set(program, "uGroundLight", Self.linear(lighting.groundColor) * lighting.skyLightIntensity)
    }

    /// Sets the eye, the view and the fog, which the scene and label programs share.
    private func setView(_ program: Program, camera: SceneCamera, lighting: SceneLighting, matrix: [Float]) {
        glUniform2f(program.location("uFog"), Float(lighting.fogStart), Float(max(lighting.fogEnd, lighting.fogStart + 0.001)))
        glUniform3f(program.location("uEye"), Float(camera.x), Float(camera.y), Float(camera.z))
        glUniformMatrix4fv(program.location("uViewProjection"), 1, GLboolean(GL_FALSE), matrix)
    }

    func draw(_ mesh: SceneMesh, labelAtlas: SceneLabelAtlas?, camera: SceneCamera,
              lighting: SceneLighting) throws(SceneRenderError) -> SceneImage {
        let batches = try MaterialBatches(vertices: mesh.vertices, indices: mesh.indices)
        let (width, height) = (camera.width, camera.height)
        try prepareFramebuffers(width: width, height: height)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffers.multisampled)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        glDisable(GLenum(GL_CULL_FACE))
        glDisable(GLenum(GL_BLEND))
        glDepthMask(GLboolean(GL_TRUE))
        glClearColor(0, 0, 0, 1)
        glClearDepthf(1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT))

        // The sky, behind everything: no depth test, no depth written.
        glDisable(GLenum(GL_DEPTH_TEST))
        glUseProgram(skyProgram.id)
        setSky(skyProgram, lighting: lighting)
        set(skyProgram, "uForward", Self.float3(camera.forward))
        set(skyProgram, "uRight", Self.float3(camera.right))
        set(skyProgram, "uUp", Self.float3(camera.up))
        let tangents = camera.halfExtents
        glUniform2f(skyProgram.location("uTangents"), Float(tangents.x), Float(tangents.y))
        glBindVertexArray(emptyArray)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)

        // The opaque triangles, one draw per material from one upload.
        glEnable(GLenum(GL_DEPTH_TEST))
        glDepthFunc(GLenum(GL_LEQUAL))
        let matrix = camera.eyeRelativeViewProjection
        if !batches.indices.isEmpty {
            Self.upload(array: opaqueArray, vertexBuffer: buffers[0], vertices: mesh.vertices, indices: batches.indices)
            var first = 0
            for group in MaterialBatches.materials.indices {
                let count = batches.counts[group]
                defer { first += count }
                guard count > 0 else { continue }
                let program = sceneProgram(group)
                glUseProgram(program.id)
                setSky(program, lighting: lighting)
                setView(program, camera: camera, lighting: lighting, matrix: matrix)
                setLight(program, lighting: lighting)
                glDrawElements(GLenum(GL_TRIANGLES), GLsizei(count), GLenum(GL_UNSIGNED_INT),
                               UnsafeRawPointer(bitPattern: first * MemoryLayout<UInt32>.stride))
            }
        }

        // The labels, blended over what they stand on: depth tested but not written, pulled a
        // little toward the eye so a sign's text wins against its own board.
        let labelCount = mesh.labelIndices.count - mesh.labelIndices.count % 3
        if let labelAtlas, labelCount > 0 {
            try uploadAtlas(labelAtlas)
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), atlasTexture)
            glEnable(GLenum(GL_BLEND))
            // Premultiplied colour; the image's alpha stays opaque.
            glBlendFuncSeparate(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA), GLenum(GL_ZERO), GLenum(GL_ONE))
            glDepthMask(GLboolean(GL_FALSE))
            glEnable(GLenum(GL_POLYGON_OFFSET_FILL))
            glPolygonOffset(-1, -2)
            glUseProgram(labelProgram.id)
            setSky(labelProgram, lighting: lighting)
            setView(labelProgram, camera: camera, lighting: lighting, matrix: matrix)
            setLight(labelProgram, lighting: lighting)
            glUniform1i(labelProgram.location("uAtlas"), 0)
            Self.upload(array: labelArray, vertexBuffer: buffers[2], vertices: mesh.labelVertices, indices: mesh.labelIndices)
            glDrawElements(GLenum(GL_TRIANGLES), GLsizei(labelCount), GLenum(GL_UNSIGNED_INT), nil)
            glDisable(GLenum(GL_POLYGON_OFFSET_FILL))
            glDisable(GLenum(GL_BLEND))
            glDepthMask(GLboolean(GL_TRUE))
            glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        }
        glBindVertexArray(0)

        // Resolve the samples, then read the rows back (GL's first row is the bottom one).
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffers.multisampled)
        glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), framebuffers.resolved)
        glBlitFramebuffer(0, 0, GLint(width), GLint(height), 0, 0, GLint(width), GLint(height),
                          GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffers.resolved)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        let rowBytes = width * 4
        var flipped = [UInt8](repeating: 0, count: rowBytes * height)
        flipped.withUnsafeMutableBytes { buffer in
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), buffer.baseAddress)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
        let error = glGetError()
        guard error == GLenum(GL_NO_ERROR) else { throw .drawingFailed("GL error \(Self.hex(error))") }
        var pixels = [UInt8](repeating: 0, count: rowBytes * height)
        pixels.withUnsafeMutableBytes { out in
            flipped.withUnsafeBytes { source in
                for row in 0..<height {
                    let from = (height - 1 - row) * rowBytes
                    out[row * rowBytes..<(row + 1) * rowBytes].copyBytes(from: source[from..<from + rowBytes])
                }
            }
        }
        return SceneImage(width: width, height: height, pixels: pixels)
    }

    /// Uploads `vertices` and `indices` (this frame's; meshes change between frames) into `array`'s
    /// buffers, leaving `array` bound.
    private static func upload(array: GLuint, vertexBuffer: GLuint, vertices: [SceneVertex], indices: [UInt32]) {
        glBindVertexArray(array)
        glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
        vertices.withUnsafeBytes { bytes in
            glBufferData(GLenum(GL_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
        }
        indices.withUnsafeBytes { bytes in
            glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), bytes.count, bytes.baseAddress, GLenum(GL_STREAM_DRAW))
        }
    }

    /// Uploads the atlas premultiplied, with mipmaps, unless it is the one already uploaded.
    private func uploadAtlas(_ atlas: SceneLabelAtlas) throws(SceneRenderError) {
        if let uploaded = uploadedAtlas, uploaded.width == atlas.width, uploaded.height == atlas.height,
           uploaded.pixels == atlas.pixels { return }
        guard atlas.width <= maximumTextureSize, atlas.height <= maximumTextureSize else {
            throw .invalidInput("label atlas \(atlas.width) × \(atlas.height) is larger than GL's \(maximumTextureSize) pixels a side")
        }
        // Premultiplied, bilinear filtering mixes a glyph's edge with transparent texels without
        // pulling in their (black) colour.
        var premultiplied = atlas.pixels
        for i in stride(from: 0, to: premultiplied.count, by: 4) {
            let a = UInt32(premultiplied[i + 3])
            guard a != 255 else { continue }
            for c in i..<i + 3 { premultiplied[c] = UInt8((UInt32(premultiplied[c]) * a + 127) / 255) }
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), atlasTexture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        premultiplied.withUnsafeBytes { bytes in
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(atlas.width), GLsizei(atlas.height), 0,
                         GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        glGenerateMipmap(GLenum(GL_TEXTURE_2D))
        uploadedAtlas = (atlas.width, atlas.height, atlas.pixels)
    }
}
