import Foundation
import MapStyle
import OpenMapKit

/// The query of a Maps Web Snapshots request (`/api/v1/snapshot`), read and checked.
///
/// Parameters follow Apple's Maps Web Snapshots: `center` (`lat,lon` or an address; the only
/// required one), `z` (3–20) or `spn` (`latSpan,lonSpan`), `size` (`WxH`, 50–640 each),
/// `scale` (1–3), `t` (`standard`, `mutedStandard`, `hybrid`, `satellite`), `colorScheme`
/// (`light`, `dark`), `poi` (1/0), `lang`, `annotations`, `overlays`, `overlayStyles` and `imgs`
/// (JSON). `referer`, `expires`, `signature`, `teamId` and `keyId` are accepted and not checked:
/// they are Apple's URL-signing scheme, and this server's access control is its API keys (when
/// keys are configured, ``APIKeyMiddleware`` asks snapshots for one, in a header or `?key=`).
///
/// Everything that changes the picture is kept in a normalised form, so two URLs that mean the
/// same snapshot share one ``cacheKey`` (and ETag).
struct SnapshotParameters: Sendable {
    /// Where the map is centred: a coordinate, or an address still to be geocoded.
    enum Place: Sendable, Hashable {
        case coordinate(CLLocationCoordinate2D)
        case address(String)

        static func == (a: Place, b: Place) -> Bool { a.key == b.key }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }

        var key: String {
            switch self {
            case .coordinate(let c): "\(c.latitude),\(c.longitude)"
            case .address(let text): "@" + text.lowercased()
            }
        }
    }

    /// Apple's map types (`t`).
    enum MapType: String, CaseIterable, Sendable {
        case standard, mutedStandard, hybrid, satellite

        /// Whether drawing it needs imagery tiles, which bundles made by `openmapkit import` lack.
        var needsImagery: Bool { self == .hybrid || self == .satellite }
    }

    enum ColorScheme: String, CaseIterable, Sendable { case light, dark }

    /// Apple's limits on the image size in points, per side.
    static let sideRange = 50...640
    /// Apple's zoom range for `z` (Apple's zoom: the world is 256 points wide at zoom 0).
    static let zoomRange = 3.0...20.0
    static let defaultSize = (width: 600, height: 400)
    static let defaultZoom = 12.0

    var center: Place
    /// Apple's zoom level; ignored when ``span`` is given.
    var zoom: Double
    /// `latitudeDelta, longitudeDelta` in degrees, when given (it wins over `z`, as in Apple's).
    var span: MKCoordinateSpan?
    var width: Int
    var height: Int
    var scale: Int
    var mapType: MapType
    var colorScheme: ColorScheme
    var showsPointsOfInterest: Bool
    /// The label language asked for; labels are drawn in the bundle's names whatever it says.
    var language: String?
    var annotations: [SnapshotAnnotation]
    var overlays: [SnapshotOverlay]
    /// The region (`region=`), nil for all regions.
    var region: String?

    /// Reads a request's query; throws a 400 ``APIError`` naming the first bad parameter.
    /// `maximumImageSide` is the server's cap on the image's pixel side (after `scale`).
    init(_ query: QueryParameters, maximumImageSide: Int) throws {
        let centerText = try query.required("center")
        center = try Self.place(centerText, parameter: "center")
        zoom = try query.double("z", in: Self.zoomRange) ?? Self.defaultZoom
        span = try Self.span(query["spn"])
        (width, height) = try Self.size(query["size"])
        scale = try query.int("scale", in: 1...3) ?? 1
        guard width * scale <= maximumImageSide, height * scale <= maximumImageSide else {
            throw APIError.badRequest("the image would be \(width * scale)×\(height * scale) pixels; this server draws at most \(maximumImageSide) pixels a side",
                                      details: ["lower size or scale"])
        }
        mapType = try query.choice("t", of: MapType.self) ?? .standard
        colorScheme = try query.choice("colorScheme", of: ColorScheme.self) ?? .light
        showsPointsOfInterest = try query.bool("poi") ?? true
        language = try Self.language(query["lang"])
        let images = try SnapshotJSON.imageCount(query["imgs"])
        annotations = try SnapshotJSON.annotations(query["annotations"], imageCount: images)
        overlays = try SnapshotJSON.overlays(query["overlays"], styles: query["overlayStyles"])
        region = query["region"]
    }

    /// `lat,lon` when the text is two numbers, else an address. Two numbers that are not a
    /// place on Earth (NaN, 91°) are a 400, not an address search.
    static func place(_ text: String, parameter: String) throws -> Place {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ Double($0.trimmingCharacters(in: .whitespaces)) != nil }) {
            return .coordinate(try QueryParameters.coordinate(trimmed, parameter: parameter))
        }
        guard !trimmed.isEmpty else { throw APIError.badRequest("parameter \(parameter) is empty") }
        guard trimmed.count <= 256 else {
            throw APIError.badRequest("parameter \(parameter) is too long for an address", details: ["at most 256 characters"])
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError.badRequest("parameter \(parameter) contains control characters")
        }
        return .address(trimmed)
    }

    /// `spn=latSpan,lonSpan`.
    static func span(_ text: String?) throws -> MKCoordinateSpan? {
        guard let text else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], lat.isFinite, lon.isFinite else {
            throw APIError.badRequest("parameter spn must be latitudeSpan,longitudeSpan in degrees", details: ["got \(QueryParameters.quoted(text))"])
        }
        guard lat > 0, lat <= 180, lon > 0, lon <= 360 else {
            throw APIError.badRequest("parameter spn is out of range", details: ["the latitude span must be within (0, 180] and the longitude span within (0, 360], got \(text)"])
        }
        return MKCoordinateSpan(latitudeDelta: lat, longitudeDelta: lon)
    }

    /// `size=WxH`, each side within Apple's 50–640 points.
    static func size(_ text: String?) throws -> (Int, Int) {
        guard let text else { return defaultSize }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let height = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw APIError.badRequest("parameter size must be WIDTHxHEIGHT in points, such as 600x400", details: ["got \(QueryParameters.quoted(text))"])
        }
        guard sideRange.contains(width), sideRange.contains(height) else {
            throw APIError.badRequest("parameter size must be between \(sideRange.lowerBound) and \(sideRange.upperBound) points a side",
                                      details: ["got \(QueryParameters.quoted(text))"])
        }
        return (width, height)
    }

    /// A BCP 47 language tag such as `en-US`: letters, digits and hyphens.
    static func language(_ text: String?) throws -> String? {
        guard let text else { return nil }
        let allowed = text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F }
        guard allowed, (2...35).contains(text.utf8.count) else {
            throw APIError.badRequest("parameter lang must be a language tag such as en-US", details: ["got \(QueryParameters.quoted(text))"])
        }
        return text
    }

    /// What makes two requests draw the same image: every normalised parameter and the data's
    /// generation (a swapped bundle must not be answered from the old picture).
    func cacheKey(generation: Int) -> String {
        var key = "snapshot|g\(generation)|r=\(region ?? "")|c=\(center.key)"
        if let span { key += "|spn=\(span.latitudeDelta),\(span.longitudeDelta)" } else { key += "|z=\(zoom)" }
        key += "|\(width)x\(height)@\(scale)|t=\(mapType.rawValue)|\(colorScheme.rawValue)|poi=\(showsPointsOfInterest ? 1 : 0)"
        for annotation in annotations { key += "|a:" + annotation.key }
        for overlay in overlays { key += "|o:" + overlay.key }
        return key
    }
}
