import Foundation
import Hummingbird
import NIOCore

/// `/mapkit.js`: a self-hosted MapKit JS, Apple's web map API implemented over MapLibre GL JS
/// (`/lib/maplibre-gl.js`), this server's styles and its `/v1` API. A page written for MapKit JS
/// works by pointing its `<script src>` here; the script loads MapLibre from the same origin as
/// itself, never from the internet.
///
/// The file is read once from the module's resources. Like the web map's files it is revalidated
/// on each use (`no-cache` with an ETag of its content), so an upgraded server is picked up at
/// once. Any page may load it, also with `crossorigin` as Apple's samples do: it is public, so it
/// is answered with `Access-Control-Allow-Origin: *` whatever the CORS policy (which, when it
/// allows the page's origin, names that origin instead). The script's calls to the API, tiles and
/// styles from another origin still need the server's `--cors-origin`.
struct MapKitJSRoutes {
    static let script: (body: ByteBuffer, etag: String)? = {
        guard let url = Bundle.module.resourceURL?.appendingPathComponent("MapKitJS/mapkit.js"),
              let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let bytes = [UInt8](data)
        let digest = MessageAuthentication.sha256(bytes).prefix(12).map { String(format: "%02x", $0) }.joined()
        return (ByteBuffer(bytes: bytes), "\"\(digest)\"")
    }()

    func register(on router: Router<ServerContext>) {
        router.get("/mapkit.js") { request, _ -> Response in
            guard let script = Self.script else {
                throw APIError(.internalServerError, "mapkit.js is missing from the server's resources")
            }
            var headers: HTTPFields = [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache", .eTag: script.etag]
            headers[.xContentTypeOptions] = "nosniff"
            headers[.accessControlAllowOrigin] = "*"
            if request.headers[values: .ifNoneMatch].contains(where: { $0 == script.etag || $0 == "*" }) {
                return Response(status: .notModified, headers: headers)
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: script.body))
        }
    }
}
