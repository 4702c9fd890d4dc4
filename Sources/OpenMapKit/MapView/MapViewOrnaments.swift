// MKMapView's ornaments: the compass (top-right, while the map is rotated), the scale bar
// (top-left) and the data's credit (bottom-right, see MapAttribution.swift), drawn over the frame
// by render() as MapKit draws its MKCompassButton, MKScaleView and "Legal" label over the map.
//
// MapKit shows the scale bar only while the map zooms and fades it out afterwards; a headless
// frame has no "while", so here `showsScale` draws it on every frame (the rule a window driving
// the model also gets, deterministically).

import Foundation
import MapGeometry
import MapRender

extension MKMapView {
    /// The units the scale bar measures in (an OpenMapKit addition; MapKit follows the device's
    /// region): `.metric` (m, km) by default, `.imperial` (ft, mi), `.imperialWithYards` (yd, mi),
    /// or `.default` for the measurement system of `Locale.current`.
    public var scaleUnits: MKDistanceFormatter.Units {
        get { configurationState.scaleUnits }
        set { configurationState.scaleUnits = newValue }
    }

    /// Where the compass is drawn now, in points (an OpenMapKit addition, for a surface that
    /// handles clicks itself: a tap there turns the map north, see ``tap(at:)``); nil when it is
    /// not shown (``showsCompass`` is false, the map is not rotated, or the frame is too small to
    /// hold it).
    public var compassFrame: CGRect? {
        let layout = ornamentLayout
        guard showsCompass, hasArea else { return nil }
        switch layout.compassVisibility {
        case .hidden: return nil
        case .visible: break
        case .adaptive: guard MapViewOrnaments.isRotated(viewport.heading) else { return nil }
        }
        let side = MapViewOrnaments.compassDiameter
        var placement = layout.compass
        // Under the tracking and pitch buttons when they are shown, as MapKit stacks them.
        if !placement.corner.isBottom { placement.margins.y += compassOffsetForControls }
        let frame = MapViewOrnaments.frame(of: CGSize(width: side, height: side), at: placement, in: viewport.size)
        // Not drawn when the frame is too small to hold it with its margins.
        let m = layout.compass.margins
        guard frame.minX >= m.x - 1e-9, frame.minY >= m.y - 1e-9, frame.maxX <= viewport.size.width - m.x, frame.maxY <= viewport.size.height - m.y else { return nil }
        return frame
    }

    /// Where the ornaments sit and which are drawn (MapKit's layout unless a face sets another).
    var ornamentLayout: MapViewOrnamentLayout {
        get { configurationState.ornaments }
        set { configurationState.ornaments = newValue }
    }

    /// Whether frames carry the map data's credit, "© OpenStreetMap contributors" (and any the
    /// style's sources name), in a label at the bottom-right corner, where MapKit shows its
    /// "Legal" label (an OpenMapKit addition; default true).
    ///
    /// OpenStreetMap's licence asks for the credit wherever its map is shown: set this to false
    /// only where your app shows the credit beside the map itself.
    public var showsAttribution: Bool {
        get { !(ornamentLayout.attribution?.isHidden ?? true) }
        set { ornamentLayout.attribution?.isHidden = !newValue }
    }

    /// The credits of the style the last frame drew (see `MapAttribution`), which the
    /// attribution label shows.
    var ornamentAttribution: [String] {
        get { configurationState.attribution }
        set { configurationState.attribution = newValue }
    }

    /// Where the scale bar is drawn now; nil when it is not.
    var scaleBarFrame: CGRect? {
        guard let bar = scaleBar else { return nil }
        let labelWidth = AnnotationDrawing.shape(bar.label, stack: MapViewOrnaments.scaleLabelStack, size: MapViewOrnaments.scaleLabelSize)
            .reduce(0) { $0 + $1.advance }
        let size = CGSize(width: bar.width + labelWidth / 2 + 2, height: MapViewOrnaments.scaleHeight)
        return MapViewOrnaments.frame(of: size, at: ornamentLayout.scale, in: viewport.size)
    }

    /// Where the logo is drawn now; nil when the layout has none or it is hidden.
    var logoFrame: CGRect? {
        guard hasArea, let logo = ornamentLayout.logo, !logo.isHidden else { return nil }
        return MapViewOrnaments.frame(of: MapViewOrnaments.labelSize(MapViewOrnaments.logoText, size: MapViewOrnaments.logoTextSize),
                                      at: logo.placement, in: viewport.size)
    }

    /// Where the data's credit is drawn now, in points (an OpenMapKit addition, for a surface
    /// that draws over the frame and must leave the credit visible); nil when it is hidden or
    /// the last frame drew nothing to credit.
    public var attributionFrame: CGRect? {
        guard hasArea, let attribution = ornamentLayout.attribution, !attribution.isHidden else { return nil }
        return MapAttribution.frame(of: ornamentAttribution, at: attribution.placement, in: viewport.size)
    }

    /// Whether `point` (in points) is on the compass's disc while it is shown (an OpenMapKit
    /// addition, for a surface that handles clicks itself): where ``tap(at:)`` turns the map north.
    public func isOnCompass(_ point: CGPoint) -> Bool {
        guard let frame = compassFrame else { return false }
        return MapViewOrnaments.compassHit(frame, point)
    }

    /// The scale bar drawn now; nil when ``showsScale`` is false or the scale is unknown.
    var scaleBar: MapScaleBar? {
        guard showsScale, hasArea, !ornamentLayout.scaleHidden else { return nil }
        if let limit = ornamentLayout.scaleMaximumVisibleDistance, Double(viewport.size.width) * viewport.metersPerPoint >= limit { return nil }
        return MapScaleBar(metersPerPoint: viewport.metersPerPoint, maximumWidth: MapViewOrnaments.scaleMaximumWidth(in: viewport.size),
                           units: scaleUnits)
    }

    /// Draws the scale bar and the compass over a frame (in points; the canvas's scale gives the
    /// device pixels).
    func drawOrnaments(on canvas: RenderCanvas, dark: Bool) {
        if let bar = scaleBar, let frame = scaleBarFrame {
            let trailing = ornamentLayout.scale.corner.isRight
            MapViewOrnaments.drawScaleBar(bar, at: CGPoint(x: trailing ? frame.maxX : frame.minX, y: frame.minY),
                                          alignment: trailing ? .trailing : .leading, dark: dark, on: canvas)
        }
        if let frame = compassFrame {
            MapViewOrnaments.drawCompass(heading: viewport.heading, in: frame, on: canvas)
        }
        if let frame = logoFrame {
            MapViewOrnaments.drawLabel(MapViewOrnaments.logoText, size: MapViewOrnaments.logoTextSize, bold: true, in: frame, on: canvas)
        }
        if let attribution = ornamentLayout.attribution, !attribution.isHidden, hasArea {
            MapAttribution.draw(ornamentAttribution, at: attribution.placement, in: viewport.size, on: canvas)
        }
    }
}

/// A scale bar's measure: the longest "nice" distance (1, 2 or 5 × 10ⁿ of a unit) whose bar fits
/// in the width allowed, and its label.
struct MapScaleBar: Equatable {
    /// The distance the bar stands for, in metres.
    var meters: Double
    /// The bar's length in points.
    var width: Double
    /// The distance in the label's unit (e.g. 500 for "500 m", 0.2 for "0.2 mi").
    var value: Double
    /// The label's unit symbol: "m", "km", "ft", "yd" or "mi".
    var unit: String
    /// How many alternating segments the bar is cut into (each a round part of the distance).
    var segments: Int

    /// The label, e.g. "500 m", "2 km", "0.2 mi".
    var label: String { "\(MapScaleBar.format(value)) \(unit)" }

    /// The measure for a map showing `metersPerPoint` metres per point at its centre, with a bar
    /// at most `maximumWidth` points long; nil for a non-finite or non-positive scale or width.
    ///
    /// The small unit (metre, foot, yard) is used while its nice value stays under 1000; from
    /// there the large one (kilometre, mile), so 1000 m reads "1 km" and 1500 ft of room gives
    /// "0.2 mi".
    init?(metersPerPoint: Double, maximumWidth: Double, units: MKDistanceFormatter.Units) {
        guard metersPerPoint.isFinite, metersPerPoint > 0, maximumWidth.isFinite, maximumWidth > 0 else { return nil }
        let (small, smallUnit, large, largeUnit) = MapScaleBar.unitSizes(units)
        let room = metersPerPoint * maximumWidth
        guard room.isFinite, room > 0 else { return nil }
        var value = MapScaleBar.niceValue(atMost: room / small), unit = smallUnit, unitMeters = small
        if value >= 1000 {
            (value, unit, unitMeters) = (MapScaleBar.niceValue(atMost: room / large), largeUnit, large)
        }
        guard value > 0, value.isFinite else { return nil }
        meters = value * unitMeters
        width = meters / metersPerPoint
        self.value = value
        self.unit = unit
        let leading = (value / pow(10, (log10(value) + 1e-9).rounded(.down))).rounded()
        segments = leading == 5 ? 5 : leading == 2 ? 4 : 2
    }

    /// Metres per small and large unit, with their symbols; `.default` resolved for the current
    /// locale as ``MKDistanceFormatter`` resolves it.
    static func unitSizes(_ units: MKDistanceFormatter.Units) -> (Double, String, Double, String) {
        let formatter = MKDistanceFormatter()
        formatter.units = units
        switch formatter.effectiveUnits {
        case .imperial: return (LengthUnit.foot.metres, "ft", LengthUnit.mile.metres, "mi")
        case .imperialWithYards: return (LengthUnit.yard.metres, "yd", LengthUnit.mile.metres, "mi")
        default: return (LengthUnit.meter.metres, "m", LengthUnit.kilometer.metres, "km")
        }
    }

    /// The largest 1, 2 or 5 × 10ⁿ not above `limit` (n may be negative).
    static func niceValue(atMost limit: Double) -> Double {
        guard limit.isFinite, limit > 0 else { return 0 }
        let exponent = (log10(limit) + 1e-12).rounded(.down)
        let power = pow(10, exponent)
        for leading in [5.0, 2, 1] where leading * power <= limit * (1 + 1e-12) { return leading * power }
        return power / 2  // only when rounding put the power above the limit
    }

    /// A nice value without trailing zeros: "500", "2", "0.2", "0.05".
    static func format(_ value: Double) -> String {
        if value >= 1 { return value < 1e15 ? String(Int(value.rounded())) : String(format: "%.0f", value) }
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// Where a map view's ornaments sit and which it draws: MapKit's layout (scale bar top left,
/// compass top right, 10 points in) or Mapbox's (scale bar top left, compass top right, logo
/// bottom left, attribution bottom right, 8 points in; the scale bar only while the view spans
/// less than 800 km).
struct MapViewOrnamentLayout {
    /// A corner of the view.
    enum Corner {
        case topLeft, topRight, bottomLeft, bottomRight
        var isRight: Bool { self == .topRight || self == .bottomRight }
        var isBottom: Bool { self == .bottomLeft || self == .bottomRight }
    }

    /// A corner and the distances from its two edges, in points.
    struct Placement {
        var corner: Corner
        var margins: CGPoint
    }

    /// An optional ornament: where it sits and whether it is hidden.
    struct Item {
        var placement: Placement
        var isHidden = false
    }

    var scale = Placement(corner: .topLeft, margins: MapViewOrnaments.scaleOrigin)
    var compass = Placement(corner: .topRight, margins: CGPoint(x: MapViewOrnaments.compassMargin, y: MapViewOrnaments.compassMargin))
    /// When the compass shows: adaptive (while rotated), always or never.
    var compassVisibility = MKFeatureVisibility.adaptive
    var logo: Item?
    /// The data's credit: both faces draw it (MapKit's "Legal" label, Mapbox's attribution).
    var attribution: Item? = Item(placement: MapAttribution.placement)
    /// The scale bar hides while the view's width spans this many metres or more; nil: never hides.
    var scaleMaximumVisibleDistance: Double?
    /// Whether the scale bar is hidden even when the map view shows the scale.
    var scaleHidden = false
    /// Whether MapKit's controls (tracking, pitch and zoom buttons) are drawn when the map view
    /// shows them; a face with controls of its own turns this off.
    var drawsControls = true

    static let mapKit = MapViewOrnamentLayout()

    static let mapbox: MapViewOrnamentLayout = {
        let margins = CGPoint(x: 8, y: 8)
        var layout = MapViewOrnamentLayout()
        layout.scale = Placement(corner: .topLeft, margins: margins)
        layout.compass = Placement(corner: .topRight, margins: margins)
        layout.logo = Item(placement: Placement(corner: .bottomLeft, margins: margins))
        layout.attribution = Item(placement: Placement(corner: .bottomRight, margins: margins))
        layout.scaleMaximumVisibleDistance = 800_000
        layout.drawsControls = false
        return layout
    }()
}

/// How MapKit's ornaments look and where they sit.
enum MapViewOrnaments {
    /// The logo's text (OpenMapKit's own wordmark stands where Mapbox's logo would) and sizes.
    static let logoText = "OpenMapKit"
    static let logoTextSize = 12.0, attributionTextSize = 10.0

    /// The frame of an ornament of `size` placed at a corner of a view of `viewSize`.
    static func frame(of size: CGSize, at placement: MapViewOrnamentLayout.Placement, in viewSize: CGSize) -> CGRect {
        let x = placement.corner.isRight ? viewSize.width - placement.margins.x - size.width : placement.margins.x
        let y = placement.corner.isBottom ? viewSize.height - placement.margins.y - size.height : placement.margins.y
        return CGRect(origin: CGPoint(x: x, y: y), size: size)
    }

    /// The size of a label ornament: its text with 4 points of padding around.
    static func labelSize(_ text: String, size: Double) -> CGSize {
        let width = AnnotationDrawing.shape(text, stack: ["Noto Sans Regular"], size: size).reduce(0) { $0 + $1.advance }
        return CGSize(width: width + 8, height: size * 1.3 + 6)
    }

    /// Draws a label ornament: dark text on a translucent white rounded box filling `frame`.
    static func drawLabel(_ text: String, size: Double, bold: Bool, in frame: CGRect, on canvas: RenderCanvas) {
        guard frame.minX.isFinite, frame.minY.isFinite, frame.width > 0, frame.height > 0 else { return }
        let box = RoundedRectangle(cornerRadius: 3).path(in: frame)
        canvas.fill(path: box, color: RenderColor(red: 1, green: 1, blue: 1, alpha: 0.75))
        let runs = AnnotationDrawing.shape(text, stack: [bold ? "Noto Sans Bold" : "Noto Sans Regular"], size: size)
        AnnotationDrawing.draw(runs, x: Double(frame.minX) + 4, y: Double(frame.minY) + 3 + size, color: RenderColor(red: 0.2, green: 0.2, blue: 0.22), on: canvas)
    }

    /// The compass's diameter and its distance from the top and trailing edges, in points.
    static let compassDiameter = 40.0, compassMargin = 10.0
    /// The scale bar's top-left corner, its bar's thickness and its labels' size, in points.
    static let scaleOrigin = CGPoint(x: 10, y: 10)
    static let scaleBarHeight = 4.0, scaleLabelSize = 11.0
    static let scaleLabelStack = ["Noto Sans Bold"]
    /// Headings closer to north than this count as not rotated (an animation that ends on north
    /// may stop a hair away from it).
    static let headingTolerance = 1e-6

    static func isRotated(_ heading: Double) -> Bool {
        heading.isFinite && min(heading, 360 - heading) > headingTolerance
    }

    /// The compass's square, in the top-right corner; nil when the frame is narrower or shorter
    /// than the compass with its margins.
    static func compassFrame(in size: CGSize) -> CGRect? {
        let width = Double(size.width), height = Double(size.height)
        guard width >= compassDiameter + 2 * compassMargin, height >= compassDiameter + 2 * compassMargin else { return nil }
        return CGRect(x: width - compassMargin - compassDiameter, y: compassMargin, width: compassDiameter, height: compassDiameter)
    }

    /// Whether `point` is on the compass's disc in `frame`.
    static func compassHit(_ frame: CGRect, _ point: CGPoint) -> Bool {
        let dx = Double(point.x - frame.midX), dy = Double(point.y - frame.midY), r = Double(min(frame.width, frame.height)) / 2
        return dx * dx + dy * dy <= r * r
    }

    /// The longest bar allowed: a third of the frame's width (less the margin).
    static func scaleMaximumWidth(in size: CGSize) -> Double {
        max(0, min(Double(size.width) / 3, Double(size.width) - 2 * Double(scaleOrigin.x)))
    }

    /// Draws MapKit's compass in `frame`: a dark translucent disc with tick marks and a needle
    /// whose red half points to north on screen (turned by −`heading`), and an upright "N".
    static func drawCompass(heading: Double, in frame: CGRect, on canvas: RenderCanvas) {
        let cx = Double(frame.midX), cy = Double(frame.midY), r = Double(min(frame.width, frame.height)) / 2
        guard cx.isFinite, cy.isFinite, r > 0 else { return }
        let disc: [RenderPathElement] = [.arc(centerX: cx, centerY: cy, radius: r, startAngle: 0, endAngle: 2 * .pi), .close]
        canvas.fillShadow(path: disc, offsetX: 0, offsetY: 1, blur: 3, color: RenderColor(red: 0, green: 0, blue: 0, alpha: 0.25))
        canvas.fill(path: disc, color: RenderColor(red: 0.14, green: 0.14, blue: 0.16, alpha: 0.78))
        // North on screen, as an angle clockwise from up: the map turned by −heading.
        let north = -heading * .pi / 180
        func point(_ angle: Double, _ distance: Double) -> (x: Double, y: Double) {
            (cx + sin(angle) * distance, cy - cos(angle) * distance)
        }
        // Ticks every 30°, the north one left to the needle.
        for step in 1..<12 {
            let angle = north + Double(step) * .pi / 6
            let a = point(angle, r * 0.74), b = point(angle, r * 0.9)
            canvas.stroke(path: [.move(x: a.x, y: a.y), .line(x: b.x, y: b.y)], style: RenderStrokeStyle(width: 1.2),
                          color: RenderColor(red: 1, green: 1, blue: 1, alpha: 0.6))
        }
        // The needle: a red triangle towards north, a grey one towards south, outside the "N".
        let tip = point(north, r * 0.92), left = point(north - .pi / 2, r * 0.2), right = point(north + .pi / 2, r * 0.2)
        let baseNorth = point(north, r * 0.5)
        let red: [RenderPathElement] = [.move(x: tip.x, y: tip.y), .line(x: baseNorth.x + (left.x - cx), y: baseNorth.y + (left.y - cy)),
                                        .line(x: baseNorth.x + (right.x - cx), y: baseNorth.y + (right.y - cy)), .close]
        canvas.fill(path: red, color: UIColor.systemRed.renderColor)
        let tail = point(north + .pi, r * 0.92), baseSouth = point(north + .pi, r * 0.5)
        let grey: [RenderPathElement] = [.move(x: tail.x, y: tail.y), .line(x: baseSouth.x + (left.x - cx), y: baseSouth.y + (left.y - cy)),
                                         .line(x: baseSouth.x + (right.x - cx), y: baseSouth.y + (right.y - cy)), .close]
        canvas.fill(path: grey, color: RenderColor(red: 0.72, green: 0.72, blue: 0.75, alpha: 0.9))
        let letter = AnnotationDrawing.shape("N", stack: scaleLabelStack, size: r * 0.6)
        let width = letter.reduce(0) { $0 + $1.advance }
        AnnotationDrawing.draw(letter, x: cx - width / 2, y: cy + r * 0.6 * 0.36, color: RenderColor(red: 1, green: 1, blue: 1), on: canvas)
    }

    /// The height a scale bar with its labels takes: the labels, a gap, the bar and its edge.
    static let scaleHeight = scaleLabelSize + 4 + scaleBarHeight + 2

    /// Draws MapKit's scale: "0" and the distance above a bar of alternating dark and light
    /// segments with a thin outline. `alignment` says which end stays at `origin.x`: the leading
    /// (left) one, the bar growing to the right, or the trailing one, `origin.x` being where the
    /// bar ends.
    static func drawScaleBar(_ bar: MapScaleBar, at origin: CGPoint, alignment: MKScaleView.Alignment, dark: Bool, on canvas: RenderCanvas) {
        let width = bar.width
        guard width.isFinite, width > 0, origin.x.isFinite, origin.y.isFinite else { return }
        let x0 = alignment == .leading ? Double(origin.x) : Double(origin.x) - width
        let baseline = Double(origin.y) + scaleLabelSize
        let top = baseline + 4, h = scaleBarHeight
        let ink = dark ? RenderColor(red: 0.95, green: 0.95, blue: 0.96) : RenderColor(red: 0.13, green: 0.13, blue: 0.15)
        let paper = dark ? RenderColor(red: 0.12, green: 0.12, blue: 0.14) : RenderColor(red: 1, green: 1, blue: 1)
        func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> [RenderPathElement] {
            [.move(x: x, y: y), .line(x: x + w, y: y), .line(x: x + w, y: y + h), .line(x: x, y: y + h), .close]
        }
        canvas.fill(path: rect(x0 - 1, top - 1, width + 2, h + 2), color: RenderColor(red: paper.red, green: paper.green, blue: paper.blue, alpha: 0.9))
        let segment = width / Double(bar.segments)
        for index in 0..<bar.segments {
            canvas.fill(path: rect(x0 + Double(index) * segment, top, segment, h), color: index % 2 == 0 ? ink : paper)
        }
        canvas.stroke(path: rect(x0, top, width, h), style: RenderStrokeStyle(width: 0.5), color: ink)
        let halo = (width: 2.0, color: RenderColor(red: paper.red, green: paper.green, blue: paper.blue, alpha: 0.85))
        let zero = AnnotationDrawing.shape("0", stack: scaleLabelStack, size: scaleLabelSize)
        let label = AnnotationDrawing.shape(bar.label, stack: scaleLabelStack, size: scaleLabelSize)
        let zeroWidth = zero.reduce(0) { $0 + $1.advance }, labelWidth = label.reduce(0) { $0 + $1.advance }
        // The end label is centred over the bar's end, unless it would overlap the "0".
        let labelX = max(min(x0 + width - labelWidth / 2, canvas.width - labelWidth - 1), x0 + zeroWidth + 4)
        AnnotationDrawing.draw(zero, x: x0, y: baseline, color: ink, halo: halo, on: canvas)
        AnnotationDrawing.draw(label, x: labelX, y: baseline, color: ink, halo: halo, on: canvas)
    }
}

/// A compass for a map view (MapKit's `MKCompassButton`), as a model: it shows the map's heading,
/// and a tap turns the map north up. Place it yourself (set the map view's ``MKMapView/showsCompass``
/// to false so the map does not draw its own) and draw it with ``render(scale:)``.
///
/// Differs from MapKit: a model, not a view; whoever draws it passes taps on it to ``tap()``.
public final class MKCompassButton {
    /// The map view whose heading it shows.
    public weak var mapView: MKMapView?
    /// When it shows: `adaptive` while the map is rotated (as the map's own compass), `visible`
    /// always, `hidden` never.
    public var compassVisibility = MKFeatureVisibility.adaptive
    /// Its frame in its container, in points (MapKit's compass is 40 points across).
    public var frame = CGRect(x: 0, y: 0, width: MapViewOrnaments.compassDiameter, height: MapViewOrnaments.compassDiameter)

    /// A compass for `mapView`.
    public init(mapView: MKMapView?) { self.mapView = mapView }

    /// Whether it shows now, by ``compassVisibility`` and the map's heading (never without a map view).
    public var isVisible: Bool {
        guard let mapView else { return false }
        switch compassVisibility {
        case .hidden: return false
        case .visible: return true
        case .adaptive: return MapViewOrnaments.isRotated(mapView.camera.heading)
        }
    }

    /// A tap: turns the map north up, animated, keeping its centre, distance and pitch.
    public func tap() {
        guard let mapView, isVisible else { return }
        mapView.turnNorth()
    }

    /// The compass drawn at its frame's size, `scale` pixels per point (the map view's
    /// ``MKMapView/contentScaleFactor`` by default); nil while it is not visible or its frame is empty.
    public func render(scale: CGFloat? = nil) -> UIImage? {
        guard isVisible, let mapView, frame.width > 0, frame.height > 0,
              let canvas = try? RenderCanvas(width: Double(frame.width), height: Double(frame.height),
                                             scale: Double(scale ?? mapView.contentScaleFactor)) else { return nil }
        MapViewOrnaments.drawCompass(heading: mapView.camera.heading, in: CGRect(origin: .zero, size: frame.size), on: canvas)
        return UIImage(canvas: canvas)
    }
}

/// A scale bar for a map view (MapKit's `MKScaleView`), as a model: the distance a length of the
/// map stands for at its centre, redrawn from the map view's camera whenever it is drawn.
///
/// Differs from MapKit: a model, not a view; `adaptive` visibility shows the bar always (a
/// model has no zooming to wait for), and ``units`` is an OpenMapKit addition.
public final class MKScaleView {
    /// Which end of the bar stays put as the scale changes (MapKit's `MKScaleView.Alignment`).
    public enum Alignment: Int, Sendable, Hashable {
        /// The bar starts at the frame's left edge and grows to the right.
        case leading = 0
        /// The bar ends at the frame's right edge and grows to the left.
        case trailing = 1
    }

    /// The map view it measures.
    public weak var mapView: MKMapView?
    /// When it shows: `visible` always, `hidden` never, `adaptive` — MapKit shows it while the
    /// map zooms; a model has no "while", so `adaptive` shows it as `visible` does.
    public var scaleVisibility = MKFeatureVisibility.adaptive
    /// Which end of the bar is anchored.
    public var legendAlignment = Alignment.leading
    /// The units it measures in (an OpenMapKit addition; `.default` follows `Locale.current`).
    public var units = MKDistanceFormatter.Units.metric
    /// Its frame in its container, in points; the bar is at most as long as the frame is wide.
    public var frame = CGRect(x: 0, y: 0, width: 150, height: MapViewOrnaments.scaleHeight)

    /// A scale for `mapView`.
    public init(mapView: MKMapView?) { self.mapView = mapView }

    /// Whether it shows now (never without a map view or while the map view's frame is zero-size).
    public var isVisible: Bool { scaleVisibility != .hidden && measure != nil }

    /// The label the bar shows now, e.g. "500 m" or "0.2 mi"; nil while it is not shown.
    public var text: String? { scaleVisibility == .hidden ? nil : measure?.label }

    /// The bar's length now, in points.
    public var barWidth: CGFloat? { scaleVisibility == .hidden ? nil : measure.map { CGFloat($0.width) } }

    var measure: MapScaleBar? {
        guard let mapView, mapView.hasArea else { return nil }
        return MapScaleBar(metersPerPoint: mapView.viewport.metersPerPoint, maximumWidth: Double(frame.width), units: units)
    }

    /// The scale drawn at its frame's size, `scale` pixels per point (the map view's
    /// ``MKMapView/contentScaleFactor`` by default); nil while it is not visible or its frame is empty.
    public func render(scale: CGFloat? = nil, dark: Bool = false) -> UIImage? {
        guard isVisible, let bar = measure, let mapView, frame.width > 0, frame.height > 0,
              let canvas = try? RenderCanvas(width: Double(frame.width), height: Double(frame.height),
                                             scale: Double(scale ?? mapView.contentScaleFactor)) else { return nil }
        let origin = CGPoint(x: legendAlignment == .leading ? 0 : frame.width, y: 0)
        MapViewOrnaments.drawScaleBar(bar, at: origin, alignment: legendAlignment, dark: dark, on: canvas)
        return UIImage(canvas: canvas)
    }
}
