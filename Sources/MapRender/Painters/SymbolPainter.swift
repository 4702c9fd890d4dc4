import Foundation
import MapGeometry
import MapStyle

/// The symbol layer properties the renderer reads (compiled by ``CompiledLayer``).
enum SymbolProperties {
    static let layout = [
        "symbol-placement", "symbol-spacing", "symbol-sort-key", "symbol-z-order",
        "text-field", "text-font", "text-size", "text-transform", "text-max-width", "text-line-height", "text-letter-spacing",
        "text-justify", "text-anchor", "text-offset", "text-radial-offset", "text-variable-anchor", "text-rotate",
        "text-max-angle", "text-keep-upright", "text-rotation-alignment", "text-padding", "text-allow-overlap", "text-overlap",
        "text-ignore-placement", "text-optional",
        "icon-image", "icon-size", "icon-anchor", "icon-offset", "icon-rotate", "icon-allow-overlap", "icon-overlap",
        "icon-ignore-placement", "icon-optional", "icon-padding", "icon-text-fit", "icon-text-fit-padding", "icon-rotation-alignment",
    ]
    static let paint = [
        "text-color", "text-opacity", "text-halo-color", "text-halo-width", "text-halo-blur", "text-translate", "text-translate-anchor",
        "icon-opacity", "icon-color", "icon-halo-color", "icon-halo-width", "icon-halo-blur", "icon-translate", "icon-translate-anchor",
    ]
}

/// A symbol that won its place: what to draw for it, on the canvas.
struct PlacedSymbol {
    struct Icon {
        var sheet: SpriteSheet
        var entry: SpriteSheet.Entry
        var name: String
        var center: ScreenPoint
        var width: Double, height: Double
        var angle: Double
        var opacity: Double
        var color: RenderColor?
        var haloColor: RenderColor?
        var haloWidth: Double
    }

    var sortKey: Double
    var order: Int
    /// The anchor the symbol was placed at (for `viewport-y` ordering, and tests).
    var anchor: ScreenPoint
    var glyphs: [CanvasGlyph]
    var faces: [FontFace]
    var size: Double
    var textColor: RenderColor
    var haloColor: RenderColor?
    var haloWidth: Double
    var haloBlur: Double
    var icon: Icon?
    /// The feature the symbol labels, as placement read it (a street's ways joined into one line),
    /// and the clip of the tile it came from (nil for GeoJSON): what a feature query reports.
    var feature: RenderFeature
    var clip: [ScreenPoint]?
    /// The boxes the placed text and icon took, padding included, as collisions were tested:
    /// where a feature query finds the symbol.
    var boxes: [CollisionBox]
}

/// Places the labels of every symbol layer in one frame and draws them.
///
/// Placement follows MapLibre: the layers from the top of the style down, within a layer by
/// `symbol-sort-key` and then by tile and feature order, each symbol tested against what is
/// already placed (``CollisionIndex``); drawing then follows the style's layer order, icons
/// under text and every halo of a layer under all its text. Layout properties are read at the
/// tile's integer zoom, `text-size` and `icon-size` (which MapLibre interpolates per frame) and
/// paint properties at the camera's zoom.
///
/// Not done: `text-writing-mode` (vertical CJK), `text-variable-anchor-offset`, formatted text's
/// per-section fonts, scales and colours (sections are joined into one string), images inside
/// text, `icon-text-fit` stretch zones (the icon is scaled whole), `symbol-avoid-edges` and
/// pitch alignment (pitch is always 0).
struct SymbolPlacer {
    let transform: ScreenTransform
    let zoom: Double
    let pixelRatio: Double
    let catalog: FontCatalog
    let sprites: StyleSprites
    let availableImages: Set<String>
    var collision: CollisionIndex
    var shapes: [TextShapeKey: ShapedLabel?] = [:]
    var placed: [Int: [PlacedSymbol]] = [:]
    var warnings: Set<String> = []
    var masks: [String: SpriteMask] = [:]

    init(transform: ScreenTransform, zoom: Double, pixelRatio: Double, width: Double, height: Double, margin: Double,
         catalog: FontCatalog, sprites: StyleSprites, shapes: [TextShapeKey: ShapedLabel?] = [:]) {
        self.shapes = shapes
        self.transform = transform
        self.zoom = zoom
        self.pixelRatio = pixelRatio
        self.catalog = catalog
        self.sprites = sprites
        availableImages = sprites.availableNames
        collision = CollisionIndex(width: width, height: height, margin: margin)
    }

    private var layoutZoom: Double { zoom.rounded(.down) }
    /// How much bigger than at its tile's integer zoom the map is drawn.
    private var tileScale: Double { exp2(zoom - layoutZoom) }

    // MARK: Feature selection

    private struct Candidate {
        var group: Int
        var feature: RenderFeature
        var context: EvaluationContext
        var sortKey: Double
        var clip: [ScreenPoint]?
    }

    /// Places the symbols of one layer (`index` is its position in the style).
    mutating func place(_ layer: CompiledLayer, index: Int, groups: [FeatureGroup]) {
        let base = EvaluationContext(zoom: layoutZoom, availableImages: availableImages)
        func layout(_ name: String) -> CompiledProperty? { layer.layout[name] }
        let hasSortKey = layer.layer.layout["symbol-sort-key"] != nil
        var candidates: [Candidate] = []
        for (g, group) in groups.enumerated() {
            let key = group.clip == nil ? "" : (layer.layer.sourceLayer ?? "")
            for feature in group.layers[key] ?? [] {
                var context = base
                context.properties = feature.properties
                context.id = feature.id
                context.geometryType = feature.geometryType
                if let filter = layer.filter, !filter.matches(context) { continue }
                let sortKey = hasSortKey ? (layout("symbol-sort-key")?.number(context) ?? 0) : 0
                candidates.append(Candidate(group: g, feature: feature, context: context, sortKey: sortKey, clip: group.clip))
            }
        }
        if hasSortKey {
            candidates = candidates.enumerated().sorted { ($0.element.sortKey, $0.offset) < ($1.element.sortKey, $1.offset) }.map(\.element)
        }
        if layer.layout["symbol-placement"]?.string(base) == "line" { candidates = mergedLines(candidates, layer: layer) }
        let skip = duplicatePolygonPieces(candidates, groups: groups, layer: layer)
        var symbols: [PlacedSymbol] = []
        var pointLabels: [String: [(group: Int, point: ScreenPoint)]] = [:]
        for (order, candidate) in candidates.enumerated() where !skip.contains(order) {
            placeFeature(candidate, order: order, layer: layer, group: groups[candidate.group], pointLabels: &pointLabels, into: &symbols)
        }
        placed[index] = symbols
    }

    /// Streets come as many short ways with the same name; like MapLibre, lines of one tile with
    /// the same text where one ends exactly where the next starts are joined into one line first,
    /// so the name has room to be placed along the street.
    private func mergedLines(_ candidates: [Candidate], layer: CompiledLayer) -> [Candidate] {
        struct PointKey: Hashable { let x: Double, y: Double }
        var lines: [(candidate: Int, line: [ScreenPoint], text: String, group: Int)] = []
        for (index, candidate) in candidates.enumerated() {
            guard case .lines(let parts) = candidate.feature.shape else { continue }
            let text = labelText(layer, candidate.context)
            for part in parts where part.count >= 2 { lines.append((index, part, text, candidate.group)) }
        }
        guard !lines.isEmpty else { return candidates }
        var merged = lines.map { Optional($0) }
        var starts: [String: [PointKey: Int]] = [:]
        for (i, line) in lines.enumerated() where !line.text.isEmpty {
            let key = "\(line.group)|" + line.text
            let start = PointKey(x: line.line[0].x, y: line.line[0].y)
            if starts[key, default: [:]][start] == nil { starts[key, default: [:]][start] = i }
        }
        for i in lines.indices {
            guard var current = merged[i], !current.text.isEmpty else { continue }
            let key = "\(current.group)|" + current.text
            var guardCount = 0
            while guardCount < lines.count, let last = current.line.last,
                  let next = starts[key]?[PointKey(x: last.x, y: last.y)], next != i, let following = merged[next] {
                current.line += following.line.dropFirst()
                merged[next] = nil
                starts[key]?[PointKey(x: following.line[0].x, y: following.line[0].y)] = nil
                guardCount += 1
            }
            merged[i] = current
        }
        var ordered: [(index: Int, candidate: Candidate)] = []
        for (index, candidate) in candidates.enumerated() {
            if case .lines = candidate.feature.shape { continue }
            ordered.append((index, candidate))
        }
        for line in merged.compactMap({ $0 }) {
            var candidate = candidates[line.candidate]
            candidate.feature.shape = .lines([line.line])
            ordered.append((line.candidate, candidate))
        }
        // Placement order stays that of the features (each merged line at its first feature's place).
        return ordered.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(\.element.candidate)
    }

    /// A polygon cut into pieces by tiles would get a label per piece: of the pieces of one
    /// feature (same id, or without ids the same text close by), only the largest is labelled.
    private func duplicatePolygonPieces(_ candidates: [Candidate], groups: [FeatureGroup], layer: CompiledLayer) -> Set<Int> {
        guard groups.count > 1 else { return [] }
        var best: [String: [(order: Int, group: Int, area: Double, center: ScreenPoint)]] = [:]
        var skip: Set<Int> = []
        let near = 512 * tileScale
        for (order, candidate) in candidates.enumerated() {
            guard case .polygons(let polygons) = candidate.feature.shape else { continue }
            let text = labelText(layer, candidate.context)
            let key = candidate.feature.id.isNull ? "text:" + text : "id:\(candidate.feature.id.displayString)|" + text
            var area = 0.0, cx = 0.0, cy = 0.0, count = 0.0
            for polygon in polygons {
                guard let ring = polygon.first else { continue }
                area += abs(Self.ringArea(ring))
                for p in ring { cx += p.x; cy += p.y; count += 1 }
            }
            let center: ScreenPoint = count > 0 ? (cx / count, cy / count) : (0, 0)
            var list = best[key, default: []]
            if let i = list.firstIndex(where: { $0.group != candidate.group && (!candidate.feature.id.isNull
                                                    || LineLabelPlacement.distance($0.center, center) < near) }) {
                if list[i].area >= area {
                    skip.insert(order)
                } else {
                    skip.insert(list[i].order)
                    list[i] = (order, candidate.group, area, center)
                }
            } else {
                list.append((order, candidate.group, area, center))
            }
            best[key] = list
        }
        return skip
    }

    static func ringArea(_ ring: [ScreenPoint]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for p in ring {
            sum += previous.x * p.y - p.x * previous.y
            previous = p
        }
        return sum / 2
    }

    // MARK: Layout of one feature

    private func labelText(_ layer: CompiledLayer, _ context: EvaluationContext) -> String {
        guard let property = layer.layout["text-field"], property.expression != nil else { return "" }
        let value = property.evaluate(context)
        var text: String = switch value {
        case .null: ""
        case .formatted(let formatted): formatted.sections.map(\.text).joined()
        default: value.displayString
        }
        switch layer.layout["text-transform"]?.string(context) {
        case "uppercase": text = text.uppercased()
        case "lowercase": text = text.lowercased()
        default: break
        }
        return text
    }

    private func strings(_ value: ExpressionValue) -> [String] {
        switch value {
        case .array(let items): items.compactMap(\.stringValue)
        case .string(let s): [s]
        default: []
        }
    }

    private func pair(_ property: CompiledProperty?, _ context: EvaluationContext) -> (x: Double, y: Double) {
        let values = property?.numbers(context) ?? []
        guard values.count >= 2, values[0].isFinite, values[1].isFinite else { return (0, 0) }
        return (values[0], values[1])
    }

    private static func flag(_ property: CompiledProperty?, _ context: EvaluationContext) -> Bool {
        property?.evaluate(context).booleanValue ?? false
    }

    /// `*-allow-overlap`, or the newer `*-overlap` when the style sets it ("always" overlaps).
    private static func allowsOverlap(_ layer: CompiledLayer, _ prefix: String, _ context: EvaluationContext) -> Bool {
        if layer.layer.layout[prefix + "-overlap"] != nil, let mode = layer.layout[prefix + "-overlap"]?.string(context) {
            return mode == "always"
        }
        return flag(layer.layout[prefix + "-allow-overlap"], context)
    }

    private mutating func shape(_ key: TextShapeKey) -> ShapedLabel? {
        if let cached = shapes[key] { return cached }
        let label = ShapedLabel.shape(key, catalog: catalog)
        shapes[key] = .some(label)
        return label
    }

    /// Whether `point` is inside the tile's square (strictly, by a hair), for dropping anchors that
    /// lie in a tile's buffer and belong to its neighbour.
    private static func inside(_ point: ScreenPoint, _ clip: [ScreenPoint]?) -> Bool {
        guard let clip, clip.count == 4 else { return true }
        var sign = 0.0
        for i in 0..<4 {
            let a = clip[i], b = clip[(i + 1) % 4]
            let cross = (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)
            if abs(cross) < 1e-6 * max(1, abs(b.x - a.x) + abs(b.y - a.y)) { return false }
            if sign == 0 { sign = cross } else if (sign > 0) != (cross > 0) { return false }
        }
        return true
    }

    private mutating func placeFeature(_ candidate: Candidate, order: Int, layer: CompiledLayer, group: FeatureGroup,
                                       pointLabels: inout [String: [(group: Int, point: ScreenPoint)]], into symbols: inout [PlacedSymbol]) {
        let context = candidate.context
        var sizeContext = context
        sizeContext.zoom = zoom
        let text = labelText(layer, context)
        // Icon: a missing image is a warning, and the symbol goes on without it.
        var iconImage: (sheet: SpriteSheet, entry: SpriteSheet.Entry, name: String)?
        if let property = layer.layout["icon-image"], property.expression != nil {
            let value = property.evaluate(context)
            let name: String = switch value {
            case .image(let image): image.name
            case .string(let s): s
            default: ""
            }
            if !name.isEmpty {
                if let found = sprites.image(name) {
                    iconImage = (found.sheet, found.entry, name)
                } else {
                    warnings.insert("layer \(layer.layer.id): icon-image \"\(name)\" is not in the sprite")
                }
            }
        }
        let textSize = layer.layout["text-size"]?.number(sizeContext) ?? 16
        var label: ShapedLabel?
        if !text.isEmpty, textSize.isFinite, textSize > 0 {
            let size = min(textSize, 1000)
            let placement = layer.layout["symbol-placement"]?.string(context) ?? "point"
            var maxWidth = placement == "point" ? (layer.layout["text-max-width"]?.number(context) ?? 10) : 0
            if !maxWidth.isFinite || maxWidth > 10_000 { maxWidth = 0 }
            let letterSpacing = layer.layout["text-letter-spacing"]?.number(context) ?? 0
            let stack = strings(layer.layout["text-font"]?.evaluate(context) ?? .null)
            label = shape(TextShapeKey(text: text, stack: stack.isEmpty ? ["Open Sans Regular", "Arial Unicode MS Regular"] : stack,
                                       size: size, maxWidth: maxWidth, letterSpacing: max(min(letterSpacing, 100), -10)))
        }
        guard label != nil || iconImage != nil else { return }

        let placement = layer.layout["symbol-placement"]?.string(context) ?? "point"
        let scale = tileScale
        switch (placement, candidate.feature.shape) {
        case ("point", .points(let points)):
            for p in points { placeAt(p, line: nil, candidate: candidate, order: order, layer: layer, label: label, icon: iconImage, into: &symbols) }
        case ("point", .lines(let lines)):
            // MapLibre puts a point-placed label on every vertex of a line.
            for line in lines {
                for p in line where Self.inside(p, group.clip) {
                    placeAt(p, line: nil, candidate: candidate, order: order, layer: layer, label: label, icon: iconImage, into: &symbols)
                }
            }
        case ("point", .polygons(let polygons)):
            for polygon in polygons {
                let rings = polygon.map { $0.map { MKMapPoint(x: $0.x, y: $0.y) } }
                guard let point = labelPoint(polygon: rings, precision: 1) else { continue }
                let p: ScreenPoint = (point.x, point.y)
                // The same text from a neighbouring tile close by is the same place, already tried.
                if group.clip != nil, !text.isEmpty {
                    let near = max(textSize, 16) * 2
                    if pointLabels[text, default: []].contains(where: { $0.group != candidate.group && LineLabelPlacement.distance($0.point, p) < near }) {
                        continue
                    }
                    pointLabels[text, default: []].append((candidate.group, p))
                }
                placeAt(p, line: nil, candidate: candidate, order: order, layer: layer, label: label, icon: iconImage, into: &symbols)
            }
        case (_, .points):
            break
        case (_, .lines), (_, .polygons):
            var allLines: [[ScreenPoint]] = []
            switch candidate.feature.shape {
            case .lines(let l): allLines = l
            case .polygons(let polygons): allLines = polygons.flatMap { $0 }
            case .points: break
            }
            let size = label?.size ?? textSize
            let labelLength = max(label?.maxLineWidth ?? 0, iconImage.map { $0.entry.pointWidth * (layer.layout["icon-size"]?.number(sizeContext) ?? 1) } ?? 0)
            let spacing = (layer.layout["symbol-spacing"]?.number(context) ?? 250) * scale
            let maxAngle = (layer.layout["text-max-angle"]?.number(context) ?? 45) * .pi / 180
            for line in allLines where line.count >= 2 {
                let anchors: [LineAnchor]
                if placement == "line-center" {
                    anchors = LineLabelPlacement.centerAnchor(line, labelLength: labelLength * scale, size: size * scale, maxAngle: maxAngle)
                        .map { [$0] } ?? []
                } else {
                    let continued = group.clip != nil && !Self.inside(line[0], group.clip)
                    anchors = LineLabelPlacement.anchors(line, spacing: spacing, labelLength: labelLength * scale, size: size * scale,
                                                         maxAngle: maxAngle, continued: continued)
                }
                for anchor in anchors where Self.inside((anchor.x, anchor.y), group.clip) {
                    placeAt((anchor.x, anchor.y), line: (line, anchor), candidate: candidate, order: order, layer: layer,
                            label: label, icon: iconImage, into: &symbols)
                }
            }
        }
    }

    // MARK: Placing one symbol

    private func rotated(_ x: Double, _ y: Double, _ angle: Double) -> ScreenPoint {
        if angle == 0 { return (x, y) }
        let c = cos(angle), s = sin(angle)
        return (x * c - y * s, x * s + y * c)
    }

    /// The axis-aligned box around a rectangle (relative to `center`) turned by `angle`.
    private func box(_ left: Double, _ top: Double, _ right: Double, _ bottom: Double, around center: ScreenPoint, angle: Double) -> CollisionBox {
        let corners = [rotated(left, top, angle), rotated(right, top, angle), rotated(right, bottom, angle), rotated(left, bottom, angle)]
        return CollisionBox(minX: center.x + corners.map(\.x).min()!, minY: center.y + corners.map(\.y).min()!,
                            maxX: center.x + corners.map(\.x).max()!, maxY: center.y + corners.map(\.y).max()!)
    }

    private func translation(_ layer: CompiledLayer, _ prefix: String, _ context: EvaluationContext) -> ScreenPoint {
        let values = layer.paint[prefix + "-translate"]?.numbers(context) ?? []
        guard values.count == 2, values[0].isFinite, values[1].isFinite, values[0] != 0 || values[1] != 0 else { return (0, 0) }
        if layer.paint[prefix + "-translate-anchor"]?.string(context) == "viewport" { return (values[0], values[1]) }
        return transform.rotate(values[0], values[1])
    }

    private func fits(_ boxes: [CollisionBox], allowOverlap: Bool) -> Bool {
        guard !boxes.isEmpty, boxes.allSatisfy({ collision.contains($0) }) else { return false }
        return allowOverlap || !collision.collides(boxes)
    }

    private mutating func placeAt(_ anchor: ScreenPoint, line: (points: [ScreenPoint], anchor: LineAnchor)?, candidate: Candidate,
                                  order: Int, layer: CompiledLayer, label: ShapedLabel?,
                                  icon: (sheet: SpriteSheet, entry: SpriteSheet.Entry, name: String)?, into symbols: inout [PlacedSymbol]) {
        let context = candidate.context
        var paintContext = context
        paintContext.zoom = zoom
        let bearingAngle = -atan2(transform.sinBearing, transform.cosBearing)
        let onLine = line != nil
        func aligned(_ prefix: String) -> Bool {
            let alignment = layer.layout[prefix + "-rotation-alignment"]?.string(context) ?? "auto"
            return alignment == "map" || (alignment == "auto" && onLine)
        }
        let textOffset = pair(layer.layout["text-offset"], context)
        let lineHeight = layer.layout["text-line-height"]?.number(context) ?? 1.2
        let justifyName = layer.layout["text-justify"]?.string(context) ?? "center"
        let textPadding = max(layer.layout["text-padding"]?.number(context) ?? 2, 0)
        let textAllowOverlap = Self.allowsOverlap(layer, "text", context)
        let textIgnore = Self.flag(layer.layout["text-ignore-placement"], context)
        let textOptional = Self.flag(layer.layout["text-optional"], context)
        let iconAllowOverlap = Self.allowsOverlap(layer, "icon", context)
        let iconIgnore = Self.flag(layer.layout["icon-ignore-placement"], context)
        let iconOptional = Self.flag(layer.layout["icon-optional"], context)
        let textTranslate = translation(layer, "text", paintContext)
        let iconTranslate = translation(layer, "icon", paintContext)
        var anchors: [TextAnchor] = []
        let radial = layer.layout["text-radial-offset"]?.expression != nil ? layer.layout["text-radial-offset"]?.number(context) : nil
        if !onLine, let variable = layer.layout["text-variable-anchor"], variable.expression != nil {
            anchors = strings(variable.evaluate(context)).compactMap(TextAnchor.init(rawValue:))
        }
        let isVariable = !anchors.isEmpty
        if anchors.isEmpty { anchors = [TextAnchor(rawValue: layer.layout["text-anchor"]?.string(context) ?? "center") ?? .center] }
        let iconSize = layer.layout["icon-size"]?.number(paintContext) ?? 1

        for textAnchor in anchors {
            // Text geometry for this anchor.
            var glyphs: [CanvasGlyph] = []
            var textBoxes: [CollisionBox] = []
            var block: TextBlock?
            var textAngle = 0.0
            if let label {
                let size = label.size
                var offset: (x: Double, y: Double)
                if let radial, radial.isFinite, radial != 0 || isVariable {
                    offset = textAnchor.radialOffset(radial)
                } else if isVariable {
                    offset = textAnchor.variableOffset(textOffset)
                } else {
                    offset = textOffset
                }
                offset = (offset.x * size, offset.y * size)
                let justify: Double = switch justifyName {
                case "left": 0
                case "right": 1
                case "auto": textAnchor.autoJustify
                default: 0.5
                }
                let positioned = TextBlock(label, anchor: textAnchor, justify: justify, lineHeight: lineHeight, offset: offset)
                block = positioned
                if let line, aligned("text") {
                    if let laid = glyphsAlongLine(positioned, label: label, line: line.points, anchor: line.anchor,
                                                  keepUpright: layer.layout["text-keep-upright"]?.evaluate(context).booleanValue ?? true,
                                                  translate: textTranslate, padding: textPadding) {
                        glyphs = laid.glyphs
                        textBoxes = laid.boxes
                    } else if !textOptional {
                        // The text runs off the line: without it the icon is not placed either.
                        return
                    }
                } else {
                    textAngle = (layer.layout["text-rotate"]?.number(context) ?? 0) * .pi / 180 + (aligned("text") ? bearingAngle : 0)
                    let origin: ScreenPoint = (anchor.x + textTranslate.x, anchor.y + textTranslate.y)
                    glyphs = positioned.glyphs.map { g in
                        let p = rotated(g.x, g.y, textAngle)
                        return CanvasGlyph(face: g.face, id: g.id, x: origin.x + p.x, y: origin.y + p.y, angle: textAngle)
                    }
                    textBoxes = [box(positioned.left, positioned.top, positioned.right, positioned.bottom, around: origin, angle: textAngle)
                        .padded(textPadding)]
                }
            }
            // Icon geometry.
            var placedIcon: PlacedSymbol.Icon?
            var iconBox: CollisionBox?
            if let icon {
                let size = iconSize.isFinite ? min(max(iconSize, 0), 100) : 1
                var w = icon.entry.pointWidth * size, h = icon.entry.pointHeight * size
                let iconAnchor = TextAnchor(rawValue: layer.layout["icon-anchor"]?.string(context) ?? "center") ?? .center
                let iconOffset = pair(layer.layout["icon-offset"], context)
                var left = -iconAnchor.horizontalAlign * w + iconOffset.x * size
                var top = -iconAnchor.verticalAlign * h + iconOffset.y * size
                let fit = layer.layout["icon-text-fit"]?.string(context) ?? "none"
                if fit != "none", let block {
                    let padding = layer.layout["icon-text-fit-padding"]?.numbers(context) ?? []
                    let p = padding.count == 4 ? padding : [0, 0, 0, 0]
                    if fit == "width" || fit == "both" {
                        left = block.left - p[3]
                        w = block.right - block.left + p[1] + p[3]
                    }
                    if fit == "height" || fit == "both" {
                        top = block.top - p[0]
                        h = block.bottom - block.top + p[0] + p[2]
                    }
                }
                var angle = (layer.layout["icon-rotate"]?.number(context) ?? 0) * .pi / 180
                if aligned("icon") {
                    if let line {
                        let a = line.anchor
                        let p0 = line.points[a.segment], p1 = line.points[a.segment + 1]
                        var segmentAngle = atan2(p1.y - p0.y, p1.x - p0.x)
                        if cos(segmentAngle) < 0, fit != "none" { segmentAngle += .pi }
                        angle += segmentAngle
                    } else {
                        angle += bearingAngle
                    }
                }
                let origin: ScreenPoint = (anchor.x + iconTranslate.x, anchor.y + iconTranslate.y)
                let c = rotated(left + w / 2, top + h / 2, angle)
                let center: ScreenPoint = (origin.x + c.x, origin.y + c.y)
                let paddingValues = layer.layout["icon-padding"]?.numbers(context) ?? [2]
                let iconPadding = max(paddingValues.first ?? 2, 0)
                iconBox = box(-w / 2, -h / 2, w / 2, h / 2, around: center, angle: angle).padded(iconPadding)
                let opacity = layer.paint["icon-opacity"]?.number(paintContext) ?? 1
                placedIcon = PlacedSymbol.Icon(sheet: icon.sheet, entry: icon.entry, name: icon.name, center: center, width: w, height: h,
                                               angle: angle, opacity: opacity,
                                               color: icon.entry.sdf ? (layer.paint["icon-color"]?.color(paintContext) ?? .black) : nil,
                                               haloColor: icon.entry.sdf ? layer.paint["icon-halo-color"]?.color(paintContext) : nil,
                                               haloWidth: icon.entry.sdf ? max(layer.paint["icon-halo-width"]?.number(paintContext) ?? 0, 0) : 0)
            }
            let hasText = !glyphs.isEmpty
            let hasIcon = placedIcon != nil
            var placeText = hasText && fits(textBoxes, allowOverlap: textAllowOverlap)
            var placeIcon = hasIcon && fits(iconBox.map { [$0] } ?? [], allowOverlap: iconAllowOverlap)
            let iconWithoutText = !hasText || textOptional
            let textWithoutIcon = !hasIcon || iconOptional
            if !iconWithoutText && !textWithoutIcon {
                placeText = placeText && placeIcon
                placeIcon = placeText
            } else if !textWithoutIcon {
                placeText = placeText && placeIcon
            } else if !iconWithoutText {
                placeIcon = placeIcon && placeText
            }
            guard placeText || placeIcon else { continue }
            if placeText, !textIgnore { for b in textBoxes { collision.insert(b) } }
            if placeIcon, !iconIgnore, let iconBox { collision.insert(iconBox) }
            let size = label?.size ?? 0
            let haloWidth = min(max(layer.paint["text-halo-width"]?.number(paintContext) ?? 0, 0), size / 4)
            let opacity = min(max(layer.paint["text-opacity"]?.number(paintContext) ?? 1, 0), 1)
            let textColor = (layer.paint["text-color"]?.color(paintContext) ?? .black).withOpacity(opacity)
            let halo = layer.paint["text-halo-color"]?.color(paintContext).map { $0.withOpacity(opacity) }
            if var icon = placedIcon { icon.opacity = min(max(icon.opacity, 0), 1); placedIcon = icon }
            symbols.append(PlacedSymbol(sortKey: candidate.sortKey, order: order, anchor: anchor,
                                        glyphs: placeText ? glyphs : [], faces: label?.faces ?? [], size: size,
                                        textColor: textColor, haloColor: halo, haloWidth: haloWidth,
                                        haloBlur: max(layer.paint["text-halo-blur"]?.number(paintContext) ?? 0, 0),
                                        icon: placeIcon ? placedIcon : nil, feature: candidate.feature, clip: candidate.clip,
                                        boxes: (placeText ? textBoxes : []) + (placeIcon ? iconBox.map { [$0] } ?? [] : [])))
            return
        }
    }

    /// Glyphs following a line: each glyph's centre walks its distance from the label's centre
    /// along the line and the glyph turns to the direction of the segment it lands on. With
    /// `keepUpright`, a label that would read leftwards (upside down) is laid the other way.
    /// nil when the label runs off an end of the line.
    private func glyphsAlongLine(_ block: TextBlock, label: ShapedLabel, line: [ScreenPoint], anchor: LineAnchor, keepUpright: Bool,
                                 translate: ScreenPoint, padding: Double) -> (glyphs: [CanvasGlyph], boxes: [CollisionBox])? {
        func lay(flipped: Bool) -> (glyphs: [CanvasGlyph], boxes: [CollisionBox], centers: [ScreenPoint])? {
            var glyphs: [CanvasGlyph] = [], boxes: [CollisionBox] = [], centers: [ScreenPoint] = []
            glyphs.reserveCapacity(block.glyphs.count)
            let half = label.size * 0.5
            for g in block.glyphs {
                let along = g.x + g.advance / 2
                guard let (point, segmentAngle) = LineLabelPlacement.walk(line, from: anchor, by: flipped ? -along : along) else { return nil }
                let angle = flipped ? segmentAngle + .pi : segmentAngle
                let origin = rotated(-g.advance / 2, g.y, angle)
                let center = rotated(0, g.y - label.size * 0.35, angle)
                let p: ScreenPoint = (point.x + translate.x, point.y + translate.y)
                glyphs.append(CanvasGlyph(face: g.face, id: g.id, x: p.x + origin.x, y: p.y + origin.y, angle: angle))
                let c: ScreenPoint = (p.x + center.x, p.y + center.y)
                centers.append(c)
                if g.advance > 0 {
                    boxes.append(CollisionBox(minX: c.x - half, minY: c.y - half, maxX: c.x + half, maxY: c.y + half).padded(padding))
                }
            }
            return (glyphs, boxes, centers)
        }
        guard var laid = lay(flipped: false) else { return nil }
        if keepUpright {
            let a = line[anchor.segment], b = line[anchor.segment + 1]
            let readsLeft: Bool
            if let first = laid.centers.first, let last = laid.centers.last, laid.centers.count > 1, abs(last.x - first.x) > 1e-9 {
                readsLeft = last.x < first.x
            } else {
                readsLeft = b.x < a.x
            }
            if readsLeft {
                guard let flipped = lay(flipped: true) else { return nil }
                laid = flipped
            }
        }
        return (laid.glyphs, laid.boxes)
    }

    // MARK: Drawing

    /// Draws the placed symbols of the layer at `index`: icons, then every halo, then the text.
    mutating func draw(_ layer: CompiledLayer, index: Int, on canvas: RenderCanvas) {
        guard let placed = placed[index], !placed.isEmpty else { return }
        let symbols = Self.drawingOrder(placed, layer: layer, zoom: zoom)
        for symbol in symbols {
            guard let icon = symbol.icon else { continue }
            if let color = icon.color {
                let softness = 0.5 / 8 * icon.entry.pixelRatio / max(icon.width / icon.entry.pointWidth * pixelRatio, 0.01)
                if let haloColor = icon.haloColor, icon.haloWidth > 0, haloColor.alpha > 0 {
                    let reach = icon.haloWidth * icon.entry.pixelRatio / max(icon.width / icon.entry.pointWidth, 0.01) / 8
                    if let mask = mask(icon, cut: max(0.75 - reach, 0.01), softness: softness) {
                        canvas.drawSprite(icon.sheet, icon.entry, center: icon.center, width: icon.width, height: icon.height,
                                          angle: icon.angle, opacity: icon.opacity, sdf: (mask, haloColor))
                    }
                }
                if let mask = mask(icon, cut: 0.75, softness: softness) {
                    canvas.drawSprite(icon.sheet, icon.entry, center: icon.center, width: icon.width, height: icon.height,
                                      angle: icon.angle, opacity: icon.opacity, sdf: (mask, color))
                }
            } else {
                canvas.drawSprite(icon.sheet, icon.entry, center: icon.center, width: icon.width, height: icon.height,
                                  angle: icon.angle, opacity: icon.opacity)
            }
        }
        for symbol in symbols where !symbol.glyphs.isEmpty {
            guard let halo = symbol.haloColor, symbol.haloWidth > 0 || symbol.haloBlur > 0 else { continue }
            canvas.drawTextHalo(symbol.glyphs, faces: symbol.faces, size: symbol.size, color: halo, width: symbol.haloWidth, blur: symbol.haloBlur)
        }
        for symbol in symbols where !symbol.glyphs.isEmpty {
            canvas.drawTextFill(symbol.glyphs, faces: symbol.faces, size: symbol.size, color: symbol.textColor)
        }
    }

    /// A layer's placed symbols in the order they are drawn, each over the ones before it
    /// (`symbol-z-order`: by the anchor's height on the canvas, or by sort key, or as placed).
    static func drawingOrder(_ symbols: [PlacedSymbol], layer: CompiledLayer, zoom: Double) -> [PlacedSymbol] {
        let context = EvaluationContext(zoom: zoom.rounded(.down))
        let zOrder = layer.layout["symbol-z-order"]?.string(context) ?? "auto"
        let hasSortKey = layer.layer.layout["symbol-sort-key"] != nil
        let overlapping = allowsOverlap(layer, "text", context) || allowsOverlap(layer, "icon", context)
            || flag(layer.layout["text-ignore-placement"], context) || flag(layer.layout["icon-ignore-placement"], context)
        if zOrder == "viewport-y" || (zOrder == "auto" && !hasSortKey && overlapping) {
            return symbols.enumerated().sorted { ($0.element.anchor.y, $0.offset) < ($1.element.anchor.y, $1.offset) }.map(\.element)
        } else if hasSortKey, zOrder != "source" {
            return symbols.enumerated().sorted { ($0.element.sortKey, $0.offset) < ($1.element.sortKey, $1.offset) }.map(\.element)
        }
        return symbols
    }

    private mutating func mask(_ icon: PlacedSymbol.Icon, cut: Double, softness: Double) -> SpriteMask? {
        let key = "\(ObjectIdentifier(icon.sheet).hashValue)|\(icon.name)|\((cut * 200).rounded())|\((softness * 400).rounded())"
        if let cached = masks[key] { return cached }
        let mask = SpriteMask(sheet: icon.sheet, entry: icon.entry, cut: cut, softness: softness)
        masks[key] = mask
        return mask
    }
}
