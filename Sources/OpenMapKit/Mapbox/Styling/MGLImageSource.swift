// Mapbox's MGLImageSource: an image placed on four coordinates, as a MapLibre `image` source.

import Foundation
import MapStyle

/// An image shown between four coordinates (Mapbox's `MGLImageSource`; MapLibre's `image`
/// source), drawn by an ``MGLRasterStyleLayer``.
///
/// The image at the source's URL (a PNG file, or a resource the style's loader can read) is drawn
/// stretched over the four corners, as MapLibre draws it.
///
/// An image given in code (``image``) is drawn instead of the URL's, as MapLibre Native's
/// `ImageSource::setImage` does; it travels with the style document but not in its JSON.
public class MGLImageSource: MGLSource {
    /// The image given in code; nil for a source made from a URL. Setting it redraws a source in a
    /// style with the new picture.
    public var image: UIImage? {
        didSet { publishImage() }
    }

    /// Puts ``image`` into the style document's pictures of image sources (or takes it out), when
    /// the source is in a style.
    func publishImage() {
        guard isAttached, let style else { return }
        style.document.sourceImages[identifier] = image.flatMap { image in
            image.pngData().map { StyleImage(png: [UInt8]($0), pixelRatio: Double(image.scale)) }
        }
    }

    /// A source of the image at `url` between the corners of `coordinateQuad`.
    public init(identifier: String, coordinateQuad: MGLCoordinateQuad, url: URL) {
        super.init(identifier: identifier, object: MGLImageSource.object(coordinateQuad, url: url.absoluteString))
    }

    /// A source of `image` between the corners of `coordinateQuad`.
    public init(identifier: String, coordinateQuad: MGLCoordinateQuad, image: UIImage) {
        self.image = image
        super.init(identifier: identifier, object: MGLImageSource.object(coordinateQuad, url: ""))
    }

    required init(wrapping identifier: String, object: JSONObject) {
        super.init(wrapping: identifier, object: object)
    }

    static func object(_ quad: MGLCoordinateQuad, url: String) -> JSONObject {
        JSONObject([("type", .string("image")), ("url", .string(url)), ("coordinates", coordinatesJSON(quad))])
    }

    static func coordinatesJSON(_ quad: MGLCoordinateQuad) -> JSONValue {
        .array([quad.topLeft, quad.topRight, quad.bottomRight, quad.bottomLeft].map { .array([.number($0.longitude), .number($0.latitude)]) })
    }

    /// The URL of the image; nil for a source made from an image.
    public var url: URL? {
        get { object["url"]?.stringValue.flatMap { $0.isEmpty ? nil : URL(string: $0) } }
        set { update("url") { $0.set("url", .string(newValue?.absoluteString ?? "")) } }
    }

    /// The corners the image is stretched between.
    public var coordinates: MGLCoordinateQuad {
        get {
            let corners = (object["coordinates"]?.arrayValue ?? []).map { pair -> CLLocationCoordinate2D in
                let values = pair.arrayValue?.compactMap(\.numberValue) ?? []
                return values.count == 2 ? CLLocationCoordinate2D(latitude: values[1], longitude: values[0]) : CLLocationCoordinate2D()
            }
            guard corners.count == 4 else { return MGLCoordinateQuad(topLeft: .init(), bottomLeft: .init(), bottomRight: .init(), topRight: .init()) }
            return MGLCoordinateQuad(topLeft: corners[0], bottomLeft: corners[3], bottomRight: corners[2], topRight: corners[1])
        }
        set { update("coordinates") { $0.set("coordinates", MGLImageSource.coordinatesJSON(newValue)) } }
    }
}
