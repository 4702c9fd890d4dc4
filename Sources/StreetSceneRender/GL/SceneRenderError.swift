/// Why ``SceneRasterizer`` could not be made or could not draw a frame.
public enum SceneRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// EGL found no display on Mesa's surfaceless platform, or could not initialise it (Mesa's EGL
    /// or its llvmpipe driver is not installed: `libegl-mesa0`, `libgl1-mesa-dri`).
    case noDisplay(String)
    /// The display offers no OpenGL ES 3 configuration.
    case noConfig
    /// EGL would not create or bind an OpenGL ES 3 context; the EGL error code in hex.
    case contextFailed(String)
    /// A shader did not compile or the program did not link; the driver's log.
    case shaderFailed(String)
    /// The off-screen framebuffer is incomplete; the GL status in hex.
    case framebufferIncomplete(String)
    /// The requested image is empty or larger than ``SceneRasterizer/maximumPixelSide`` a side.
    case invalidSize(width: Int, height: Int)
    /// The inputs cannot be drawn (an index past the vertices, an atlas whose byte count does not
    /// match its size, a camera that is not finite).
    case invalidInput(String)
    /// GL reported an error while drawing (out of memory, most likely); the GL error code in hex.
    case drawingFailed(String)

    /// A sentence saying what failed, for logs and error pages.
    public var description: String {
        switch self {
        case .noDisplay(let detail):
            return "no EGL display for off-screen OpenGL ES (is Mesa's EGL installed?): \(detail)"
        case .noConfig:
            return "the EGL display offers no OpenGL ES 3 configuration"
        case .contextFailed(let detail):
            return "cannot create or bind an OpenGL ES 3 context: \(detail)"
        case .shaderFailed(let log):
            return "scene shader failed to build: \(log)"
        case .framebufferIncomplete(let status):
            return "off-screen framebuffer is incomplete (status \(status))"
        case .invalidSize(let width, let height):
            return "scene image size \(width) × \(height) is not between 1 and \(SceneRasterizer.maximumPixelSide) pixels a side"
        case .invalidInput(let detail):
            return "cannot draw the scene: \(detail)"
        case .drawingFailed(let detail):
            return "OpenGL ES failed while drawing the scene: \(detail)"
        }
    }
}
