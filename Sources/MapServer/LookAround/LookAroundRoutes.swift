import Foundation
import Hummingbird
import NIOCore
import OpenMapKit

/// `GET /api/v1/lookaround`: the street-level picture of the Look Around scene nearest a point, as a
/// PNG drawn by ``MKLookAroundSnapshotter`` from the region's street scene (rendered from
/// OpenStreetMap, marked as such). The web map's place card shows it.
///
/// Parameters: `coordinate` (`lat,lon`, required), `place` (`true`: the coordinate is a place's, seen
/// from the street in front of it within 120 m, as `MKLookAroundSceneRequest(mapItem:)` does),
/// `heading` (0–360 degrees; default: along the street, or at the point off it), `pitch` (−60…60),
/// `fov` (10–120), `size` (`WxH` points, 50–640 a side), `scale` (1–3), `colorScheme` (`light`,
/// `dark`), `region`. Bad values are a 400 naming the parameter; no street within reach is a 404.
/// Pictures are cached by their parameters and the regions' generation, and drawn on the render
/// pool (503 when it is full).
///
/// `GET /api/v1/lookaround/scene?coordinate=…[&place=true]` answers whether there is a scene, as
/// JSON, always 200: `{"scene": {"coordinate": {…}, "heading": …, "streetName": …, "distance": …}}`
/// or `{"scene": null}`; a page asks it first and shows a picture only where there is one.
struct LookAroundRoutes {
    let server: MapServer

    func register(on router: Router<ServerContext>) {
        router.get("/api/v1/lookaround") { request, _ -> Response in
            try await lookAround(request)
        }
        router.get("/api/v1/lookaround/scene") { request, _ -> Response in
            try await scene(request)
        }
    }

    struct Parameters: Sendable {
        var coordinate: CLLocationCoordinate2D
        /// The coordinate is a place's: seen from the street in front of it.
        var isPlace: Bool
        var heading: Double?
        var pitch: Double
        var fieldOfView: Double
        var width: Int, height: Int, scale: Int
        var dark: Bool
        var region: String?

        init(_ query: QueryParameters, maximumImageSide: Int) throws {
            guard let coordinate = try query.coordinate("coordinate") else {
                throw APIError.badRequest("parameter coordinate is required: lat,lon")
            }
            self.coordinate = coordinate
            isPlace = try query.bool("place") ?? false
            heading = try query.double("heading", in: 0...360)
            pitch = try query.double("pitch", in: -60...60) ?? 0
            fieldOfView = try query.double("fov", in: 10...120) ?? 75
            (width, height) = try SnapshotParameters.size(query["size"])
            scale = try query.int("scale", in: 1...3) ?? 1
            guard width * scale <= maximumImageSide, height * scale <= maximumImageSide else {
                throw APIError.badRequest("the image would be \(width * scale)×\(height * scale) pixels; this server draws at most \(maximumImageSide) pixels a side",
                                          details: ["lower size or scale"])
            }
            dark = (try query.choice("colorScheme", of: SnapshotParameters.ColorScheme.self) ?? .light) == .dark
            region = query["region"]
        }

        func cacheKey(generation: Int) -> String {
            "lookaround|\(generation)|\(region ?? "")|\(coordinate.latitude),\(coordinate.longitude)|\(isPlace)|\(heading.map { "\($0)" } ?? "-")|"
                + "\(pitch)|\(fieldOfView)|\(width)x\(height)@\(scale)|\(dark)"
        }
    }

    func lookAround(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        let parameters = try Parameters(query, maximumImageSide: server.configuration.maximumImageSide)
        let regions = server.regions.snapshot
        let source = try regions.source(named: parameters.region)
        // The sun moves: a picture is kept for the hour it was drawn in.
        let hour = Int(Date().timeIntervalSince1970 / 3600)
        let key = parameters.cacheKey(generation: regions.generation) + "|\(hour)"
        let etag = SnapshotRoutes.etag(for: key)
        if SnapshotRoutes.matches(request.headers[.ifNoneMatch], etag: etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "public, max-age=600"])
        }
        if let cached = server.cache.value(for: key) { return Self.png(cached) }
        let png = try await server.renderPool.run { try Self.render(parameters, source: source) }
        let response = CachedResponse(body: png, contentType: "image/png", etag: etag)
        server.cache.insert(response, for: key)
        return Self.png(response)
    }

    private static func png(_ cached: CachedResponse) -> Response {
        Response(status: .ok, headers: [.contentType: cached.contentType, .eTag: cached.etag, .cacheControl: "public, max-age=600"],
                 body: .init(byteBuffer: cached.buffer))
    }

    /// The scene request for a point or a place.
    static func sceneRequest(_ coordinate: CLLocationCoordinate2D, isPlace: Bool, source: MapDataSource) -> MKLookAroundSceneRequest {
        let request = isPlace ? MKLookAroundSceneRequest(mapItem: MKMapItem(placemark: MKPlacemark(coordinate: coordinate)))
                              : MKLookAroundSceneRequest(coordinate: coordinate)
        request.dataSource = source
        return request
    }

    func scene(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request)
        guard let coordinate = try query.coordinate("coordinate") else { throw APIError.badRequest("parameter coordinate is required: lat,lon") }
        let isPlace = try query.bool("place") ?? false
        let source = try server.regions.snapshot.source(named: query["region"])
        let request = Self.sceneRequest(coordinate, isPlace: isPlace, source: source)
        let scene: MKLookAroundScene?
        do { scene = try await request.scene } catch let error as MKError {
            throw APIError(.internalServerError, "cannot look for a scene: \(error.reason ?? error.code.summary)")
        }
        var body: [String: Any] = ["scene": NSNull()]
        if let scene {
            var object: [String: Any] = ["coordinate": ["latitude": scene.coordinate.latitude, "longitude": scene.coordinate.longitude],
                                         "heading": scene.heading, "distance": scene.distance]
            if let street = scene.streetName { object["streetName"] = street }
            body["scene"] = object
        }
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Finds the scene and draws it on the calling (render pool) thread.
    static func render(_ parameters: Parameters, source: MapDataSource) throws -> [UInt8] {
        let request = sceneRequest(parameters.coordinate, isPlace: parameters.isPlace, source: source)
        do {
            guard let scene = try request.sceneHere() else {
                throw APIError.notFound("no Look Around at \(parameters.coordinate.latitude),\(parameters.coordinate.longitude)",
                                        details: ["no street, path or square within \(Int(MKLookAroundSceneRequest.maximumDistance)) m"])
            }
            let options = MKLookAroundSnapshotter.Options()
            options.size = CGSize(width: parameters.width, height: parameters.height)
            options.traitCollection = UITraitCollection(traitsFrom: [UITraitCollection(displayScale: CGFloat(parameters.scale)),
                                                                    UITraitCollection(userInterfaceStyle: parameters.dark ? .dark : .light)])
            options.heading = parameters.heading
            options.pitch = parameters.pitch
            options.fieldOfView = parameters.fieldOfView
            let snapshotter = MKLookAroundSnapshotter(scene: scene, options: options)
            snapshotter.dataSource = source
            let snapshot = try snapshotter.snapshotHere()
            guard let png = snapshot.image.pngData() else { throw APIError(.internalServerError, "cannot encode the picture as PNG") }
            return [UInt8](png)
        } catch let error as MKError {
            throw APIError(.internalServerError, "cannot draw Look Around: \(error.reason ?? error.code.summary)")
        }
    }
}
