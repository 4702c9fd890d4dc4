import Foundation
import MapFormats
import MapGeometry

/// The per-feature work of cutting into tiles: pure functions of the options, so buckets of
/// features can be cut on several threads at once.
struct TileCutter: Sendable {
    let options: TileBuilder.Options

    /// Per tile, per layer (in `TileLayer` order), the features written there.
    typealias Content = [TileID: [[VectorTile.Feature]]]

    /// A piece of a feature's geometry with its bounds, which decide most clips without
    /// looking at the points: a piece wholly inside a child tile passes down unchanged.
    struct Piece {
        var geometry: SourceGeometry
        var bounds: MKMapRect

        init(_ geometry: SourceGeometry) {
            self.geometry = geometry
            switch geometry {
            case .point(let p): bounds = MKMapRect(x: p.x, y: p.y, width: 0, height: 0)
            case .line(let points): bounds = MKMapRect(boundingPoints: points)
            case .lines(let lines), .polygon(let lines):
                bounds = .null
                for line in lines { bounds = bounds.union(MKMapRect(boundingPoints: line)) }
            case .polygons(let polygons):
                // The exteriors bound their holes.
                bounds = .null
                for polygon in polygons { if let exterior = polygon.first { bounds = bounds.union(MKMapRect(boundingPoints: exterior)) } }
            }
        }
    }

    /// Cuts `geometry` into `tile` and its descendants down to zoom `endZoom - 1`, emitting it from
    /// `firstZoom` on; each tile's children are clipped from the tile's own clipped piece, so a large
    /// polygon costs about its vertex count per zoom level rather than per tile.
    /// With `visits`, only the tiles it accepts are cut (and their descendants looked at): an
    /// update cuts the tiles a change reaches, and no others, along the same chain of clips.
    func cut(_ geometry: SourceGeometry, from tile: TileID, to endZoom: Int, firstZoom: Int, layerIndex: Int,
             properties: [VectorTile.Property], visits: ((TileID) -> Bool)? = nil, into content: inout Content) {
        guard let start = clip(Piece(geometry), to: bufferedRect(tile)) else { return }
        var work: [(TileID, Piece)] = [(tile, start)]
        while let (tile, piece) = work.popLast() {
            if tile.z >= firstZoom {
                emit(piece.geometry, in: tile, layerIndex: layerIndex, properties: properties, into: &content)
            }
            guard tile.z + 1 < endZoom else { continue }
            let x = 2 * tile.x, y = 2 * tile.y
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                guard let child = TileID(z: tile.z + 1, x: x + dx, y: y + dy), visits?(child) ?? true,
                      let clipped = clip(piece, to: bufferedRect(child)) else { continue }
                work.append((child, clipped))
            }
        }
    }

    func bufferedRect(_ tile: TileID) -> MKMapRect {
        let rect = tile.mapRect
        let margin = rect.width * Double(options.buffer) / Double(options.extent)
        return rect.insetBy(dx: -margin, dy: -margin)
    }

    /// The part of `piece` inside `rect`, or nil if nothing is. Closed comparisons: a piece lying
    /// along the rectangle's edge is still clipped.
    func clip(_ piece: Piece, to rect: MKMapRect) -> Piece? {
        let bounds = piece.bounds
        guard !bounds.isNull, bounds.minX <= rect.maxX, bounds.maxX >= rect.minX, bounds.minY <= rect.maxY, bounds.maxY >= rect.minY else {
            return nil
        }
        if bounds.minX >= rect.minX && bounds.maxX <= rect.maxX && bounds.minY >= rect.minY && bounds.maxY <= rect.maxY { return piece }
        switch piece.geometry {
        case .point:
            return piece  // a point's bounds are the point: inside, or rejected above
        case .line(let points):
            let pieces = Clipping.clipPolyline(points, to: rect)
            return pieces.isEmpty ? nil : Piece(.lines(pieces))
        case .lines(let lines):
            let pieces = lines.flatMap { line in Clipping.clipPolyline(line, to: rect) }
            return pieces.isEmpty ? nil : Piece(.lines(pieces))
        case .polygon(let rings):
            // Parts rather than Sutherland–Hodgman's single ring: a polygon leaving and re-entering
            // the tile must not come back joined by zero-area edges along the tile's border.
            return Self.piece(ofParts: Clipping.clipPolygonParts(rings, to: rect))
        case .polygons(let polygons):
            return Self.piece(ofParts: polygons.flatMap { Clipping.clipPolygonParts($0, to: rect) })
        }
    }

    private static func piece(ofParts parts: [[[MKMapPoint]]]) -> Piece? {
        switch parts.count {
        case 0: nil
        case 1: Piece(.polygon(parts[0]))
        default: Piece(.polygons(parts))
        }
    }

    func emit(_ geometry: SourceGeometry, in tile: TileID, layerIndex: Int, properties: [VectorTile.Property],
              into content: inout Content) {
        let rect = tile.mapRect
        let scale = Double(options.extent) / rect.width
        let atMaximum = tile.z >= options.maximumZoom
        let tolerance = (atMaximum ? options.maximumZoomSimplification : options.simplification) / scale
        func tilePoint(_ p: MKMapPoint) -> VectorTile.TilePoint {
            VectorTile.TilePoint(x: Int32(((p.x - rect.minX) * scale).rounded()), y: Int32(((p.y - rect.minY) * scale).rounded()))
        }
        let vectorGeometry: VectorTile.Geometry
        switch geometry {
        case .point(let p):
            vectorGeometry = .points([tilePoint(p)])
        case .line(let points):
            guard let line = tileLine(points, tolerance: tolerance, scale: scale, dropShort: !atMaximum, tilePoint) else { return }
            vectorGeometry = .lines([line])
        case .lines(let pieces):
            let lines = pieces.compactMap { tileLine($0, tolerance: tolerance, scale: scale, dropShort: !atMaximum, tilePoint) }
            guard !lines.isEmpty else { return }
            vectorGeometry = .lines(lines)
        case .polygon(let rings):
            guard let polygon = tilePolygon(rings, tolerance: tolerance, scale: scale, atMaximum: atMaximum, tilePoint) else { return }
            vectorGeometry = .polygons([polygon])
        case .polygons(let parts):
            let polygons = parts.compactMap { tilePolygon($0, tolerance: tolerance, scale: scale, atMaximum: atMaximum, tilePoint) }
            guard !polygons.isEmpty else { return }
            vectorGeometry = .polygons(polygons)
        }
        // Mutating through the defaulted subscript appends in place, without copying the tile's arrays.
        content[tile, default: TileBuilder.emptyTile][layerIndex].append(VectorTile.Feature(properties: properties, geometry: vectorGeometry))
    }

    /// A polygon in tile coordinates, simplified; nil when its exterior is too small (below the
    /// maximum zoom) or degenerates. Holes that do so are dropped.
    func tilePolygon(_ rings: [[MKMapPoint]], tolerance: Double, scale: Double, atMaximum: Bool,
                     _ tilePoint: (MKMapPoint) -> VectorTile.TilePoint) -> [[VectorTile.TilePoint]]? {
        var polygon: [[VectorTile.TilePoint]] = []
        for (index, ring) in rings.enumerated() {
            guard let simplified = Simplification.simplifyRing(ring, method: .douglasPeucker(tolerance: tolerance)) else {
                if index == 0 { return nil } else { continue }
            }
            let area = abs(PlanarPolygon.signedArea(simplified)) * scale * scale
            if !atMaximum, area < options.minimumArea {
                if index == 0 { return nil } else { continue }
            }
            // Rounding to the tile grid can merge neighbours; a ring needs three distinct corners.
            var tileRing = Self.withoutRepeats(simplified.map(tilePoint))
            if tileRing.count > 1 && tileRing.first == tileRing.last { tileRing.removeLast() }
            guard tileRing.count >= 3 else {
                if index == 0 { return nil } else { continue }
            }
            polygon.append(tileRing)
        }
        return polygon.isEmpty ? nil : polygon
    }

    func tileLine(_ points: [MKMapPoint], tolerance: Double, scale: Double, dropShort: Bool,
                  _ tilePoint: (MKMapPoint) -> VectorTile.TilePoint) -> [VectorTile.TilePoint]? {
        let simplified = Simplification.douglasPeucker(points, tolerance: tolerance)
        guard simplified.count >= 2 else { return nil }
        if dropShort {
            var length = 0.0
            for i in 1..<simplified.count {
                length += hypot(simplified[i].x - simplified[i - 1].x, simplified[i].y - simplified[i - 1].y)
            }
            if length * scale < options.minimumLength { return nil }
        }
        let line = Self.withoutRepeats(simplified.map(tilePoint))
        return line.count >= 2 ? line : nil
    }

    /// The points with consecutive repeats dropped.
    static func withoutRepeats(_ points: [VectorTile.TilePoint]) -> [VectorTile.TilePoint] {
        var result: [VectorTile.TilePoint] = []
        result.reserveCapacity(points.count)
        for p in points where result.last != p { result.append(p) }
        return result
    }
}
