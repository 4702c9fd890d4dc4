/// An image added to a style at run time (MapLibre's `addImage`): PNG bytes, drawn at
/// `pixelRatio` pixels per point; `sdf` images are alpha masks tinted by `icon-color`.
public struct StyleImage: Hashable, Sendable {
    /// The image as a PNG file.
    public var png: [UInt8]
    /// Image pixels per point (2 for an image made for 2× screens).
    public var pixelRatio: Double
    /// Whether the image is a signed-distance-field mask, recoloured by `icon-color`.
    public var sdf: Bool

    public init(png: [UInt8], pixelRatio: Double = 1, sdf: Bool = false) {
        self.png = png
        self.pixelRatio = pixelRatio
        self.sdf = sdf
    }
}
