import Foundation
import Hummingbird
import MapStyle
import NIOCore
import OpenMapKit

/// `GET /api/v1/snapshot`: static map images with the parameters of Apple's Maps Web Snapshots
/// (see ``SnapshotParameters``), drawn by ``MKMapSnapshotter`` with OpenMapKit's markers and
/// overlay renderers.
///
/// Images are cached by their normalised parameters and the regions' generation, so a repeated
/// URL costs a dictionary lookup and `If-None-Match` a 304; a new image is drawn on the server's
/// render pool, which answers 503 with `Retry-After` when it is full rather than queueing without
/// end. A centre or marker given as an address is geocoded in the request's region; nothing found
/// is a 404.
///
/// Where Apple's service differs: `markerStyle: "img"` draws the balloon (this server never fetches
/// the `imgs` URLs; Apple documents the balloon as the fallback when an image does not load),
/// `large` draws the standard balloon, and `lang` does not change the labels (the map shows the
/// names in the bundle).
struct SnapshotRoutes {
    let server: MapServer

    /// Clients may keep an image this long before asking again (with its ETag).
    static let cacheControl = "public, max-age=3600"

    func register(on router: Router<ServerContext>) {
        router.get("/api/v1/snapshot") { request, _ -> Response in
            try await snapshot(request)
        }
    }

    func snapshot(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        let parameters = try SnapshotParameters(query, maximumImageSide: server.configuration.maximumImageSide)
        let regions = server.regions.snapshot
        let source = try regions.source(named: parameters.region)
        if parameters.mapType.needsImagery, source.imagery == nil {
            throw APIError.notFound("t=\(parameters.mapType.rawValue) needs imagery, and the map data served here has none",
                                    details: ["use t=standard or t=mutedStandard"])
        }

        let key = parameters.cacheKey(generation: regions.generation)
        let etag = Self.etag(for: key)
        if Self.matches(request.headers[.ifNoneMatch], etag: etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: Self.cacheControl])
        }
        if let cached = server.cache.value(for: key) {
            return Self.png(cached)
        }

        let scene = try await SnapshotScene(parameters: parameters, source: source)
        let options = scene.options()
        let png = try await server.renderPool.run { try Self.render(options: options, source: source) }
        let response = CachedResponse(body: png, contentType: "image/png", etag: etag)
        server.cache.insert(response, for: key)
        return Self.png(response)
    }

    private static func png(_ cached: CachedResponse) -> Response {
        Response(status: .ok,
                 headers: [.contentType: cached.contentType, .eTag: cached.etag, .cacheControl: cacheControl],
                 body: .init(byteBuffer: cached.buffer))
    }

    /// Draws and encodes on the calling (render pool) thread, so the pool's bound holds.
    static func render(options: MKMapSnapshotter.Options, source: MapDataSource) throws -> [UInt8] {
        let snapshot: MKMapSnapshotter.Snapshot
        do {
            snapshot = try MKMapSnapshotter(options: options, dataSource: source).snapshot()
        } catch let error as MKError {
            throw APIError(.internalServerError, "cannot draw the snapshot: \(error.reason ?? error.code.summary)")
        }
        guard let png = snapshot.image.pngData() else { throw APIError(.internalServerError, "cannot encode the snapshot as PNG") }
        return [UInt8](png)
    }

    /// A strong ETag derived from the cache key (the same key always draws the same image).
    static func etag(for key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return "\"s" + String(hash, radix: 16) + "\""
    }

    /// Whether an `If-None-Match` header names `etag` (or is `*`); weak tags compare equal too.
    static func matches(_ header: String?, etag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "*" || tag == etag
        }
    }
}

/// A snapshot request with its addresses resolved to coordinates, ready to become snapshotter
/// options.
struct SnapshotScene: Sendable {
    let parameters: SnapshotParameters
    let center: CLLocationCoordinate2D
    /// The annotations' coordinates, parallel to `parameters.annotations`.
    let markerCoordinates: [CLLocationCoordinate2D]

    init(parameters: SnapshotParameters, source: MapDataSource) async throws {
        self.parameters = parameters
        center = try await Self.resolve(parameters.center, parameter: "center", source: source)
        var coordinates: [CLLocationCoordinate2D] = []
        for (index, annotation) in parameters.annotations.enumerated() {
            coordinates.append(try await Self.resolve(annotation.point, parameter: "annotations[\(index)].point", source: source))
        }
        markerCoordinates = coordinates
    }

    /// A coordinate as is; an address through ``MKGeocodingRequest`` on the request's data.
    static func resolve(_ place: SnapshotParameters.Place, parameter: String, source: MapDataSource) async throws -> CLLocationCoordinate2D {
        switch place {
        case .coordinate(let coordinate):
            return coordinate
        case .address(let text):
            guard let request = MKGeocodingRequest(addressString: text) else {
                throw APIError.badRequest("parameter \(parameter) is not an address", details: ["got \(QueryParameters.quoted(text))"])
            }
            request.dataSource = source
            request.resultLimit = 1
            let items: [MKMapItem]
            do {
                items = try await request.getMapItems()
            } catch let error as MKError where error.code == .placemarkNotFound {
                items = []
            }
            guard let first = items.first else {
                throw APIError.notFound("no place found for \(parameter) \(QueryParameters.quoted(text))", details: ["give latitude,longitude instead"])
            }
            return first.placemark.coordinate
        }
    }

    /// The snapshotter options: framing, map type, appearance, POI filter, markers and overlays,
    /// built with OpenMapKit's `Map` content so markers and lines are drawn as everywhere else.
    func options() -> MKMapSnapshotter.Options {
        let p = parameters
        let size = CGSize(width: Double(p.width), height: Double(p.height))
        let overlays = p.overlays
        let markers = Array(zip(p.annotations, markerCoordinates))
        let map = Map {
            for overlay in overlays {
                Self.content(for: overlay)
            }
            for (annotation, coordinate) in markers {
                Self.content(for: annotation, at: coordinate)
            }
        }
        let options = map.snapshotOptions(size: size, scale: CGFloat(p.scale))
        if let span = p.span {
            options.region = MKCoordinateRegion(center: center, span: span)
        } else {
            // Apple's zoom counts 256-point tiles, MapLibre's (ours) 512-point ones.
            options.camera = MapViewport(size: size, centerCoordinate: center, zoomLevel: p.zoom - 1).camera
        }
        switch p.mapType {
        case .standard: options.preferredConfiguration = MKStandardMapConfiguration()
        case .mutedStandard: options.preferredConfiguration = MKStandardMapConfiguration(emphasisStyle: .muted)
        case .hybrid: options.preferredConfiguration = MKHybridMapConfiguration()
        case .satellite: options.preferredConfiguration = MKImageryMapConfiguration()
        }
        if p.colorScheme == .dark {
            options.traitCollection = UITraitCollection(traitsFrom: [options.traitCollection, UITraitCollection(userInterfaceStyle: .dark)])
        }
        if !p.showsPointsOfInterest { options.pointOfInterestFilter = .excludingAll }
        return options
    }

    static func color(_ color: StyleColor) -> Color {
        Color(red: color.r, green: color.g, blue: color.b, opacity: color.a)
    }

    static func content(for annotation: SnapshotAnnotation, at coordinate: CLLocationCoordinate2D) -> any MapContent {
        let tint = color(annotation.color)
        switch annotation.markerStyle {
        case .dot:
            // A small disc in the colour with a white rim, centred on the point.
            return OpenMapKit.Annotation("", coordinate: coordinate) {
                Circle().fill(.white).frame(width: 14, height: 14)
                Circle().fill(tint).frame(width: 10, height: 10)
            }
        case .balloon, .large, .img:
            if let text = annotation.glyphText {
                return Marker("", monogram: Text(text), coordinate: coordinate).tint(tint)
            }
            return Marker("", coordinate: coordinate).tint(tint)
        }
    }

    static func content(for overlay: SnapshotOverlay) -> any MapContent {
        let style = StrokeStyle(lineWidth: CGFloat(overlay.lineWidth), lineCap: .round, lineJoin: .round,
                                dash: overlay.lineDash.map { CGFloat($0) })
        let stroke = color(overlay.strokeColor)
        if overlay.isPolygon {
            let polygon = MapPolygon(coordinates: overlay.points).foregroundStyle(color(overlay.fillColor ?? .transparent))
            return overlay.lineWidth > 0 ? polygon.stroke(stroke, style: style) : polygon
        }
        return MapPolyline(coordinates: overlay.points).stroke(stroke, style: style)
    }
}
