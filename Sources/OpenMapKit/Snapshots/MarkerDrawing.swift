import Foundation
import MapRender

/// A balloon marker to draw: MapKit's `MKMarkerAnnotationView` and SwiftUI's `Marker`.
struct MarkerItem: @unchecked Sendable {
    enum Glyph {
        /// MapKit's default glyph (the pin).
        case pin
        /// Up to three letters.
        case text(String)
        case icon(PointOfInterestIcon)
        case image(UIImage)
    }

    var coordinate: CLLocationCoordinate2D
    var title: String?
    var tint: RenderColor
    var glyph: Glyph
    var showsTitle = true
    /// The colour of the pin, icon or text glyph (MapKit's `glyphTintColor`).
    var glyphColor = RenderColor.white
    /// The annotation it stands for, when made from one.
    var annotation: (any MKAnnotation)?
    /// Selected markers are drawn larger, as MapKit's balloons grow when selected.
    var isSelected = false
    /// The selection value of a `Map`'s marker (its `.tag`, or its map item).
    var tag: AnyHashable?

    /// The glyph as text, telling glyphs apart (images by identity).
    var glyphKey: String {
        switch glyph {
        case .pin: "pin"
        case .text(let text): "text \(text)"
        case .icon(let icon): "icon \(icon)"
        case .image(let image): "image \(ObjectIdentifier(image))"
        }
    }

    /// MapKit's default marker colour.
    static let defaultTint = UIColor.systemRed.renderColor

    init(coordinate: CLLocationCoordinate2D, title: String?, tint: RenderColor = MarkerItem.defaultTint, glyph: Glyph = .pin) {
        (self.coordinate, self.title, self.tint, self.glyph) = (coordinate, title, tint, glyph)
    }

    init(annotation: any MKAnnotation) {
        self.init(coordinate: annotation.coordinate, title: annotation.title ?? nil)
        self.annotation = annotation
    }

    /// The glyph for an SF Symbols name: the icon that looks like it, else the pin.
    static func glyph(systemImage name: String) -> Glyph {
        PointOfInterestIcon(systemImageName: name).map(Glyph.icon) ?? .pin
    }
}

/// A custom annotation to draw: SwiftUI's `Annotation`, its content drawn in a box of `size`
/// points placed so that `anchor` (a unit point of the box) sits on the coordinate.
struct AnnotationItem: @unchecked Sendable {
    var coordinate: CLLocationCoordinate2D
    var title: String?
    var anchor: UnitPoint
    var content: any AnnotationContent
    var showsTitle = true
    /// The selection value of a `Map`'s annotation (its `.tag`).
    var tag: AnyHashable?
}

/// How markers, annotations and the user's location are drawn over a snapshot.
///
/// Markers are MapKit's balloons: a disc in the tint colour with a tail whose tip is on the
/// coordinate, a white glyph, a soft shadow, and the title under the tip in dark text with a white
/// halo (light text with a dark halo on the dark map). Southern markers are drawn in front of
/// northern ones. Titles are placed in the order given (first given, first placed) and a title
/// that would overlap an already placed title or another marker's balloon is not drawn, as MapKit
/// hides colliding titles.
enum AnnotationDrawing {
    static let headRadius = 14.0
    static let tipToCenter = 25.0
    static let titleSize = 11.0
    static let titleStack = ["Noto Sans Bold"]
    private static let fontLock = NSLock()
    /// The fonts titles are shaped and drawn with (a `FontFace` keeps shaping and drawing apart,
    /// so one catalogue serves both).
    private static let fonts = FontCatalog(entries: FontCatalog.installed.entries)

    /// Shapes a line (under the lock: FreeType faces are not thread-safe).
    static func shape(_ text: String, stack: [String] = titleStack, size: Double) -> [ShapedRun] {
        fontLock.withLock { (try? fonts.shapeLine(text, stack: stack, size: size)) ?? [] }
    }

    /// Draws shaped runs from `x` along the baseline `y`, with a halo first when `halo` is given.
    static func draw(_ runs: [ShapedRun], x: Double, y: Double, color: RenderColor, halo: (width: Double, color: RenderColor)? = nil,
                     on canvas: RenderCanvas) {
        fontLock.withLock {
            if let halo {
                var penX = x
                for run in runs {
                    canvas.drawHalo(run, x: penX, y: y, width: halo.width, color: halo.color)
                    penX += run.advance
                }
            }
            var penX = x
            for run in runs {
                canvas.draw(run, x: penX, y: y, color: color)
                penX += run.advance
            }
        }
    }

    /// The titles drawn by the last call, for tests (titles, in drawing order).
    nonisolated(unsafe) static var lastDrawnTitles: [String] = []

    static func draw(markers: [MarkerItem], annotations: [AnnotationItem], userLocation: CLLocationCoordinate2D?,
                     showTitles: Bool, dark: Bool = false, on canvas: RenderCanvas, viewport: MapViewport) {
        if let userLocation { drawUserLocation(at: viewport.convert(userLocation), on: canvas) }
        let placed = markers.map { (item: $0, point: viewport.convert($0.coordinate)) }.filter { $0.point.x.isFinite && $0.point.y.isFinite }
        let boxes = placed.map { balloonBox(at: $0.point, scale: $0.item.isSelected ? selectedScale : 1) }
        for annotation in annotations {
            let point = viewport.convert(annotation.coordinate)
            guard point.x.isFinite, point.y.isFinite else { continue }
            let size = annotation.content.contentSize
            let rect = CGRect(x: Double(point.x) - Double(size.width) * annotation.anchor.x,
                              y: Double(point.y) - Double(size.height) * annotation.anchor.y, width: Double(size.width), height: Double(size.height))
            annotation.content.draw(on: canvas, in: rect)
        }
        for index in placed.indices.sorted(by: { placed[$0].point.y < placed[$1].point.y }) {
            drawBalloon(placed[index].item, at: placed[index].point, on: canvas)
        }
        // Titles: the first given wins; a title must not cover another title or another balloon.
        var taken: [CGRect] = []
        var drawn: [String] = []
        var titled: [(title: String, anchor: CGPoint, index: Int?)] = []
        for (index, marker) in placed.enumerated() where showTitles && marker.item.showsTitle {
            if let title = marker.item.title, !title.isEmpty { titled.append((title, marker.point, index)) }
        }
        for annotation in annotations where showTitles && annotation.showsTitle {
            guard let title = annotation.title, !title.isEmpty else { continue }
            let point = viewport.convert(annotation.coordinate)
            let size = annotation.content.contentSize
            let bottom = Double(point.y) + Double(size.height) * (1 - annotation.anchor.y)
            titled.append((title, CGPoint(x: point.x, y: bottom), nil))
        }
        for entry in titled {
            let runs = shape(entry.title, size: titleSize)
            guard !runs.isEmpty else { continue }
            let width = runs.reduce(0) { $0 + $1.advance }
            let rect = CGRect(x: Double(entry.anchor.x) - width / 2 - 2, y: Double(entry.anchor.y) + 1, width: width + 4, height: titleSize + 5)
            let hitsBalloon = boxes.enumerated().contains { $0.offset != entry.index && $0.element.intersects(rect) }
            guard !hitsBalloon, !taken.contains(where: { $0.intersects(rect) }) else { continue }
            taken.append(rect)
            drawn.append(entry.title)
            draw(runs, x: Double(entry.anchor.x) - width / 2, y: Double(entry.anchor.y) + 1 + titleSize,
                 color: dark ? RenderColor(red: 0.92, green: 0.92, blue: 0.94) : RenderColor(red: 0.2, green: 0.2, blue: 0.22),
                 halo: (3, dark ? RenderColor(red: 0.1, green: 0.1, blue: 0.12, alpha: 0.9) : RenderColor(red: 1, green: 1, blue: 1, alpha: 0.95)),
                 on: canvas)
        }
        fontLock.withLock { lastDrawnTitles = drawn }
    }

    /// Where markers, their titles and annotations will be drawn, so the map's labels keep clear
    /// of them (titles are measured as drawn; whether a title ends up drawn is decided later, so
    /// each one's place is kept free).
    static func reservedAreas(markers: [MarkerItem], annotations: [AnnotationItem], showTitles: Bool,
                              viewport: MapViewport) -> [(x: Double, y: Double, width: Double, height: Double)] {
        var areas: [CGRect] = []
        for marker in markers {
            let point = viewport.convert(marker.coordinate)
            guard point.x.isFinite, point.y.isFinite else { continue }
            areas.append(balloonBox(at: point))
            if showTitles, marker.showsTitle, let title = marker.title, !title.isEmpty {
                let width = shape(title, size: titleSize).reduce(0) { $0 + $1.advance }
                areas.append(CGRect(x: Double(point.x) - width / 2 - 2, y: Double(point.y) + 1, width: width + 4, height: titleSize + 5))
            }
        }
        for annotation in annotations {
            let point = viewport.convert(annotation.coordinate)
            guard point.x.isFinite, point.y.isFinite else { continue }
            let size = annotation.content.contentSize
            areas.append(CGRect(x: Double(point.x) - Double(size.width) * annotation.anchor.x,
                                y: Double(point.y) - Double(size.height) * annotation.anchor.y, width: Double(size.width), height: Double(size.height)))
        }
        return areas.map { (Double($0.origin.x), Double($0.origin.y), Double($0.size.width), Double($0.size.height)) }
    }

    /// How much larger a selected balloon is drawn.
    static let selectedScale = 1.5

    /// The square the balloon covers, tip at `point`.
    static func balloonBox(at point: CGPoint, scale: Double = 1) -> CGRect {
        let r = headRadius * scale, t = tipToCenter * scale
        return CGRect(x: Double(point.x) - r, y: Double(point.y) - t - r, width: 2 * r, height: t + r)
    }

    /// The balloon outline: a disc above the point and a tail down to it.
    static func balloonPath(tipX x: Double, tipY y: Double, scale: Double = 1) -> [RenderPathElement] {
        let cy = y - tipToCenter * scale, r = headRadius * scale
        let alpha = acos(headRadius / tipToCenter)
        return [.move(x: x, y: y),
                .arc(centerX: x, centerY: cy, radius: r, startAngle: .pi / 2 + alpha, endAngle: 2 * .pi + .pi / 2 - alpha),
                .close]
    }

    static func drawBalloon(_ marker: MarkerItem, at point: CGPoint, on canvas: RenderCanvas) {
        let x = Double(point.x), y = Double(point.y), scale = marker.isSelected ? selectedScale : 1
        let path = balloonPath(tipX: x, tipY: y, scale: scale)
        canvas.fillShadow(path: path, offsetX: 0, offsetY: 1, blur: 2, color: RenderColor(red: 0, green: 0, blue: 0, alpha: 0.22))
        canvas.fill(path: path, color: marker.tint)
        let edge = RenderColor(red: marker.tint.red * 0.75, green: marker.tint.green * 0.75, blue: marker.tint.blue * 0.75, alpha: marker.tint.alpha)
        canvas.stroke(path: path, style: RenderStrokeStyle(width: 0.75), color: edge)
        let cx = x, cy = y - tipToCenter * scale
        switch marker.glyph {
        case .pin:
            PointOfInterestIcon.pin.draw(on: canvas, centerX: cx, centerY: cy, size: 18 * scale, color: marker.glyphColor)
        case .icon(let icon):
            icon.draw(on: canvas, centerX: cx, centerY: cy, size: 17 * scale, color: marker.glyphColor)
        case .text(let text):
            drawMonogram(String(text.prefix(3)), centerX: cx, centerY: cy, scale: scale, color: marker.glyphColor, on: canvas)
        case .image(let image):
            guard let rendered = try? image.canvas.makeImage() else { return }
            let side = 18.0 * scale
            canvas.draw(rendered, x: cx - side / 2, y: cy - side / 2, width: side, height: side)
        }
    }

    static func drawMonogram(_ text: String, centerX: Double, centerY: Double, scale: Double = 1, color: RenderColor = .white,
                             on canvas: RenderCanvas) {
        let size = (text.count <= 1 ? 15.0 : text.count == 2 ? 13.0 : 10.5) * scale
        let runs = shape(text, size: size)
        let width = runs.reduce(0) { $0 + $1.advance }
        draw(runs, x: centerX - width / 2, y: centerY + size * 0.36, color: color, on: canvas)
    }

    /// `color` as drawn while its view is highlighted (pressed): a quarter darker.
    static func highlighted(_ color: RenderColor, _ isHighlighted: Bool) -> RenderColor {
        guard isHighlighted else { return color }
        return RenderColor(red: color.red * 0.75, green: color.green * 0.75, blue: color.blue * 0.75, alpha: color.alpha)
    }

    /// Records the titles a map view drew (for tests, as the snapshot drawing does).
    static func recordDrawnTitles(_ titles: [String]) {
        fontLock.withLock { lastDrawnTitles = titles }
    }

    /// The circle of a location's horizontal accuracy around the user's dot, `radius` points:
    /// translucent blue with a thin edge; nothing when it would hide under the dot's halo.
    static func drawAccuracyCircle(at point: CGPoint, radius: Double, on canvas: RenderCanvas) {
        let x = Double(point.x), y = Double(point.y)
        guard x.isFinite, y.isFinite, radius.isFinite, radius > 16 else { return }
        // A circle larger than any screen is drawn as large as one needs (cairo handles huge
        // arcs poorly).
        let r = min(radius, 20_000)
        let blue = UIColor.systemBlue.renderColor
        canvas.fillCircle(x: x, y: y, radius: r, color: RenderColor(red: blue.red, green: blue.green, blue: blue.blue, alpha: 0.12))
        canvas.stroke(path: [.arc(centerX: x, centerY: y, radius: r, startAngle: 0, endAngle: 2 * .pi), .close],
                      style: RenderStrokeStyle(width: 1), color: RenderColor(red: blue.red, green: blue.green, blue: blue.blue, alpha: 0.35))
    }

    /// MapKit's user-location dot: blue (or `tint`) with a white ring and a soft halo.
    static func drawUserLocation(at point: CGPoint, tint: RenderColor? = nil, on canvas: RenderCanvas) {
        let x = Double(point.x), y = Double(point.y)
        guard x.isFinite, y.isFinite else { return }
        let blue = tint ?? UIColor.systemBlue.renderColor
        canvas.fillCircle(x: x, y: y, radius: 16, color: RenderColor(red: blue.red, green: blue.green, blue: blue.blue, alpha: 0.15))
        canvas.fillShadow(path: [.arc(centerX: x, centerY: y, radius: 9, startAngle: 0, endAngle: 2 * .pi)], offsetX: 0, offsetY: 1,
                          blur: 2, color: RenderColor(red: 0, green: 0, blue: 0, alpha: 0.3))
        canvas.fillCircle(x: x, y: y, radius: 9, color: .white)
        canvas.fillCircle(x: x, y: y, radius: 6.5, color: blue)
    }
}
