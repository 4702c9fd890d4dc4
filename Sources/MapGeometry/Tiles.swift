import Foundation

/// A square tile of the web map pyramid: zoom `z`, column `x` from the west, row `y` from the
/// north (the XYZ scheme that MapLibre, OpenStreetMap and MBTiles' URLs use).
///
/// At zoom z the world is 2^z × 2^z tiles, each 2^(28 − z) map points wide. MBTiles stores rows
/// in the TMS scheme, counted from the south: ``tmsY`` converts.
public struct TileID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Zoom levels 0 … 28 keep every tile at least one map point wide.
    public static let maximumZoom = 28

    public let z: Int
    public let x: Int
    public let y: Int

    /// A tile, or nil when `z` is outside 0 … 28 or `x`/`y` outside 0 ..< 2^z.
    public init?(z: Int, x: Int, y: Int) {
        guard (0...TileID.maximumZoom).contains(z) else { return nil }
        let n = 1 << z
        guard (0..<n).contains(x), (0..<n).contains(y) else { return nil }
        self.z = z
        self.x = x
        self.y = y
    }

    /// A tile from a TMS row (counted from the south).
    public init?(z: Int, x: Int, tmsY: Int) {
        guard (0...TileID.maximumZoom).contains(z) else { return nil }
        self.init(z: z, x: x, y: (1 << z) - 1 - tmsY)
    }

    /// The tile at zoom `z` holding `point`. Points past the world's sides wrap round; points
    /// above or below it clamp to the top or bottom row.
    public init(containing point: MKMapPoint, zoom z: Int) {
        let zoom = min(max(z, 0), TileID.maximumZoom)
        let n = 1 << zoom
        let tileSize = MKMapSize.worldWidth / Double(n)
        let column = tileIndex(point.x / tileSize, .down)
        let row = tileIndex(point.y / tileSize, .down)
        self.z = zoom
        self.x = ((column % n) + n) % n
        self.y = min(max(row, 0), n - 1)
    }

    /// The row in the TMS scheme (counted from the south), as MBTiles stores it.
    public var tmsY: Int { (1 << z) - 1 - y }

    /// The tile's square on the map.
    public var mapRect: MKMapRect {
        let size = MKMapSize.worldWidth / Double(1 << z)
        return MKMapRect(x: Double(x) * size, y: Double(y) * size, width: size, height: size)
    }

    /// The region the tile covers.
    public var region: MKCoordinateRegion { MKCoordinateRegion(mapRect) }

    /// The tile one zoom level out that contains this one; nil at zoom 0.
    public var parent: TileID? { z == 0 ? nil : TileID(z: z - 1, x: x >> 1, y: y >> 1) }

    /// The four tiles one zoom level in, in the order NW, NE, SW, SE; empty at the maximum zoom.
    public var children: [TileID] {
        guard z < TileID.maximumZoom else { return [] }
        return [(0, 0), (1, 0), (0, 1), (1, 1)].compactMap { TileID(z: z + 1, x: 2 * x + $0.0, y: 2 * y + $0.1) }
    }

    /// The Bing-style quadkey: one base-4 digit per zoom level; "" at zoom 0.
    public var quadkey: String {
        var digits: [Character] = []
        digits.reserveCapacity(z)
        for level in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            digits.append(Character(String((x & mask != 0 ? 1 : 0) + (y & mask != 0 ? 2 : 0))))
        }
        return String(digits)
    }

    /// Tiles sort by zoom, then row, then column.
    public static func < (a: TileID, b: TileID) -> Bool {
        (a.z, a.y, a.x) < (b.z, b.y, b.x)
    }

    /// "z/x/y".
    public var description: String { "\(z)/\(x)/\(y)" }

    /// Parses "z/x/y"; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]), let y = Int(parts[2]) else { return nil }
        self.init(z: z, x: x, y: y)
    }
}

/// The tiles at one zoom level covering a map rectangle: whole columns `minX…maxX` and rows
/// `minY…maxY`. A rectangle across the 180th meridian gives a range whose `minX` is greater
/// than `maxX`: the columns wrap from the east edge round to the west.
public struct TileRange: Hashable, Sendable, CustomStringConvertible {
    public let z: Int
    public let minX: Int
    public let maxX: Int
    public let minY: Int
    public let maxY: Int

    /// The tiles at zoom `z` that share area with `rect`; nil for a null or empty rectangle, or
    /// one wholly above or below the world. A rectangle a world wide or wider covers every column.
    public init?(covering rect: MKMapRect, zoom z: Int) {
        guard !rect.isEmpty, rect.maxY > 0, rect.minY < MKMapSize.worldWidth else { return nil }
        let zoom = min(max(z, 0), TileID.maximumZoom)
        let n = 1 << zoom
        let tileSize = MKMapSize.worldWidth / Double(n)
        // A tile counts when it overlaps the rectangle; one only touched along an edge does not.
        func first(_ v: Double) -> Int { tileIndex(v / tileSize, .down) }
        func last(_ v: Double) -> Int { tileIndex(v / tileSize, .up) - 1 }
        self.z = zoom
        minY = max(first(rect.minY), 0)
        maxY = min(last(rect.maxY), n - 1)
        if rect.width >= MKMapSize.worldWidth {
            minX = 0
            maxX = n - 1
        } else {
            minX = ((first(rect.minX) % n) + n) % n
            maxX = ((last(rect.maxX) % n) + n) % n
        }
    }

    /// Whether the columns wrap across the 180th meridian.
    public var wrapsAntimeridian: Bool { minX > maxX }

    /// The columns in west-to-east order, wrapping if needed.
    public var columns: [Int] {
        let n = 1 << z
        return wrapsAntimeridian ? Array(minX..<n) + Array(0...maxX) : Array(minX...maxX)
    }

    /// How many tiles the range holds.
    public var count: Int { columns.count * (maxY - minY + 1) }

    /// Every tile of the range, row by row.
    public var tiles: [TileID] {
        let columns = self.columns
        return (minY...maxY).flatMap { y in columns.compactMap { TileID(z: z, x: $0, y: y) } }
    }

    public func contains(_ tile: TileID) -> Bool {
        guard tile.z == z, (minY...maxY).contains(tile.y) else { return false }
        return wrapsAntimeridian ? (tile.x >= minX || tile.x <= maxX) : (minX...maxX).contains(tile.x)
    }

    /// "z/minX-maxX/minY-maxY".
    public var description: String { "\(z)/\(minX)-\(maxX)/\(minY)-\(maxY)" }
}

/// A tile index from a position in tile units, safe for any Double: NaN counts as 0 and huge
/// values are capped, so hostile coordinates cannot trap the Int conversion.
private func tileIndex(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
    guard !value.isNaN else { return 0 }
    return Int(min(max(value.rounded(rule), -1e15), 1e15))
}
