import MapRender

/// The texture that ``SceneMaterial/label`` triangles read their glyphs from: signs, house numbers
/// and street names drawn once (by MapRender) into one image.
///
/// Pixels are straight (not premultiplied) RGBA, 8 bits a channel, top row first, as
/// ``MapRender/RenderCanvas/rgbaPixels()`` returns them; texture coordinates (0, 0) are the top-left
/// corner. The rasteriser premultiplies them when it uploads the texture (so linear filtering does
/// not darken glyph edges) and samples it with bilinear filtering and mipmaps.
public struct SceneLabelAtlas: Sendable {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// `width × height × 4` bytes: straight RGBA, row by row, top row first.
    public var pixels: [UInt8]

    /// An atlas from straight RGBA bytes, top row first.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// An atlas holding what `canvas` shows.
    public init(canvas: RenderCanvas) {
        self.init(width: canvas.pixelWidth, height: canvas.pixelHeight, pixels: canvas.rgbaPixels())
    }
}

/// A rendered street scene: straight (not premultiplied) RGBA pixels, 8 bits a channel, top row first.
public struct SceneImage: Sendable, Hashable {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// `width × height × 4` bytes, row by row from the top.
    public var pixels: [UInt8]

    /// An image from straight RGBA bytes, top row first.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// The pixel in column `x` of row `y` (from the top).
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside a \(width) × \(height) image")
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// The image on a MapRender canvas (for drawing over it, or encoding it).
    public func canvas() throws(RenderError) -> RenderCanvas {
        try RenderCanvas(pixelWidth: width, pixelHeight: height, rgba: pixels)
    }

    /// The image as a PNG file (RenderCanvas's fast encoder).
    public func pngData() throws(RenderError) -> [UInt8] {
        try canvas().fastPNGData()
    }
}
