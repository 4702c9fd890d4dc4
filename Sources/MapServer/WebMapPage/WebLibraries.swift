import Foundation
import Hummingbird
import NIOCore

/// Third-party browser libraries the web map pages load from this server, never from the internet:
/// MapLibre GL JS at `/lib/maplibre-gl.js` and `/lib/maplibre-gl.css`.
///
/// They are not in the repository (and not in Debian): `make deps` installs PyPI's `maplibre`
/// package, which carries them, into `.build/web`. The server looks for them, in order, in
/// ``ServerConfiguration/webLibraries``, in `$OPENMAPKIT_WEB_LIBRARIES`, and in a `.build/web` (or
/// `web`) folder beside or above the running executable (where `swift build` puts it). Each file is
/// read once, into memory; a request can only name one of the fixed files. Without them the
/// routes answer 404 saying how to install them.
struct WebLibraries: Sendable {
    /// The environment variable naming the folder that holds `maplibre/srcjs/`.
    static let environmentVariable = "OPENMAPKIT_WEB_LIBRARIES"
    /// Where PyPI's `maplibre` package keeps the browser files, inside the install folder.
    static let maplibreFolder = "maplibre/srcjs"
    /// The served names and their content types.
    static let files = ["maplibre-gl.js": "application/javascript; charset=utf-8", "maplibre-gl.css": "text/css; charset=utf-8"]

    /// The files found, by served name; empty when they are not installed.
    let contents: [String: ByteBuffer]
    /// Where they were read from, for the server's log and the 404's reason.
    let folder: URL?

    init(contents: [String: ByteBuffer], folder: URL?) {
        self.contents = contents
        self.folder = folder
    }

    init(configured: URL?) {
        let found = Self.candidates(configured: configured).first { folder in
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(Self.maplibreFolder).appendingPathComponent("maplibre-gl.js").path)
        }
        var contents: [String: ByteBuffer] = [:]
        if let found {
            for name in Self.files.keys {
                if let data = FileManager.default.contents(atPath: found.appendingPathComponent(Self.maplibreFolder).appendingPathComponent(name).path) {
                    contents[name] = ByteBuffer(bytes: data)
                }
            }
        }
        self.init(contents: contents, folder: found)
    }

    /// The folders to look in, in order.
    static func candidates(configured: URL?) -> [URL] {
        var folders: [URL] = []
        if let configured { folders.append(configured) }
        if let variable = ProcessInfo.processInfo.environment[environmentVariable], !variable.isEmpty {
            folders.append(URL(fileURLWithPath: variable))
        }
        // From the executable's folder up: .build/<triple>/release/openmapkit finds .build/web.
        var folder = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments.first ?? ".").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for _ in 0..<6 {
            folders.append(folder.appendingPathComponent("web"))
            folders.append(folder.appendingPathComponent(".build/web"))
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return folders
    }

    func register(on router: Router<ServerContext>) {
        router.get("/lib/:file") { _, context -> Response in
            try response(for: context.parameters.get("file") ?? "")
        }
    }

    /// The file `name`, or a 404 naming what is served or how to install it.
    func response(for name: String) throws -> Response {
        guard let type = Self.files[name] else {
            throw APIError.notFound("no library \(name) here", details: ["served: \(Self.files.keys.sorted().joined(separator: ", "))"])
        }
        guard let body = contents[name] else {
            throw APIError.notFound("MapLibre GL JS is not installed on this server",
                                    details: ["`make deps` installs it (PyPI's maplibre package) into .build/web; or set \(Self.environmentVariable) to a folder holding \(Self.maplibreFolder)/"])
        }
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=86400"], body: .init(byteBuffer: body))
    }
}
