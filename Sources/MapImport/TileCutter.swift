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
            }
        }
    }

    /// Cuts `geometry` into `tile` and its descendants down to zoom `endZoom - 1`, emitting it from
    /// `firstZoom` on; each tile's children are clipped from the tile's own clipped piece, so a large
    /// polygon costs about its vertex count per zoom level rather than per tile.
    func cut(_ geometry: SourceGeometry, from tile: TileID, to endZoom: Int, firstZoom: Int, layerIndex: Int,
             properties: [VectorTile.Property], into content: inout Content) {
        guard let start = clip(Piece(geometry), to: bufferedRect(tile)) else { return }
        var work: [(TileID, Piece)] = [(tile, start)]
        while let (tile, piece) = work.popLast() {
            if tile.z >= firstZoom {
                emit(piece.geometry, in: tile, layerIndex: layerIndex, properties: properties, into: &content)
            }
            guard tile.z + 1 < endZoom else { continue }
            let x = 2 * tile.x, y = 2 * tile.y
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                guard let child = TileID(z: tile.z + 1, x: x + dx, y: y + dy),
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
            let clipped = Clipping.clipPolygon(rings, to: rect)
            return clipped.isEmpty ? nil : Piece(.polygon(clipped))
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
            var polygon: [[VectorTile.TilePoint]] = []
            for (index, ring) in rings.enumerated() {
                guard let simplified = Simplification.simplifyRing(ring, method: .douglasPeucker(tolerance: tolerance)) else {
                    if index == 0 { return } else { continue }
                }
                let area = abs(PlanarPolygon.signedArea(simplified)) * scale * scale
                if !atMaximum, area < options.minimumArea {
                    if index == 0 { return } else { continue }
                }
                // Rounding to the tile grid can merge neighbours; a ring needs three distinct corners.
                var ring = Self.withoutRepeats(simplified.map(tilePoint))
                if ring.count > 1 && ring.first == ring.last { ring.removeLast() }
                guard ring.count >= 3 else {
                    if index == 0 { return } else { continue }
                }
                polygon.append(ring)
            }
            guard !polygon.isEmpty else { return }
            vectorGeometry = .polygons([polygon])
        }
        // Mutating through the defaulted subscript appends in place, without copying the tile's arrays.
        content[tile, default: TileBuilder.emptyTile][layerIndex].append(VectorTile.Feature(properties: properties, geometry: vectorGeometry))
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
