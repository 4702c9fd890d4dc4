// Feature queries: which features a renderer's last frame drew at a point or in a rectangle of
// the image (Mapbox's `visibleFeatures(at:)` / `visibleFeatures(in:)`, MapLibre's
// `queryRenderedFeatures`). A query does not draw: it goes through the frame's own steps (its
// camera, the tiles `featureGroups` picks for it from the decoded tiles the renderer keeps, each
// layer's filter results cached with those tiles, `FeatureSelection`'s drawing order, the symbols
// placement kept) and tests each feature's drawn shape against the query.

import Foundation
import MapGeometry
import MapStyle

/// A feature a ``StyleRenderer`` drew in its last frame, as a feature query finds it: which layer
/// drew it from which source, the feature's id, properties and geometry, and where it lies in the
/// drawing's stacking order.
///
/// The geometry is the part of the feature the frame drew from: for a vector tile source, the
/// tile's geometry (overzoomed tiles included) cut to the tile's square, as it is clipped when
/// drawn; a feature with an id whose pieces in several tiles were hit gets all those pieces, as
/// one multi-part geometry. Features without an id are not matched across tiles, so each tile's
/// piece is its own result (Mapbox's documentation warns of the same). GeoJSON features are whole.
/// Coordinates are unprojected from the tile grid, so they carry its rounding (a few centimetres
/// at zoom 14). A symbol reports the feature it labels as placement read it: the ways of one
/// street joined into one line.
public struct RenderedFeature: Hashable, Sendable {
    /// A feature's shape in longitude/latitude. Polygons are lists of rings, the exterior first,
    /// each ring closed (its last point is its first).
    public enum Geometry: Hashable, Sendable {
        case points([CLLocationCoordinate2D])
        case lines([[CLLocationCoordinate2D]])
        case polygons([[[CLLocationCoordinate2D]]])
    }

    /// Where a feature lies in the drawing: the style layer's position, then the feature's place
    /// among what that layer drew (features of a later layer, and later features of a layer, are
    /// drawn over earlier ones). Query results come highest first.
    public struct ZOrder: Comparable, Hashable, Sendable {
        /// The layer's index in the style's layers.
        public var layer: Int
        /// The feature's place in its layer's drawing: tile by tile, in sort-key order, for fills,
        /// lines and circles; lowest roof first for extrusions; the symbols' drawing order
        /// (`symbol-z-order`) for symbols.
        public var feature: Int

        public init(layer: Int, feature: Int) {
            (self.layer, self.feature) = (layer, feature)
        }

        public static func < (a: ZOrder, b: ZOrder) -> Bool { (a.layer, a.feature) < (b.layer, b.feature) }
    }

    /// The id of the style layer that drew the feature.
    public var layerID: String
    /// The id of the layer's source in the style.
    public var sourceID: String
    /// The vector tile layer the feature came from; nil for GeoJSON sources.
    public var sourceLayer: String?
    /// The feature's id (a number, or a string for GeoJSON); nil when it has none.
    public var id: JSONValue?
    /// "Point", "LineString" or "Polygon", as the style's `geometry-type` reads it (multi-part
    /// geometries report the single type).
    public var geometryType: String
    /// The feature's properties.
    public var properties: JSONObject
    /// The feature's shape in coordinates (see the type's documentation for which part).
    public var geometry: Geometry
    /// Where it lies in the drawing.
    public var zOrder: ZOrder
}

extension StyleRenderer {
    /// The features the last frame (``render(center:zoom:bearing:pitch:width:height:pixelRatio:)``)
    /// drew at `point`, in points from the image's top-left corner, topmost first: one entry per
    /// feature and layer.
    ///
    /// A feature counts where it is drawn, plus `tolerance` points around the point: a fill where
    /// the point is inside its polygon (not in a hole), a line within half its drawn width
    /// (`line-width`, or both lines and the gap with `line-gap-width`, moved by `line-offset`), a
    /// circle within `circle-radius` plus `circle-stroke-width`, a symbol where its placed text or
    /// icon is (only symbols the frame placed, with their collision padding); `*-translate` moves
    /// what is tested as it moves what is drawn. `fill-extrusion` layers report the roofs they
    /// draw, as fills. `background`, `raster`, `hillshade`, `color-relief` and `heatmap` layers
    /// report nothing (as in Mapbox GL), nor do layers hidden by `visibility` or outside their zoom
    /// range at the frame's zoom. With a pitched camera the point is taken to the ground it shows,
    /// as the frame was warped, and nothing is found above the horizon.
    ///
    /// - Parameters:
    ///   - layers: only these style layers' features (unknown ids are ignored); nil for every layer.
    ///   - filter: a boolean expression (a compiled style filter) each feature must pass, besides
    ///     its layer's own filter; it reads the feature's properties, id and geometry type at the
    ///     frame's zoom.
    /// - Returns: nothing before the first frame, after a frame that failed, or for a point
    ///   outside the image.
    public func features(at point: CGPoint, tolerance: Double = 0, layers: Set<String>? = nil,
                         filter: MapStyle.Expression? = nil) -> [RenderedFeature] {
        guard let frame = lastFrame, let areas = frame.areas(at: (Double(point.x), Double(point.y)), tolerance: tolerance) else { return [] }
        return features(in: areas, frame: frame, layers: layers, filter: filter)
    }

    /// The features the last frame drew that intersect `rect` (in points from the image's top-left
    /// corner, cut to the image), topmost first: one entry per feature and layer. What counts as
    /// drawn is as for ``features(at:tolerance:layers:filter:)``; a pitched frame's rectangle
    /// covers the ground it shows (up to the horizon).
    public func features(in rect: CGRect, layers: Set<String>? = nil, filter: MapStyle.Expression? = nil) -> [RenderedFeature] {
        let r = rect.standardized
        guard let frame = lastFrame,
              let areas = frame.areas(in: CanvasRect(minX: Double(r.minX), minY: Double(r.minY), maxX: Double(r.maxX), maxY: Double(r.maxY)))
        else { return [] }
        return features(in: areas, frame: frame, layers: layers, filter: filter)
    }

    /// One query on a recorded frame: every drawn, queryable layer from the top down.
    private func features(in areas: RenderedFrame.Areas, frame: RenderedFrame, layers ids: Set<String>?,
                          filter: MapStyle.Expression?) -> [RenderedFeature] {
        // Reading tiles for a query is not part of a render: its tallies must not reach the next
        // render's warnings.
        let tallies = tileProblems
        defer { tileProblems = tallies }
        let selection = FeatureSelection(zoom: frame.zoom, transform: frame.transform)
        let extraFilter = filter.map(CompiledFilter.init(expression:))
        var groups: [String: [FeatureGroup]] = [:]
        var results: [RenderedFeature] = []
        for (index, layer) in layers.enumerated().reversed() where layer.isDrawn(atZoom: frame.zoom) {
            if let ids, !ids.contains(layer.layer.id) { continue }
            guard let sourceID = layer.layer.source, style.source(sourceID) != nil else { continue }
            var hits: [FeatureHit]
            switch layer.layer.type {
            case .symbol:
                hits = symbolHits(layer, index: index, areas: areas, frame: frame)
            case .fill, .line, .circle, .fillExtrusion:
                if groups[sourceID] == nil {
                    groups[sourceID] = featureGroups(sourceID: sourceID, zoom: frame.zoom, transform: frame.transform, area: areas.map.bounds)
                }
                hits = Self.featureHits(layer, groups: groups[sourceID] ?? [], area: areas.map, selection: selection)
            default:
                // Backgrounds, rasters, hillshades and heatmaps have no features to report.
                continue
            }
            if let extraFilter {
                hits.removeAll { hit in
                    !extraFilter.matches(EvaluationContext(zoom: frame.zoom, properties: hit.feature.properties, id: hit.feature.id,
                                                           geometryType: hit.feature.geometryType))
                }
            }
            results += Self.merged(hits, layer: layer, index: index, sourceID: sourceID)
        }
        return results
    }

    /// The placed symbols of a layer whose boxes meet the query, on each flat drawing it reaches.
    private func symbolHits(_ layer: CompiledLayer, index: Int, areas: RenderedFrame.Areas, frame: RenderedFrame) -> [FeatureHit] {
        var hits: [FeatureHit] = []
        for (flatIndex, area) in areas.symbols {
            let flat = frame.flats[flatIndex]
            guard let placed = flat.symbols[index], !placed.isEmpty else { continue }
            for (position, symbol) in SymbolPlacer.drawingOrder(placed, layer: layer, zoom: frame.zoom).enumerated() {
                let hit = symbol.boxes.contains { box in
                    QueryArea.hits(polygon: [[(box.minX, box.minY), (box.maxX, box.minY), (box.maxX, box.maxY), (box.minX, box.maxY)]],
                                   area)
                }
                guard hit else { continue }
                hits.append(FeatureHit(feature: symbol.feature, clip: symbol.clip, transform: flat.transform, position: position,
                                       piece: [flatIndex, symbol.order], isSymbol: true))
            }
        }
        return hits
    }

    /// The features of a fill, line, circle or extrusion layer the query meets, tile by tile in the
    /// order they are drawn.
    private static func featureHits(_ layer: CompiledLayer, groups: [FeatureGroup], area: QueryArea,
                                    selection: FeatureSelection) -> [FeatureHit] {
        let type = layer.layer.type
        var hits: [FeatureHit] = []
        var roofs: [(height: Double, position: Int)] = []
        var position = 0
        for (groupIndex, group) in groups.enumerated() {
            let features = selection.selected(layer, in: group)
            defer { position += features.count }
            // What is drawn of a tile is cut to its square (circles are not: points in a tile's
            // buffer were dropped instead).
            let clipped: QueryArea? = if type == .circle { area } else if let clip = group.clip { area.clipped(to: clip) } else { area }
            for (offset, feature) in features.enumerated() {
                let context = EvaluationContext(zoom: selection.zoom, properties: feature.properties, id: feature.id,
                                                geometryType: feature.geometryType)
                if type == .fillExtrusion { roofs.append((LayerPainter.roofHeight(layer, context), position + offset)) }
                guard let clipped, meets(layer, feature: feature, context: context, area: clipped, selection: selection) else { continue }
                hits.append(FeatureHit(feature: feature, clip: group.clip, transform: selection.transform, position: position + offset,
                                       piece: [groupIndex, offset], isSymbol: false))
            }
        }
        if type == .fillExtrusion {
            // Roofs are drawn lowest first across the whole layer (see paintFillExtrusion).
            var rank: [Int: Int] = [:]
            for (place, roof) in roofs.sorted(by: { ($0.height, $0.position) < ($1.height, $1.position) }).enumerated() {
                rank[roof.position] = place
            }
            for i in hits.indices { hits[i].position = rank[hits[i].position] ?? hits[i].position }
        }
        return hits
    }

    /// Whether one feature, as the layer draws it, meets the query area (already cut to its tile).
    private static func meets(_ layer: CompiledLayer, feature: RenderFeature, context: EvaluationContext, area: QueryArea,
                             selection: FeatureSelection) -> Bool {
        switch layer.layer.type {
        case .fill, .fillExtrusion:
            guard case .polygons(let polygons) = feature.shape else { return false }
            let offset = selection.translation(layer, layer.layer.type == .fill ? "fill" : "fill-extrusion", context)
            let moved = area.shifted(by: (-offset.x, -offset.y))
            return polygons.contains { QueryArea.hits(polygon: $0, moved) }
        case .line:
            let parts: [(line: [ScreenPoint], closed: Bool)]
            switch feature.shape {
            case .lines(let lines): parts = lines.map { ($0, false) }
            case .polygons(let polygons): parts = polygons.flatMap { $0 }.map { ($0, true) }
            case .points: return false
            }
            let width = max(layer.paint["line-width"]?.number(context) ?? 1, 0)
            let gap = max(layer.paint["line-gap-width"]?.number(context) ?? 0, 0)
            let offset = layer.paint["line-offset"]?.number(context) ?? 0
            let halfWidth = gap > 0 ? gap / 2 + width : width / 2
            let translate = selection.translation(layer, "line", context)
            let moved = area.shifted(by: (-translate.x, -translate.y))
            return parts.contains { part in
                moved.reaches(line: LineOffset.offset(part.line, by: offset, closed: part.closed), closed: part.closed, within: halfWidth)
            }
        case .circle:
            guard case .points(let points) = feature.shape else { return false }
            let radius = max(layer.paint["circle-radius"]?.number(context) ?? 5, 0)
            let stroke = max(layer.paint["circle-stroke-width"]?.number(context) ?? 0, 0)
            let translate = selection.translation(layer, "circle", context)
            return points.contains { area.distance(to: ($0.x + translate.x, $0.y + translate.y)) <= radius + stroke + area.reach }
        default:
            return false
        }
    }

    /// A layer's hits as results, topmost first: a feature with an id met in several tiles once
    /// (its pieces' geometries joined), a symbol placed several times along its line once.
    private static func merged(_ hits: [FeatureHit], layer: CompiledLayer, index: Int, sourceID: String) -> [RenderedFeature] {
        var results: [RenderedFeature] = []
        var seen: [AnyHashable: Int] = [:]
        for hit in hits.sorted(by: { $0.position > $1.position }) {
            let key: AnyHashable = hit.feature.id.isNull ? AnyHashable(hit.piece) : AnyHashable(hit.feature.id)
            if let existing = seen[key] {
                if !hit.isSymbol { results[existing].geometry.append(hit.geometry()) }
                continue
            }
            seen[key] = results.count
            let properties = hit.feature.properties
            results.append(RenderedFeature(layerID: layer.layer.id, sourceID: sourceID, sourceLayer: hit.clip == nil ? nil : layer.layer.sourceLayer,
                                           id: hit.feature.id.isNull ? nil : hit.feature.id.json, geometryType: hit.feature.geometryType,
                                           properties: JSONObject(properties.keys.map { (key: $0, value: properties[$0]!.json) }),
                                           geometry: hit.geometry(), zOrder: .init(layer: index, feature: hit.position)))
        }
        return results
    }
}

/// A feature a query met: its drawn shape, the tile clip and camera it was drawn with, its place in
/// its layer's drawing, and which piece of which drawing it is (to tell features without ids
/// apart).
private struct FeatureHit {
    var feature: RenderFeature
    var clip: [ScreenPoint]?
    var transform: ScreenTransform
    var position: Int
    var piece: [Int]
    var isSymbol: Bool

    /// The shape back in coordinates, cut to its tile's square as it was drawn.
    func geometry() -> RenderedFeature.Geometry {
        func world(_ p: ScreenPoint) -> ScreenPoint { transform.world(screenX: p.x, screenY: p.y) }
        let box: CanvasRect? = clip.map { corners in
            let points = corners.map(world)
            return CanvasRect(minX: points.map(\.x).min()!, minY: points.map(\.y).min()!, maxX: points.map(\.x).max()!,
                              maxY: points.map(\.y).max()!)
        }
        var geometry: RenderedFeature.Geometry
        switch feature.shape {
        case .points(let points):
            geometry = .points(points.map(world).filter { box?.contains($0) ?? true }.map(Self.coordinate))
        case .lines(let lines):
            let parts = lines.flatMap { line -> [[ScreenPoint]] in
                let points = line.map(world)
                return box.map { CanvasClip.line(points, to: $0) } ?? [points]
            }
            geometry = .lines(parts.map { $0.map(Self.coordinate) })
        case .polygons(let polygons):
            let parts = polygons.compactMap { polygon -> [[ScreenPoint]]? in
                var rings: [[ScreenPoint]] = []
                for (i, ring) in polygon.enumerated() {
                    var points = ring.map(world)
                    if let box { points = CanvasClip.ring(points, to: box) }
                    if points.count >= 2, points[0] == points[points.count - 1] { points.removeLast() }
                    guard points.count >= 3 else {
                        if i == 0 { return nil }
                        continue
                    }
                    rings.append(points + [points[0]])
                }
                return rings
            }
            geometry = .polygons(parts.map { $0.map { $0.map(Self.coordinate) } })
        }
        geometry.wrapLongitudes()
        return geometry
    }

    static func coordinate(_ world: ScreenPoint) -> CLLocationCoordinate2D {
        MKMapPoint(x: world.x * MKMapSize.worldWidth, y: world.y * MKMapSize.worldWidth).coordinate
    }
}

extension RenderedFeature.Geometry {
    /// Adds another piece's parts (of the same kind) to this geometry.
    mutating func append(_ other: Self) {
        switch (self, other) {
        case (.points(let a), .points(let b)): self = .points(a + b)
        case (.lines(let a), .lines(let b)): self = .lines(a + b)
        case (.polygons(let a), .polygons(let b)): self = .polygons(a + b)
        default: break
        }
    }

    /// Moves the whole shape by whole turns so that its first longitude is within −180…180 (a
    /// feature drawn left or right of the antimeridian, from a repeated world).
    mutating func wrapLongitudes() {
        let first: CLLocationCoordinate2D? = switch self {
        case .points(let p): p.first
        case .lines(let l): l.first?.first
        case .polygons(let p): p.first?.first?.first
        }
        guard let longitude = first?.longitude, longitude < -180 || longitude > 180 else { return }
        let shift = -360 * ((longitude + 180) / 360).rounded(.down)
        func moved(_ c: CLLocationCoordinate2D) -> CLLocationCoordinate2D {
            CLLocationCoordinate2D(latitude: c.latitude, longitude: c.longitude + shift)
        }
        switch self {
        case .points(let p): self = .points(p.map(moved))
        case .lines(let l): self = .lines(l.map { $0.map(moved) })
        case .polygons(let p): self = .polygons(p.map { $0.map { $0.map(moved) } })
        }
    }
}

// MARK: - The recorded frame

/// What a render drew that a feature query needs: its camera, and for each flat drawing (the
/// whole frame at pitch 0, each tier of a pitched frame's ``PerspectivePlan``) the symbols its
/// placement kept. The tiles themselves stay in the renderer's caches.
struct RenderedFrame {
    /// One flat drawing: its camera on its own canvas, what it placed (by layer index), and for a
    /// pitched frame the tier it fills (its rows, and where its canvas lies on the frame's flat map).
    struct Flat {
        var transform: ScreenTransform
        var symbols: [Int: [PlacedSymbol]]
        var tier: PerspectivePlan.Tier?
    }

    /// A query taken to the flat map: on the whole frame's flat map (for the tiles' features) and
    /// on each flat drawing whose labels it reaches.
    struct Areas {
        var map: QueryArea
        var symbols: [(flat: Int, area: QueryArea)]
    }

    /// The whole frame's flat map (at pitch 0, the image itself).
    let transform: ScreenTransform
    let zoom: Double, pitch: Double, pixelRatio: Double
    var flats: [Flat]
    /// The first image row showing ground (a pitched frame's sky is above it).
    var groundTop = 0.0

    var width: Double { transform.halfWidth * 2 }
    var height: Double { transform.halfHeight * 2 }

    /// The ground a point of the image shows, on the frame's flat map; nil above the ground.
    private func flatPoint(_ x: Double, _ y: Double, projection: PerspectiveProjection?) -> ScreenPoint? {
        guard let projection else { return (x, y) }
        guard y >= groundTop, let g = projection.ground(dx: x - width / 2, dy: y - height / 2) else { return nil }
        return (width / 2 + g.x, height / 2 + g.y)
    }

    private var projection: PerspectiveProjection? {
        pitch > 0 ? PerspectiveProjection(width: width, height: height, pitch: pitch) : nil
    }

    /// A flat-map area on one tier's own canvas.
    private func onTier(_ area: QueryArea, _ flat: Flat) -> QueryArea {
        guard let tier = flat.tier else { return area }
        return area.shifted(by: (-(width / 2 + tier.x), -(height / 2 + tier.y)))
    }

    /// The rows of the image whose ground the warp reads from flat drawing `index`.
    private func rows(ofFlat index: Int) -> ClosedRange<Double> {
        guard flats[index].tier != nil else { return -Double.infinity...Double.infinity }
        let top = index == 0 ? -Double.infinity : flats[index - 1].tier!.bottom
        let bottom = index == flats.count - 1 ? Double.infinity : flats[index].tier!.bottom
        return top...bottom
    }

    /// A point query: the point (with its tolerance) on the flat map; nil outside the image or
    /// above the ground.
    func areas(at point: ScreenPoint, tolerance: Double) -> Areas? {
        guard point.x.isFinite, point.y.isFinite, tolerance.isFinite, point.x >= 0, point.y >= 0, point.x <= width, point.y <= height,
              !flats.isEmpty else { return nil }
        let tolerance = max(tolerance, 0)
        let map: QueryArea
        if let projection {
            guard let center = flatPoint(point.x, point.y, projection: projection) else { return nil }
            if tolerance > 0 {
                // The circle of the image is an ellipse on the ground: its outline taken there.
                let outline = (0..<16).compactMap { i -> ScreenPoint? in
                    let angle = Double(i) * .pi / 8
                    return flatPoint(point.x + tolerance * cos(angle), max(point.y + tolerance * sin(angle), groundTop), projection: projection)
                }
                map = QueryArea(polygon: outline.count == 16 ? outline : [center])
            } else {
                map = QueryArea(polygon: [center])
            }
        } else {
            map = QueryArea(polygon: [point], reach: tolerance)
        }
        // The warp fills a row from the first tier it lies above the bottom of.
        let index = flats.indices.first { point.y < rows(ofFlat: $0).upperBound } ?? flats.count - 1
        return Areas(map: map, symbols: [(index, onTier(map, flats[index]))])
    }

    /// A rectangle query: the rectangle, cut to the image (and its ground), on the flat map.
    func areas(in rect: CanvasRect) -> Areas? {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite, !flats.isEmpty else { return nil }
        let cut = CanvasRect(minX: max(rect.minX, 0), minY: max(rect.minY, groundTop), maxX: min(rect.maxX, width), maxY: min(rect.maxY, height))
        guard cut.minX <= cut.maxX, cut.minY <= cut.maxY else { return nil }
        func area(_ r: CanvasRect) -> QueryArea? {
            let corners = [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)].compactMap {
                flatPoint($0.0, $0.1, projection: projection)
            }
            return corners.count == 4 ? QueryArea(polygon: corners) : nil
        }
        guard let map = area(cut) else { return nil }
        guard projection != nil else { return Areas(map: map, symbols: [(0, map)]) }
        var symbols: [(flat: Int, area: QueryArea)] = []
        for index in flats.indices {
            let rows = rows(ofFlat: index)
            let part = CanvasRect(minX: cut.minX, minY: max(cut.minY, rows.lowerBound), maxX: cut.maxX, maxY: min(cut.maxY, rows.upperBound))
            guard part.minY <= part.maxY, let area = area(part) else { continue }
            symbols.append((index, onTier(area, flats[index])))
        }
        return Areas(map: map, symbols: symbols)
    }
}

// MARK: - Geometry

/// An axis-aligned rectangle of a canvas (or of world coordinates).
struct CanvasRect {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    func contains(_ p: ScreenPoint) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }

    func intersects(_ other: CanvasRect) -> Bool {
        minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
    }

    /// The box around some points, grown by `margin`; nil for none.
    init?(around points: [ScreenPoint], margin: Double = 0) {
        guard let first = points.first else { return nil }
        var (x0, y0, x1, y1) = (first.x, first.y, first.x, first.y)
        for p in points {
            x0 = min(x0, p.x); x1 = max(x1, p.x)
            y0 = min(y0, p.y); y1 = max(y1, p.y)
        }
        self.init(minX: x0 - margin, minY: y0 - margin, maxX: x1 + margin, maxY: y1 + margin)
    }

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
    }
}

/// A query's shape on a flat drawing: a convex polygon (a point, or a rectangle's four corners
/// taken to the drawing) and how far beyond it a feature may lie and still count.
struct QueryArea {
    var polygon: [ScreenPoint]
    var reach = 0.0

    /// The box the area reaches.
    var bounds: CanvasRect { CanvasRect(around: polygon, margin: reach)! }

    func shifted(by d: ScreenPoint) -> QueryArea {
        d.x == 0 && d.y == 0 ? self : QueryArea(polygon: polygon.map { ($0.x + d.x, $0.y + d.y) }, reach: reach)
    }

    /// The part of the area inside a convex polygon (a tile's square on the canvas); nil when none.
    /// A point's reach is kept: a feature of this tile near the point may be drawn within it.
    func clipped(to clip: [ScreenPoint]) -> QueryArea? {
        guard clip.count >= 3 else { return self }
        if polygon.count == 1 { return Self.convex(clip, contains: polygon[0]) ? self : nil }
        let orientation: Double = Self.signedArea(clip) >= 0 ? 1 : -1
        var output = polygon
        for i in clip.indices {
            let a = clip[i], b = clip[(i + 1) % clip.count]
            func inside(_ p: ScreenPoint) -> Bool { orientation * Self.cross(a, b, p) >= 0 }
            let input = output
            output = []
            guard !input.isEmpty else { break }
            var previous = input[input.count - 1]
            for current in input {
                if inside(current) {
                    if !inside(previous) { output.append(Self.intersection(previous, current, a, b)) }
                    output.append(current)
                } else if inside(previous) {
                    output.append(Self.intersection(previous, current, a, b))
                }
                previous = current
            }
        }
        return output.isEmpty ? nil : QueryArea(polygon: output, reach: reach)
    }

    /// How far a point lies from the area (0 inside it), not counting the reach.
    func distance(to p: ScreenPoint) -> Double {
        if polygon.count >= 3, Self.convex(polygon, contains: p) { return 0 }
        if polygon.count == 1 { return Self.distance(p, polygon[0]) }
        var best = Double.infinity
        for i in polygon.indices { best = min(best, Self.distance(p, polygon[i], polygon[(i + 1) % polygon.count])) }
        return best
    }

    /// How far a segment lies from the area (0 when it enters it), not counting the reach.
    func distance(from a: ScreenPoint, to b: ScreenPoint) -> Double {
        if polygon.count >= 3, Self.convex(polygon, contains: a) { return 0 }
        if polygon.count == 1 { return Self.distance(polygon[0], a, b) }
        var best = Double.infinity
        for i in polygon.indices {
            best = min(best, Self.segmentDistance(a, b, polygon[i], polygon[(i + 1) % polygon.count]))
            if best == 0 { break }
        }
        return best
    }

    /// Whether a line (a ring when `closed`) comes within `halfWidth` (plus the reach) of the area.
    func reaches(line: [ScreenPoint], closed: Bool, within halfWidth: Double) -> Bool {
        let limit = halfWidth + reach
        guard let box = CanvasRect(around: line, margin: halfWidth), box.intersects(bounds) else { return false }
        if line.count == 1 { return distance(to: line[0]) <= limit }
        for i in 0..<(line.count - 1) where distance(from: line[i], to: line[i + 1]) <= limit { return true }
        return closed && line.count > 2 && distance(from: line[line.count - 1], to: line[0]) <= limit
    }

    /// Whether a polygon (its exterior ring, then its holes) meets the area: part of the area
    /// inside it (even-odd, so not in a hole), or an edge within the reach.
    static func hits(polygon rings: [[ScreenPoint]], _ area: QueryArea) -> Bool {
        guard let exterior = rings.first, let box = CanvasRect(around: exterior), box.intersects(area.bounds) else { return false }
        if area.polygon.contains(where: { evenOdd(rings, contains: $0) }) { return true }
        guard area.polygon.count > 1 || area.reach > 0 else { return false }
        for ring in rings where ring.count >= 2 {
            for i in ring.indices where area.distance(from: ring[i], to: ring[(i + 1) % ring.count]) <= area.reach { return true }
        }
        return false
    }

    // MARK: Primitives

    static func cross(_ a: ScreenPoint, _ b: ScreenPoint, _ p: ScreenPoint) -> Double {
        (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
    }

    static func signedArea(_ ring: [ScreenPoint]) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x * b.y - b.x * a.y
        }
        return sum / 2
    }

    /// Whether a convex polygon (either orientation) holds a point, its edges included.
    static func convex(_ polygon: [ScreenPoint], contains p: ScreenPoint) -> Bool {
        var positive = false, negative = false
        for i in polygon.indices {
            let c = cross(polygon[i], polygon[(i + 1) % polygon.count], p)
            if c > 0 { positive = true } else if c < 0 { negative = true }
            if positive && negative { return false }
        }
        return true
    }

    /// Even-odd: whether a point lies inside the rings (inside the exterior, outside the holes).
    static func evenOdd(_ rings: [[ScreenPoint]], contains p: ScreenPoint) -> Bool {
        var inside = false
        for ring in rings where ring.count >= 3 {
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    static func intersection(_ p: ScreenPoint, _ q: ScreenPoint, _ a: ScreenPoint, _ b: ScreenPoint) -> ScreenPoint {
        let d1 = cross(a, b, p), d2 = cross(a, b, q)
        let t = d1 == d2 ? 0 : d1 / (d1 - d2)
        return (p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t)
    }

    static func distance(_ p: ScreenPoint, _ q: ScreenPoint) -> Double { ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() }

    /// From a point to a segment.
    static func distance(_ p: ScreenPoint, _ a: ScreenPoint, _ b: ScreenPoint) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = dx * dx + dy * dy
        guard length > 0 else { return distance(p, a) }
        let t = min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length, 0), 1)
        return distance(p, (a.x + t * dx, a.y + t * dy))
    }

    /// Between two segments: 0 when they cross or touch.
    static func segmentDistance(_ a: ScreenPoint, _ b: ScreenPoint, _ c: ScreenPoint, _ d: ScreenPoint) -> Double {
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return 0 }
        return min(distance(a, c, d), distance(b, c, d), distance(c, a, b), distance(d, a, b))
    }
}

/// Cutting lines and rings to an axis-aligned box (a tile's square in world coordinates).
enum CanvasClip {
    /// The runs of a line inside the box (Liang–Barsky per segment, joined where they continue).
    static func line(_ points: [ScreenPoint], to box: CanvasRect) -> [[ScreenPoint]] {
        if points.count == 1 { return box.contains(points[0]) ? [points] : [] }
        var runs: [[ScreenPoint]] = [], current: [ScreenPoint] = []
        for i in 0..<max(points.count - 1, 0) {
            guard let (a, b) = segment(points[i], points[i + 1], to: box) else {
                if !current.isEmpty { runs.append(current); current = [] }
                continue
            }
            if let last = current.last, last == a {
                current.append(b)
            } else {
                if !current.isEmpty { runs.append(current) }
                current = [a, b]
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    static func segment(_ p: ScreenPoint, _ q: ScreenPoint, to box: CanvasRect) -> (ScreenPoint, ScreenPoint)? {
        var t0 = 0.0, t1 = 1.0
        let dx = q.x - p.x, dy = q.y - p.y
        for (denominator, numerator) in [(-dx, p.x - box.minX), (dx, box.maxX - p.x), (-dy, p.y - box.minY), (dy, box.maxY - p.y)] {
            if denominator == 0 {
                if numerator < 0 { return nil }
                continue
            }
            let t = numerator / denominator
            if denominator < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            if t0 > t1 { return nil }
        }
        let a = t0 == 0 ? p : (p.x + dx * t0, p.y + dy * t0)
        let b = t1 == 1 ? q : (p.x + dx * t1, p.y + dy * t1)
        return (a, b)
    }

    /// A ring cut to the box (Sutherland–Hodgman); fewer than three points when nothing is left.
    static func ring(_ points: [ScreenPoint], to box: CanvasRect) -> [ScreenPoint] {
        guard !points.isEmpty, let bounds = CanvasRect(around: points) else { return [] }
        if bounds.minX >= box.minX, bounds.maxX <= box.maxX, bounds.minY >= box.minY, bounds.maxY <= box.maxY { return points }
        let corners: [ScreenPoint] = [(box.minX, box.minY), (box.maxX, box.minY), (box.maxX, box.maxY), (box.minX, box.maxY)]
        return QueryArea(polygon: points).clipped(to: corners)?.polygon ?? []
    }
}
