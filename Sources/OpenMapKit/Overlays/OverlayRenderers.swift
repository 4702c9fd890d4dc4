// MapKit's overlay renderers, drawing into snapshot images with Cairo.
//
// As in MapKit, a renderer draws in its own coordinate space: map points measured from the
// origin of its overlay's boundingMapRect (`point(for:)`), with the context scaled by the zoom
// scale (screen points per map point). Widths set on a ``CGContext`` are therefore in map points;
// the path renderers' `lineWidth` is in screen points and is divided by the zoom scale when
// applied, so a 5-point line is 5 points wide at any zoom and 10 pixels in a 2× snapshot.

import Foundation
import MapRender

/// Where an overlay is drawn among the map's layers (MapKit's `MKOverlayLevel`).
public enum MKOverlayLevel: Int, Sendable, Hashable {
    /// Above roads, below labels, road shields and point-of-interest icons.
    case aboveRoads = 0
    /// Above labels too, below annotations.
    case aboveLabels = 1
}

/// How stroked lines end (Core Graphics' `CGLineCap`).
public enum CGLineCap: Int32, Sendable { case butt, round, square }
/// How stroked lines turn corners (Core Graphics' `CGLineJoin`).
public enum CGLineJoin: Int32, Sendable { case miter, round, bevel }

/// Core Graphics' colour type; renderer colours are ``UIColor``s, so it is the same type.
public typealias CGColor = UIColor
extension UIColor {
    /// The colour for Core Graphics calls (the same object here).
    public var cgColor: CGColor { self }
}

// MARK: - Paths

/// A vector path in a renderer's coordinates (Core Graphics' `CGPath`): subpaths of lines and
/// cubic curves (arcs and ellipses are stored as curves).
public class CGPath: @unchecked Sendable {
    var elements: [RenderPathElement]
    fileprivate(set) var currentPoint = CGPoint.zero

    init(elements: [RenderPathElement]) { self.elements = elements }

    /// Whether the path has no segments.
    public var isEmpty: Bool { !elements.contains { if case .move = $0 { false } else if case .close = $0 { false } else { true } } }

    /// The smallest rectangle holding every point and control point.
    public var boundingBox: CGRect {
        var xs: [Double] = [], ys: [Double] = []
        for element in elements {
            switch element {
            case .move(let x, let y), .line(let x, let y): xs.append(x); ys.append(y)
            case .curve(let x1, let y1, let x2, let y2, let x, let y): xs += [x1, x2, x]; ys += [y1, y2, y]
            case .arc, .close: break
            }
        }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// A path being built (Core Graphics' `CGMutablePath`).
public final class CGMutablePath: CGPath, @unchecked Sendable {
    public init() { super.init(elements: []) }

    public func move(to point: CGPoint) {
        elements.append(.move(x: Double(point.x), y: Double(point.y)))
        currentPoint = point
    }

    public func addLine(to point: CGPoint) {
        if elements.isEmpty { move(to: point); return }
        elements.append(.line(x: Double(point.x), y: Double(point.y)))
        currentPoint = point
    }

    /// A subpath through `points` (open).
    public func addLines(between points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { addLine(to: p) }
    }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        if elements.isEmpty { move(to: currentPoint) }
        elements.append(.curve(x1: Double(control1.x), y1: Double(control1.y), x2: Double(control2.x), y2: Double(control2.y),
                               x: Double(end.x), y: Double(end.y)))
        currentPoint = end
    }

    public func closeSubpath() { elements.append(.close) }

    public func addRect(_ rect: CGRect) {
        move(to: CGPoint(x: rect.minX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        closeSubpath()
    }

    /// The ellipse inscribed in `rect`, as four Bézier quarters.
    public func addEllipse(in rect: CGRect) {
        let k = 0.5522847498
        let cx = Double(rect.midX), cy = Double(rect.midY), rx = Double(rect.width) / 2, ry = Double(rect.height) / 2
        move(to: CGPoint(x: cx + rx, y: cy))
        addCurve(to: CGPoint(x: cx, y: cy + ry), control1: CGPoint(x: cx + rx, y: cy + k * ry), control2: CGPoint(x: cx + k * rx, y: cy + ry))
        addCurve(to: CGPoint(x: cx - rx, y: cy), control1: CGPoint(x: cx - k * rx, y: cy + ry), control2: CGPoint(x: cx - rx, y: cy + k * ry))
        addCurve(to: CGPoint(x: cx, y: cy - ry), control1: CGPoint(x: cx - rx, y: cy - k * ry), control2: CGPoint(x: cx - k * rx, y: cy - ry))
        addCurve(to: CGPoint(x: cx + rx, y: cy), control1: CGPoint(x: cx + k * rx, y: cy - ry), control2: CGPoint(x: cx + rx, y: cy - k * ry))
        closeSubpath()
    }

    /// Appends another path's subpaths.
    public func addPath(_ path: CGPath) {
        elements += path.elements
        currentPoint = path.currentPoint
    }
}

// MARK: - Context

/// The drawing surface a renderer's `draw(_:zoomScale:in:)` receives (a small part of Core
/// Graphics' `CGContext`), in the renderer's coordinates.
///
/// It keeps a current path and the usual graphics state (colours, line width in user space —
/// map points —, caps, joins, dashes, alpha), saved and restored with ``saveGState()`` and
/// ``restoreGState()``.
///
/// Differs from Core Graphics: ``fillPath()`` always fills by the even–odd rule, as MapKit's
/// polygons are filled (Core Graphics' default is the non-zero winding rule).
public final class CGContext {
    let canvas: RenderCanvas
    let viewport: MapViewport
    /// The renderer's origin in map points.
    let origin: MKMapPoint
    /// Screen points per renderer unit.
    let scale: Double

    struct State {
        var fill = RenderColor.black
        var stroke = RenderColor.black
        var lineWidth = 1.0
        var cap = CGLineCap.butt
        var join = CGLineJoin.miter
        var miterLimit = 10.0
        var dashes: [Double] = []
        var dashPhase = 0.0
        var alpha = 1.0
    }
    var state = State()
    private var saved: [State] = []
    private var path: [RenderPathElement] = []
    /// The fraction of each stroke's length to draw (MapKit's `strokeStart` / `strokeEnd`).
    var strokeRange: ClosedRange<Double> = 0...1

    init(canvas: RenderCanvas, viewport: MapViewport, origin: MKMapPoint) {
        self.canvas = canvas
        self.viewport = viewport
        self.origin = origin
        scale = Double(viewport.zoomScale)
    }

    /// Device pixels per point of the image being drawn.
    public var contentScale: CGFloat { CGFloat(canvas.scale) }

    public func saveGState() { saved.append(state) }
    public func restoreGState() { if let last = saved.popLast() { state = last } }

    public func setFillColor(_ color: UIColor) { state.fill = color.renderColor }
    public func setStrokeColor(_ color: UIColor) { state.stroke = color.renderColor }
    /// The line width in the renderer's units (map points).
    public func setLineWidth(_ width: CGFloat) { state.lineWidth = Double(width) }
    public func setLineCap(_ cap: CGLineCap) { state.cap = cap }
    public func setLineJoin(_ join: CGLineJoin) { state.join = join }
    public func setMiterLimit(_ limit: CGFloat) { state.miterLimit = Double(limit) }
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        state.dashPhase = Double(phase)
        state.dashes = lengths.map(Double.init)
    }
    public func setAlpha(_ alpha: CGFloat) { state.alpha = min(max(Double(alpha), 0), 1) }

    public func beginPath() { path = [] }
    public func move(to point: CGPoint) { path.append(.move(x: Double(point.x), y: Double(point.y))) }
    public func addLine(to point: CGPoint) { path.append(.line(x: Double(point.x), y: Double(point.y))) }
    public func closePath() { path.append(.close) }
    public func addPath(_ cgPath: CGPath) { path += cgPath.elements }
    public func addRect(_ rect: CGRect) {
        let p = CGMutablePath()
        p.addRect(rect)
        addPath(p)
    }
    public func addEllipse(in rect: CGRect) {
        let p = CGMutablePath()
        p.addEllipse(in: rect)
        addPath(p)
    }

    /// Fills the current path (even–odd, as MapKit's polygons) and clears it.
    public func fillPath() {
        canvas.fill(path: projected(path, filling: true), color: faded(state.fill))
        path = []
    }

    /// Strokes the current path with the state's line settings and clears it.
    public func strokePath() {
        let style = RenderStrokeStyle(width: state.lineWidth * scale,
                                      cap: state.cap == .round ? .round : state.cap == .square ? .square : .butt,
                                      join: state.join == .round ? .round : state.join == .bevel ? .bevel : .miter,
                                      miterLimit: state.miterLimit, dashes: state.dashes.map { $0 * scale }, dashPhase: state.dashPhase * scale)
        let onScreen = projected(path, filling: false)
        let drawn = strokeRange == 0...1 ? onScreen : Self.trim(onScreen, to: strokeRange)
        canvas.stroke(path: drawn, style: style, color: faded(state.stroke))
        path = []
    }

    /// Fills a rectangle in the fill colour.
    public func fill(_ rect: CGRect) {
        beginPath()
        addRect(rect)
        fillPath()
    }

    /// Draws a tile image covering a square of map points.
    func drawTile(_ image: RenderImage, mapOrigin: MKMapPoint, mapSize: Double) {
        let topLeft = viewport.point(for: mapOrigin)
        canvas.draw(image, x: Double(topLeft.x), y: Double(topLeft.y), size: mapSize * scale,
                    angle: -viewport.heading * .pi / 180, opacity: state.alpha)
    }

    /// A renderer point on the canvas.
    func canvasPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let p = viewport.point(for: MKMapPoint(x: origin.x + x, y: origin.y + y))
        return (Double(p.x), Double(p.y))
    }

    /// The nearest depth (in view heights, see ``MapViewport/cameraDepth(of:)``) drawn: a pitched
    /// camera sees the ground behind it nowhere, and the ground just in front of it far below the
    /// frame (the bottom edge lies at ≥ 0.6 at 60°), so paths are cut there before projecting.
    static let nearDepth = 0.1

    /// A path in renderer coordinates projected onto the canvas. Under a pitched camera the parts
    /// behind ``nearDepth`` are cut off (a point behind the camera has no place on screen, and
    /// one path through it would otherwise vanish whole): a stroke lifts the pen where it leaves
    /// the visible side and starts again where it comes back; a fill follows the cut instead, so
    /// its rings stay closed.
    func projected(_ path: [RenderPathElement], filling: Bool) -> [RenderPathElement] {
        func depth(_ x: Double, _ y: Double) -> Double { viewport.cameraDepth(of: MKMapPoint(x: origin.x + x, y: origin.y + y)) }
        func point(_ x: Double, _ y: Double) -> (x: Double, y: Double) { canvasPoint(x, y) }
        var result: [RenderPathElement] = []
        result.reserveCapacity(path.count)
        var start: (x: Double, y: Double, depth: Double)?   // the subpath's first point
        var last: (x: Double, y: Double, depth: Double)?    // the previous point
        var penDown = false, cut = false
        /// The segment from `last` to (x, y) at depth `d`, clipped to the near depth.
        func segment(to x: Double, _ y: Double, _ d: Double) {
            defer { last = (x, y, d) }
            guard let from = last else { return }
            let near = Self.nearDepth
            switch (from.depth >= near, d >= near) {
            case (true, true):
                if !penDown {
                    // After a close: the next segment starts at the subpath's first point.
                    let f = point(from.x, from.y)
                    result.append(.move(x: f.x, y: f.y))
                }
                let p = point(x, y)
                result.append(.line(x: p.x, y: p.y))
                penDown = true
            case (true, false), (false, true):
                cut = true
                let t = (near - from.depth) / (d - from.depth)
                let c = point(from.x + (x - from.x) * t, from.y + (y - from.y) * t)
                if from.depth >= near {
                    result.append(.line(x: c.x, y: c.y))
                    penDown = filling
                } else {
                    result.append(penDown ? .line(x: c.x, y: c.y) : .move(x: c.x, y: c.y))
                    let p = point(x, y)
                    result.append(.line(x: p.x, y: p.y))
                    penDown = true
                }
            case (false, false):
                cut = true
            }
        }
        for element in path {
            switch element {
            case .move(let x, let y):
                let d = depth(x, y)
                (start, last, penDown, cut) = ((x, y, d), (x, y, d), false, false)
                if d >= Self.nearDepth {
                    let p = point(x, y)
                    result.append(.move(x: p.x, y: p.y))
                    penDown = true
                }
            case .line(let x, let y):
                segment(to: x, y, depth(x, y))
            case .curve(let x1, let y1, let x2, let y2, let x, let y):
                let d = depth(x, y)
                if let from = last, from.depth >= Self.nearDepth, depth(x1, y1) >= Self.nearDepth, depth(x2, y2) >= Self.nearDepth,
                   d >= Self.nearDepth, penDown {
                    let a = point(x1, y1), b = point(x2, y2), c = point(x, y)
                    result.append(.curve(x1: a.x, y1: a.y, x2: b.x, y2: b.y, x: c.x, y: c.y))
                    last = (x, y, d)
                } else {
                    // A curve crossing the cut is cut as its chord.
                    segment(to: x, y, d)
                }
            case .arc:
                result.append(element)
            case .close:
                guard let first = start else { continue }
                if cut || !penDown {
                    // The closing edge, cut like the others; a stroke stays open where it was cut.
                    segment(to: first.x, first.y, first.depth)
                    if filling, penDown { result.append(.close) }
                } else {
                    result.append(.close)
                }
                (last, penDown, cut) = (first, false, false)
            }
        }
        return result
    }

    private func faded(_ color: RenderColor) -> RenderColor {
        RenderColor(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha * state.alpha)
    }

    /// The path's subpaths flattened to polylines (curves in 16 steps), each with whether it closes.
    static func polylines(_ path: [RenderPathElement]) -> [(points: [(x: Double, y: Double)], closed: Bool)] {
        var result: [(points: [(x: Double, y: Double)], closed: Bool)] = []
        var current: [(x: Double, y: Double)] = []
        func finish(closed: Bool) {
            if current.count >= 2 { result.append((current, closed)) }
            current = closed && !current.isEmpty ? [current[0]] : []
            if closed { current = [] }
        }
        for element in path {
            switch element {
            case .move(let x, let y):
                finish(closed: false)
                current = [(x, y)]
            case .line(let x, let y):
                current.append((x, y))
            case .curve(let x1, let y1, let x2, let y2, let x, let y):
                guard let start = current.last else { current = [(x, y)]; continue }
                for step in 1...16 {
                    let t = Double(step) / 16, u = 1 - t
                    current.append((u * u * u * start.x + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x,
                                    u * u * u * start.y + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y))
                }
            case .arc:
                break
            case .close:
                if let first = current.first { current.append(first) }
                finish(closed: true)
            }
        }
        finish(closed: false)
        return result
    }

    /// The part of the path between two fractions of its total length.
    static func trim(_ path: [RenderPathElement], to range: ClosedRange<Double>) -> [RenderPathElement] {
        let lines = polylines(path).map(\.points)
        func length(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double { hypot(b.x - a.x, b.y - a.y) }
        let total = lines.reduce(0) { sum, line in sum + zip(line, line.dropFirst()).reduce(0) { $0 + length($1.0, $1.1) } }
        guard total > 0 else { return [] }
        let start = max(0, range.lowerBound) * total, end = min(1, range.upperBound) * total
        var out: [RenderPathElement] = []
        var travelled = 0.0
        for line in lines {
            var open = false
            for (a, b) in zip(line, line.dropFirst()) {
                let d = length(a, b)
                defer { travelled += d }
                let s = max(start, travelled), e = min(end, travelled + d)
                guard e > s, d > 0 else { open = false; continue }
                let t0 = (s - travelled) / d, t1 = (e - travelled) / d
                let p0 = (a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0), p1 = (a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)
                if !open { out.append(.move(x: p0.0, y: p0.1)); open = true }
                out.append(.line(x: p1.0, y: p1.1))
            }
        }
        return out
    }
}

// MARK: - Renderers

/// Draws an overlay (MapKit's `MKOverlayRenderer`). Subclasses override
/// ``draw(_:zoomScale:in:)``; this base class draws nothing.
///
/// Differs from MapKit: a renderer draws synchronously, once per image, for the whole visible
/// map rectangle (not tile by tile on background threads), into OpenMapKit's small
/// ``CGContext``; so ``setNeedsDisplay()`` has nothing to redo.
open class MKOverlayRenderer: NSObject, @unchecked Sendable {
    public let overlay: any MKOverlay
    /// The overlay's opacity, 0…1 (default 1).
    open var alpha: CGFloat = 1
    /// Device pixels per point of the image being drawn (set while drawing).
    open var contentScaleFactor: CGFloat = 1

    public init(overlay: any MKOverlay) {
        self.overlay = overlay
        super.init()
    }

    /// The renderer point of a map point: map points from the overlay's bounding rectangle's origin.
    public func point(for mapPoint: MKMapPoint) -> CGPoint {
        let origin = overlay.boundingMapRect.origin
        return CGPoint(x: mapPoint.x - origin.x, y: mapPoint.y - origin.y)
    }

    /// The map point of a renderer point.
    public func mapPoint(for point: CGPoint) -> MKMapPoint {
        let origin = overlay.boundingMapRect.origin
        return MKMapPoint(x: Double(point.x) + origin.x, y: Double(point.y) + origin.y)
    }

    /// The renderer rectangle of a map rectangle.
    public func rect(for mapRect: MKMapRect) -> CGRect {
        let p = point(for: mapRect.origin)
        return CGRect(x: p.x, y: p.y, width: mapRect.width, height: mapRect.height)
    }

    /// The map rectangle of a renderer rectangle.
    public func mapRect(for rect: CGRect) -> MKMapRect {
        let p = mapPoint(for: rect.origin)
        return MKMapRect(x: p.x, y: p.y, width: Double(rect.width), height: Double(rect.height))
    }

    /// Whether the renderer is ready to draw `mapRect` (default true).
    open func canDraw(_ mapRect: MKMapRect, zoomScale: MKZoomScale) -> Bool { true }

    /// Draws the part of the overlay inside `mapRect` at `zoomScale` (screen points per map point).
    open func draw(_ mapRect: MKMapRect, zoomScale: MKZoomScale, in context: CGContext) {}

    /// Marks the drawing out of date; snapshots always draw afresh, so there is nothing to redo.
    open func setNeedsDisplay() {}
    open func setNeedsDisplay(_ mapRect: MKMapRect) {}
    open func setNeedsDisplay(_ mapRect: MKMapRect, zoomScale: MKZoomScale) {}

    /// Draws the renderer on a canvas showing `viewport`, as a snapshot does: once, for the
    /// visible map rectangle, at the renderer's alpha. A tile overlay's renderer waits up to
    /// `tileWait` seconds for tiles still loading (a map view frame waits for none).
    func render(on canvas: RenderCanvas, viewport: MapViewport, tileWait: TimeInterval = SnapshotEngine.tileWait) {
        (self as? MKTileOverlayRenderer)?.tileWait = tileWait
        let visible = viewport.visibleMapRect
        guard overlay.intersects(visible) || overlay is MKTileOverlay else { return }
        contentScaleFactor = CGFloat(canvas.scale)
        guard canDraw(visible, zoomScale: viewport.zoomScale) else { return }
        let context = CGContext(canvas: canvas, viewport: viewport, origin: overlay.boundingMapRect.origin)
        canvas.beginGroup()
        draw(visible, zoomScale: viewport.zoomScale, in: context)
        canvas.endGroup(opacity: Double(alpha))
    }
}

/// A renderer that fills and strokes a path (MapKit's `MKOverlayPathRenderer`): subclasses build
/// ``path`` in ``createPath()``; drawing fills it, then strokes it.
///
/// Differs from MapKit: ``shouldRasterize`` is kept but changes nothing.
open class MKOverlayPathRenderer: MKOverlayRenderer, @unchecked Sendable {
    /// The fill colour; nil fills nothing.
    open var fillColor: UIColor?
    /// The stroke colour; nil strokes nothing.
    open var strokeColor: UIColor?
    /// The stroke width in screen points; 0 is the thinnest line the image can show (one pixel).
    open var lineWidth: CGFloat = 0
    open var lineJoin: CGLineJoin = .round
    open var lineCap: CGLineCap = .round
    open var miterLimit: CGFloat = 10
    /// How far into the dash pattern lines start, in screen points.
    open var lineDashPhase: CGFloat = 0
    /// Alternating dash and gap lengths in screen points; nil or empty draws solid lines.
    open var lineDashPattern: [NSNumber]?
    /// Kept for MapKit compatibility; snapshots are rasterized anyway.
    open var shouldRasterize = false
    /// The path, in renderer coordinates; built by ``createPath()`` when first needed.
    open var path: CGPath!

    /// Builds ``MKOverlayPathRenderer/path``. The base class builds none.
    open func createPath() {}

    /// Drops ``path`` so the next drawing builds it again.
    open func invalidatePath() { path = nil }

    /// Sets the context's stroke colour, width (points turned into renderer units), caps, joins
    /// and dashes from the renderer's properties.
    open func applyStrokeProperties(to context: CGContext, atZoomScale zoomScale: MKZoomScale) {
        let scale = max(Double(zoomScale), .leastNormalMagnitude)
        let width = lineWidth > 0 ? Double(lineWidth) : 1 / Double(context.contentScale)
        context.setStrokeColor(strokeColor ?? .clear)
        context.setLineWidth(CGFloat(width / scale))
        context.setLineCap(lineCap)
        context.setLineJoin(lineJoin)
        context.setMiterLimit(miterLimit)
        context.setLineDash(phase: CGFloat(Double(lineDashPhase) / scale),
                            lengths: (lineDashPattern ?? []).map { CGFloat($0.doubleValue / scale) })
    }

    /// Sets the context's fill colour.
    open func applyFillProperties(to context: CGContext, atZoomScale zoomScale: MKZoomScale) {
        context.setFillColor(fillColor ?? .clear)
    }

    /// Strokes `path` with the context's current stroke settings.
    open func strokePath(_ path: CGPath, in context: CGContext) {
        context.beginPath()
        context.addPath(path)
        context.strokePath()
    }

    /// Fills `path` with the context's fill colour.
    open func fillPath(_ path: CGPath, in context: CGContext) {
        context.beginPath()
        context.addPath(path)
        context.fillPath()
    }

    /// The fraction of the stroke's length drawn (`strokeStart` … `strokeEnd` of the subclasses).
    var strokeFractions: ClosedRange<Double> { 0...1 }

    open override func draw(_ mapRect: MKMapRect, zoomScale: MKZoomScale, in context: CGContext) {
        if path == nil { createPath() }
        guard let path else { return }
        if fillColor != nil {
            context.saveGState()
            applyFillProperties(to: context, atZoomScale: zoomScale)
            fillPath(path, in: context)
            context.restoreGState()
        }
        if strokeColor != nil {
            context.saveGState()
            applyStrokeProperties(to: context, atZoomScale: zoomScale)
            let fractions = strokeFractions
            context.strokeRange = fractions.lowerBound...max(fractions.lowerBound, fractions.upperBound)
            strokePath(path, in: context)
            context.strokeRange = 0...1
            context.restoreGState()
        }
    }

    /// A path through map points, in this renderer's coordinates.
    func addPolyline(_ points: [MKMapPoint], to path: CGMutablePath, closed: Bool) {
        guard !points.isEmpty else { return }
        path.addLines(between: points.map(point(for:)))
        if closed { path.closeSubpath() }
    }
}

/// Strokes a polyline (MapKit's `MKPolylineRenderer`); it never fills.
open class MKPolylineRenderer: MKOverlayPathRenderer, @unchecked Sendable {
    public let polyline: MKPolyline
    /// The fraction of the line's length where the stroke starts (0…1, default 0).
    open var strokeStart: CGFloat = 0
    /// The fraction where it ends (0…1, default 1).
    open var strokeEnd: CGFloat = 1

    public init(polyline: MKPolyline) {
        self.polyline = polyline
        super.init(overlay: polyline)
    }

    public override convenience init(overlay: any MKOverlay) {
        self.init(polyline: overlay as? MKPolyline ?? MKPolyline(points: []))
    }

    open override func createPath() {
        let path = CGMutablePath()
        addPolyline(polyline.points(), to: path, closed: false)
        self.path = path
    }

    override var strokeFractions: ClosedRange<Double> { Double(strokeStart)...Double(max(strokeStart, strokeEnd)) }

    open override var fillColor: UIColor? {
        get { nil }
        set {}
    }
}

/// Fills and strokes a polygon with its holes (MapKit's `MKPolygonRenderer`).
open class MKPolygonRenderer: MKOverlayPathRenderer, @unchecked Sendable {
    public let polygon: MKPolygon
    open var strokeStart: CGFloat = 0
    open var strokeEnd: CGFloat = 1

    public init(polygon: MKPolygon) {
        self.polygon = polygon
        super.init(overlay: polygon)
    }

    open override func createPath() {
        let path = CGMutablePath()
        Self.add(polygon, to: path, renderer: self)
        self.path = path
    }

    override var strokeFractions: ClosedRange<Double> { Double(strokeStart)...Double(max(strokeStart, strokeEnd)) }

    /// The polygon's exterior and its interior polygons (holes, by the even–odd rule).
    static func add(_ polygon: MKPolygon, to path: CGMutablePath, renderer: MKOverlayPathRenderer) {
        // A ring written closed ends on its first point: that point is where the path closes, not
        // a zero-length last side (which would give the stroke a join without a direction there).
        let points = polygon.points()
        renderer.addPolyline(polygon.repeatsFirstPoint ? Array(points.dropLast()) : points, to: path, closed: true)
        for hole in polygon.interiorPolygons ?? [] { add(hole, to: path, renderer: renderer) }
    }
}

/// Fills and strokes a circle (MapKit's `MKCircleRenderer`). The circle is round in map points,
/// as MapKit draws it: its radius in metres times the map points per metre at its centre.
open class MKCircleRenderer: MKOverlayPathRenderer, @unchecked Sendable {
    public let circle: MKCircle
    open var strokeStart: CGFloat = 0
    open var strokeEnd: CGFloat = 1

    public init(circle: MKCircle) {
        self.circle = circle
        super.init(overlay: circle)
    }

    open override func createPath() {
        let path = CGMutablePath()
        path.addEllipse(in: rect(for: circle.boundingMapRect))
        self.path = path
    }

    override var strokeFractions: ClosedRange<Double> { Double(strokeStart)...Double(max(strokeStart, strokeEnd)) }
}

/// Strokes several polylines as one shape (MapKit's `MKMultiPolylineRenderer`).
open class MKMultiPolylineRenderer: MKOverlayPathRenderer, @unchecked Sendable {
    public let multiPolyline: MKMultiPolyline

    public init(multiPolyline: MKMultiPolyline) {
        self.multiPolyline = multiPolyline
        super.init(overlay: multiPolyline)
    }

    open override func createPath() {
        let path = CGMutablePath()
        for line in multiPolyline.polylines { addPolyline(line.points(), to: path, closed: false) }
        self.path = path
    }
}

/// Fills and strokes several polygons as one shape (MapKit's `MKMultiPolygonRenderer`).
open class MKMultiPolygonRenderer: MKOverlayPathRenderer, @unchecked Sendable {
    public let multiPolygon: MKMultiPolygon

    public init(multiPolygon: MKMultiPolygon) {
        self.multiPolygon = multiPolygon
        super.init(overlay: multiPolygon)
    }

    open override func createPath() {
        let path = CGMutablePath()
        for polygon in multiPolygon.polygons { MKPolygonRenderer.add(polygon, to: path, renderer: self) }
        self.path = path
    }
}

/// A polyline whose colour changes along its length (MapKit's `MKGradientPolylineRenderer`).
///
/// ``locations`` are fractions (0…1) of the line's length where each of ``colors`` is reached;
/// between two locations the colour blends linearly, before the first and after the last it is
/// the end colour. Without locations the colours are spread evenly.
open class MKGradientPolylineRenderer: MKPolylineRenderer, @unchecked Sendable {
    public private(set) var colors: [UIColor] = []
    public private(set) var locations: [CGFloat] = []

    /// Sets the colours and where along the line each is reached.
    open func setColors(_ colors: [UIColor], locations: [CGFloat]) {
        self.colors = colors
        self.locations = locations
    }

    /// The colour at fraction `t` of the length.
    func color(at t: Double) -> RenderColor {
        guard !colors.isEmpty else { return (strokeColor ?? .clear).renderColor }
        let stops: [Double] = locations.count == colors.count
            ? locations.map { Double($0) }
            : colors.indices.map { colors.count == 1 ? 0 : Double($0) / Double(colors.count - 1) }
        let pairs = zip(stops, colors).sorted { $0.0 < $1.0 }
        if t <= pairs[0].0 { return pairs[0].1.renderColor }
        for (a, b) in zip(pairs, pairs.dropFirst()) where t <= b.0 {
            let f = b.0 > a.0 ? (t - a.0) / (b.0 - a.0) : 1
            let c0 = a.1.renderColor, c1 = b.1.renderColor
            return RenderColor(red: c0.red + (c1.red - c0.red) * f, green: c0.green + (c1.green - c0.green) * f,
                               blue: c0.blue + (c1.blue - c0.blue) * f, alpha: c0.alpha + (c1.alpha - c0.alpha) * f)
        }
        return pairs[pairs.count - 1].1.renderColor
    }

    open override func draw(_ mapRect: MKMapRect, zoomScale: MKZoomScale, in context: CGContext) {
        guard !colors.isEmpty else { return super.draw(mapRect, zoomScale: zoomScale, in: context) }
        let points = polyline.points()
        guard points.count >= 2 else { return }
        var cumulative: [Double] = [0]
        for (a, b) in zip(points, points.dropFirst()) { cumulative.append(cumulative.last! + hypot(b.x - a.x, b.y - a.y)) }
        let total = cumulative.last!
        guard total > 0 else { return }
        // Breakpoints: every vertex and every colour stop, so each piece is one linear blend.
        var fractions = Set(cumulative.map { $0 / total })
        for location in locations where location > 0 && location < 1 { fractions.insert(Double(location)) }
        let lower = Double(strokeStart), upper = Double(max(strokeStart, strokeEnd))
        fractions.insert(min(max(lower, 0), 1))
        fractions.insert(min(max(upper, 0), 1))
        let sorted = fractions.filter { $0 >= lower && $0 <= upper }.sorted()
        func mapPoint(at t: Double) -> MKMapPoint {
            let distance = t * total
            var index = 0
            while index < cumulative.count - 2 && cumulative[index + 1] < distance { index += 1 }
            let span = cumulative[index + 1] - cumulative[index]
            let f = span > 0 ? (distance - cumulative[index]) / span : 0
            return MKMapPoint(x: points[index].x + (points[index + 1].x - points[index].x) * f,
                              y: points[index].y + (points[index + 1].y - points[index].y) * f)
        }
        let width = lineWidth > 0 ? Double(lineWidth) : 1 / Double(context.contentScale)
        let style = RenderStrokeStyle(width: width, cap: lineCap == .round ? .round : lineCap == .square ? .square : .butt,
                                      join: .round, miterLimit: Double(miterLimit))
        for (t0, t1) in zip(sorted, sorted.dropFirst()) where t1 > t0 {
            let a = point(for: mapPoint(at: t0)), b = point(for: mapPoint(at: t1))
            let p0 = context.canvasPoint(Double(a.x), Double(a.y)), p1 = context.canvasPoint(Double(b.x), Double(b.y))
            context.canvas.strokeGradientSegment(from: p0, to: p1, startColor: color(at: t0), endColor: color(at: t1), style: style)
        }
    }
}

extension MKOverlayRenderer {
    /// The renderer MapKit apps usually return for an overlay: a path renderer of the shape's kind
    /// (or a tile renderer), unstyled.
    public static func defaultRenderer(for overlay: any MKOverlay) -> MKOverlayRenderer {
        switch overlay {
        case let tiles as MKTileOverlay: MKTileOverlayRenderer(tileOverlay: tiles)
        case let line as MKPolyline: MKPolylineRenderer(polyline: line)
        case let polygon as MKPolygon: MKPolygonRenderer(polygon: polygon)
        case let circle as MKCircle: MKCircleRenderer(circle: circle)
        case let lines as MKMultiPolyline: MKMultiPolylineRenderer(multiPolyline: lines)
        case let polygons as MKMultiPolygon: MKMultiPolygonRenderer(multiPolygon: polygons)
        default: MKOverlayRenderer(overlay: overlay)
        }
    }
}
