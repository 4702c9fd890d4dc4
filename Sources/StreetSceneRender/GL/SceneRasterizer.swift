import CEGL
import Foundation

/// Draws ``SceneMesh``es into images with OpenGL ES 3 off-screen: Mesa's llvmpipe on the CPU through
/// EGL's surfaceless platform, so it needs no display server or GPU.
///
/// A rasteriser owns one GL context and the buffers, framebuffers and programs in it, re-used from
/// frame to frame (framebuffers are re-made only when the image size changes). Any thread may call
/// ``render(_:labelAtlas:camera:lighting:)``: calls are serialised by a lock, and the GL work runs on a
/// worker thread of the rasteriser's own, where the context is made current for the call and released
/// afterwards. Never on the caller's thread: a thread that has another API's context current (the
/// main thread of an SDL or GLX window) cannot make an EGL context current as well (libglvnd answers
/// EGL_BAD_ACCESS). Make one rasteriser per thread for frames in parallel; llvmpipe already uses
/// every core for one frame.
///
/// A frame: the sky (a zenith-to-horizon gradient with the sun's disc and glow) over the whole image,
/// then the opaque triangles with depth test, lit by the sun, an ambient and a hemispheric sky term
/// (``SceneMaterial/facade`` walls get windows, ``SceneMaterial/glossy`` surfaces reflect the sky),
/// then the label triangles blended over them; distance fog fades everything into the sky. Drawn with
/// 4× multisampling (see ``init(samples:)``), resolved, and read back. Back faces are not culled:
/// meshes may wind either way, and each face is lit on the side that faces the eye.
///
/// Facade windows: bays 3 m wide along `u`, levels along `v` whose height the vertex alpha gives
/// (see ``SceneVertex/facadeAlpha(levelHeight:)``: 255 is 3 m, 0 a wall without windows); upper
/// levels get a 1.2 m window per bay, the ground level shop windows, doors or windows, chosen per
/// bay by a hash of the bay and the wall's colour (the same every frame).
public final class SceneRasterizer: @unchecked Sendable {
    /// The largest image side in pixels (a 4096 × 4096 frame takes 256 MiB of 4× multisampled
    /// colour and as much depth).
    public static let maximumPixelSide = 4096

    // Everything below is only touched with `lock` held and `context` current.
    private let lock = NSLock()
    private let display: EGLDisplay
    private let context: EGLContext
    private var gl: GLObjects

    /// Samples per pixel: 4 (the default) unless GL offers fewer, 1 when multisampling is off.
    public let samples: Int

    /// Makes the rasteriser: initialises EGL's display on first use in the process, then creates an
    /// OpenGL ES 3 context and compiles the shaders in it. Throws when Mesa's EGL or GLES driver is
    /// missing or refuses, or a shader does not build.
    ///
    /// `samples` is the multisampling of edges: 4 antialiases them; 1 turns multisampling off,
    /// which llvmpipe drew two to three times faster here (measured: per-pixel shading cost grows about
    /// threefold with 4 samples).
    public init(samples: Int = 4) throws(SceneRenderError) {
        let display = try SceneEGL.sharedDisplay.get()
        let context = try SceneEGL.makeContext(display: display)
        self.display = display
        self.context = context
        do {
            gl = try Self.onWorker { () throws(SceneRenderError) in
                try SceneEGL.withCurrent(display: display, context: context) { () throws(SceneRenderError) in
                    try GLObjects(samples: samples)
                }
            }
            self.samples = max(1, gl.sampleCount)
        } catch {
            eglDestroyContext(display, context)
            throw error
        }
    }

    deinit {
        let (display, context, gl) = (display, context, gl)
        _ = try? Self.onWorker { () throws(SceneRenderError) in
            try SceneEGL.withCurrent(display: display, context: context) { () throws(SceneRenderError) in gl.delete() }
        }
        eglDestroyContext(display, context)
    }

    /// The queue whose threads do the GL work (a dispatch worker never has a window's context current).
    private static let worker = DispatchQueue(label: "SceneRasterizer.gl")

    /// Runs `body` on a worker thread and waits for it. Not `sync`: that may run the block on the
    /// calling thread, which is what this avoids.
    private static func onWorker<T>(_ body: @escaping () throws(SceneRenderError) -> T) throws(SceneRenderError) -> T {
        nonisolated(unsafe) var result: Result<T, SceneRenderError>?
        nonisolated(unsafe) let work = body
        let done = DispatchSemaphore(value: 0)
        worker.async {
            do throws(SceneRenderError) { result = .success(try work()) } catch { result = .failure(error) }
            done.signal()
        }
        done.wait()
        switch result {
        case .success(let value)?: return value
        case .failure(let error)?: throw error
        case nil: throw .drawingFailed("the GL worker did not answer")
        }
    }

    /// Draws `mesh` seen by `camera` in `lighting`, with label triangles textured from `labelAtlas`
    /// (without an atlas, label triangles are not drawn).
    ///
    /// Throws ``SceneRenderError/invalidSize(width:height:)`` for an image side below 1 or above
    /// ``maximumPixelSide``, ``SceneRenderError/invalidInput(_:)`` for a camera that is not finite,
    /// an index past its vertices or an atlas whose bytes do not match its size.
    public func render(_ mesh: SceneMesh, labelAtlas: SceneLabelAtlas?, camera: SceneCamera,
                       lighting: SceneLighting) throws(SceneRenderError) -> SceneImage {
        guard camera.width >= 1, camera.height >= 1,
              camera.width <= Self.maximumPixelSide, camera.height <= Self.maximumPixelSide else {
            throw .invalidSize(width: camera.width, height: camera.height)
        }
        if let problem = camera.problem { throw .invalidInput(problem) }
        // The opaque triangles' indices are checked as they are grouped by material.
        guard mesh.indices.count <= Int(Int32.max), mesh.vertices.count <= Int(UInt32.max) else {
            throw .invalidInput("\(mesh.indices.count) indices or \(mesh.vertices.count) vertices are more than GL can draw at once")
        }
        try Self.validate(indices: mesh.labelIndices, vertexCount: mesh.labelVertices.count, what: "label")
        if let atlas = labelAtlas {
            guard atlas.width >= 1, atlas.height >= 1, atlas.pixels.count == atlas.width * atlas.height * 4 else {
                throw .invalidInput("label atlas of \(atlas.pixels.count) bytes is not \(atlas.width) × \(atlas.height) RGBA")
            }
        }
        lock.lock()
        defer { lock.unlock() }
        nonisolated(unsafe) let (display, context, gl) = (display, context, gl)
        return try Self.onWorker { () throws(SceneRenderError) in
            try SceneEGL.withCurrent(display: display, context: context) { () throws(SceneRenderError) in
                try gl.draw(mesh, labelAtlas: labelAtlas, camera: camera, lighting: lighting)
            }
        }
    }

    /// Checks that every index names a vertex (GL ES does not promise what an index past the end draws)
    /// and that the count fits GL's 32-bit sizes.
    private static func validate(indices: [UInt32], vertexCount: Int, what: String) throws(SceneRenderError) {
        guard indices.count <= Int(Int32.max), vertexCount <= Int(Int32.max) else {
            throw .invalidInput("\(indices.count) \(what) indices or \(vertexCount) vertices are more than GL can draw at once")
        }
        // A plain loop over the buffer: `max()` is generic and many times slower in debug builds,
        // where it cost more than the draw's own setup.
        let largest = indices.withUnsafeBufferPointer { buffer in
            var largest: UInt32 = 0
            for index in buffer where index > largest { largest = index }
            return largest
        }
        guard indices.isEmpty || Int(largest) < vertexCount else {
            throw .invalidInput("\(what) index \(largest) is past the \(vertexCount) vertices")
        }
    }
}

/// EGL's process-wide display and the per-call binding of a context to the calling thread.
enum SceneEGL {
    /// A display handle EGL lets any thread use.
    struct Display: @unchecked Sendable { let handle: EGLDisplay }

    /// Mesa's surfaceless display, initialised once per process on first use and never terminated
    /// (terminating it would pull it from under other rasterisers' contexts).
    static let sharedDisplayHandle: Result<Display, SceneRenderError> = {
        var display = eglGetPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)
        if display == nil, let address = eglGetProcAddress("eglGetPlatformDisplayEXT") {
            // EGL 1.4 libraries offer the platform only through the extension's entry point.
            typealias GetPlatformDisplay = @convention(c) (EGLenum, UnsafeMutableRawPointer?, UnsafePointer<EGLint>?) -> EGLDisplay?
            let getPlatformDisplay = unsafeBitCast(address, to: GetPlatformDisplay.self)
            display = getPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil)
        }
        guard let display else { return .failure(.noDisplay("no surfaceless platform display (EGL error \(errorCode()))")) }
        var major: EGLint = 0, minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGLBoolean(EGL_TRUE) else {
            return .failure(.noDisplay("eglInitialize failed (EGL error \(errorCode()))"))
        }
        return .success(Display(handle: display))
    }()

    static var sharedDisplay: Result<EGLDisplay, SceneRenderError> { sharedDisplayHandle.map(\.handle) }

    /// The calling thread's last EGL error, in hex.
    static func errorCode() -> String { "0x" + String(eglGetError(), radix: 16) }

    /// An OpenGL ES 3 context on `display`, with no surface of its own (frames go to framebuffer objects).
    static func makeContext(display: EGLDisplay) throws(SceneRenderError) -> EGLContext {
        let previousAPI = eglQueryAPI()
        defer { eglBindAPI(previousAPI) }
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
            throw .contextFailed("eglBindAPI(EGL_OPENGL_ES_API) failed (EGL error \(errorCode()))")
        }
        let attributes: [EGLint] = [
            EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
            EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
            EGL_NONE,
        ]
        var config: EGLConfig?
        var count: EGLint = 0
        guard eglChooseConfig(display, attributes, &config, 1, &count) == EGLBoolean(EGL_TRUE), count > 0, let config else {
            throw .noConfig
        }
        let contextAttributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE]
        guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
            throw .contextFailed("eglCreateContext failed (EGL error \(errorCode()))")
        }
        return context
    }

    /// Runs `body` with `context` current on the calling thread, then gives the thread back whatever
    /// it had current before (or nothing).
    static func withCurrent<T>(display: EGLDisplay, context: EGLContext,
                               _ body: () throws(SceneRenderError) -> T) throws(SceneRenderError) -> T {
        let previousAPI = eglQueryAPI()
        eglBindAPI(EGLenum(EGL_OPENGL_ES_API))
        let previousDisplay = eglGetCurrentDisplay()
        let previousContext = eglGetCurrentContext()
        let previousDraw = eglGetCurrentSurface(EGL_DRAW), previousRead = eglGetCurrentSurface(EGL_READ)
        defer {
            if let previousDisplay, previousContext != nil {
                eglMakeCurrent(previousDisplay, previousDraw, previousRead, previousContext)
            } else {
                eglMakeCurrent(display, nil, nil, nil)
            }
            eglBindAPI(previousAPI)
        }
        guard eglMakeCurrent(display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            throw .contextFailed("eglMakeCurrent failed (EGL error \(errorCode()))")
        }
        return try body()
    }
}
