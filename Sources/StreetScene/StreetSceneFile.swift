import Foundation
import GRDB
import MapFormats
import MapGeometry

/// Why a scene file cannot be opened, read or written.
public enum StreetSceneError: Error, Sendable, CustomStringConvertible, Equatable {
    /// No file at the path (a bundle made before street scenes existed, or imported without one).
    case missing(String)
    /// The file is not a scene file, was never finished, or is damaged.
    case corrupt(String)
    /// The file is a scene file of another format version.
    case unsupportedVersion(found: String, expected: String, path: String)
    /// A box with non-finite or inverted coordinates.
    case invalidQuery(String)
    /// The writer could not create or fill the file.
    case cannotWrite(String)

    /// A sentence saying what is wrong and, where there is one, what to do.
    public var description: String {
        switch self {
        case .missing(let message): "street scene missing: \(message)"
        case .corrupt(let message): "street scene corrupt: \(message)"
        case .unsupportedVersion(let found, let expected, let path):
            "street scene \(path) has format version \(found), this OpenMapKit reads version \(expected); re-import the bundle"
        case .invalidQuery(let message): "invalid street scene query: \(message)"
        case .cannotWrite(let message): "street scene not written: \(message)"
        }
    }
}

/// Reads a scene file (`scene.sqlite`) by area. Safe to share between threads: a pool of
/// read-only SQLite connections, each query on one of them.
public final class StreetSceneFile: Sendable {
    private let reader: DatabasePool
    /// The file's location.
    public let url: URL

    /// Opens the file read-only; a missing file, a file of another version or one that is not a
    /// finished scene file is a ``StreetSceneError``.
    public init(url: URL) throws(StreetSceneError) {
        self.url = url
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .missing("\(url.path): no such file; the bundle has no street scene (made before scenes existed?), re-import it with `openmapkit import`")
        }
        do {
            reader = try DatabasePool.readOnly(at: url, mapBytes: 256 << 20)
            let (version, complete) = try reader.read { db in
                guard try db.tableExists("meta") else { return (String?.none, String?.none) }
                return (try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'"),
                        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'complete'"))
            }
            guard let version else { throw StreetSceneError.corrupt("\(url.path): not a street scene file (no format version)") }
            guard version == SceneSchema.version else {
                throw StreetSceneError.unsupportedVersion(found: version, expected: SceneSchema.version, path: url.path)
            }
            guard complete == "1" else { throw StreetSceneError.corrupt("\(url.path): the scene was never finished; re-import the bundle") }
            let tables = try reader.read { db in try db.tableExists("objects") && db.tableExists("object_rtree") }
            guard tables else { throw StreetSceneError.corrupt("\(url.path): tables missing") }
        } catch let error as StreetSceneError {
            throw error
        } catch {
            throw .corrupt("\(url.path): not a street scene file (\(error))")
        }
    }

    /// Every object whose bounding box intersects the box (degrees; boxes crossing the
    /// antimeridian are not split: west must not exceed east).
    public func objects(minLatitude: Double, minLongitude: Double, maxLatitude: Double, maxLongitude: Double) throws(StreetSceneError) -> SceneObjects {
        guard [minLatitude, minLongitude, maxLatitude, maxLongitude].allSatisfy(\.isFinite),
              minLatitude <= maxLatitude, minLongitude <= maxLongitude else {
            throw .invalidQuery("box \(minLatitude),\(minLongitude) – \(maxLatitude),\(maxLongitude) must be finite with minimums below maximums")
        }
        do {
            return try reader.read { db throws -> SceneObjects in
                var objects = SceneObjects()
                let statement = try db.cachedStatement(sql: """
                    SELECT o.type, o.data FROM object_rtree r JOIN objects o ON o.id = r.id
                    WHERE r.max_lon >= ? AND r.min_lon <= ? AND r.max_lat >= ? AND r.min_lat <= ?
                    """)
                let rows = try Row.fetchCursor(statement, arguments: [minLongitude, maxLongitude, minLatitude, maxLatitude])
                while let row = try rows.next() {
                    let type: Int = row[0]
                    guard let blob = row[1] as Data? else { throw StreetSceneError.corrupt("\(url.lastPathComponent): object without data") }
                    try blob.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws -> Void in
                        switch SceneObjectType(rawValue: type) {
                        case .building: objects.buildings.append(try SceneCodec.decodeBuilding(bytes))
                        case .road: objects.roads.append(try SceneCodec.decodeRoad(bytes))
                        case .area: objects.areas.append(try SceneCodec.decodeArea(bytes))
                        case .point: objects.points.append(try SceneCodec.decodePoint(bytes))
                        case nil: throw StreetSceneError.corrupt("\(url.lastPathComponent): unknown object type \(type)")
                        }
                    }
                }
                return objects
            }
        } catch let error as StreetSceneError {
            throw error
        } catch {
            throw .corrupt("\(url.lastPathComponent): \(error)")
        }
    }

    /// The object counts the writer recorded (buildings, roads, areas, points).
    public func counts() throws(StreetSceneError) -> (buildings: Int, roads: Int, areas: Int, points: Int) {
        do {
            return try reader.read { db in
                func count(_ key: String) throws -> Int {
                    Int(try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) ?? "") ?? 0
                }
                return (try count("buildings"), try count("roads"), try count("areas"), try count("points"))
            }
        } catch {
            throw .corrupt("\(url.lastPathComponent): \(error)")
        }
    }
}
