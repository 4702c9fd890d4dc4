import Foundation
import Hummingbird
import NIOCore
import OpenMapKit

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
    /// Where the script takes the point-of-interest categories' OpenMapTiles classes, so the
    /// map's labels follow `pointOfInterestFilter` with the same table as OpenMapKit's own maps.
    static let categoryTablePlaceholder = "/* OPENMAPKIT_CATEGORY_CLASSES */ {}"

    static let script: (body: ByteBuffer, etag: String)? = {
        guard let url = Bundle.module.resourceURL?.appendingPathComponent("MapKitJS/mapkit.js"),
              let text = try? String(contentsOf: url, encoding: .utf8), text.contains(categoryTablePlaceholder) else { return nil }
        let bytes = Array(text.replacingOccurrences(of: categoryTablePlaceholder, with: categoryTable()).utf8)
        let digest = MessageAuthentication.sha256(bytes).prefix(12).map { String(format: "%02x", $0) }.joined()
        return (ByteBuffer(bytes: bytes), "\"\(digest)\"")
    }()

    /// `{"Cafe": [["cafe"], ["coffee_shop"]], …}`: each category's classes and subclasses, by
    /// the names MapKit JS gives the categories (the server API's).
    static func categoryTable() -> String {
        var table: [String: [[String]]] = [:]
        for category in MKPointOfInterestCategory.allCategories {
            table[PoiCategoryNames.name(of: category)] = [category.openMapTilesClasses, category.openMapTilesSubclasses]
        }
        let data = (try? JSONSerialization.data(withJSONObject: table, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

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
