// MapKit's map controls: the user-tracking button and the pitch (2D/3D) button in one rounded
// platter at the top right with the compass under them, and the zoom control (+ over −) at the
// bottom right above the legal label. The drawing and the layout live in `MapViewControls` so
// every face draws the same controls: the map view's own (`showsUserTrackingButton`,
// `showsPitchControl`, `showsZoomControls`), the stand-alone MKUserTrackingButton, MKPitchControl
// and MKZoomControl, and SwiftUI's MapUserLocationButton, MapPitchToggle and MapZoomStepper.

import Foundation
import MapGeometry
import MapRender

extension MKMapView {
    /// Where the user-tracking button is drawn now, in points (an OpenMapKit addition, for a
    /// surface that handles clicks itself: a tap there cycles ``userTrackingMode``, see
    /// ``tap(at:)``); nil while ``showsUserTrackingButton`` is false or the frame is too small.
    public var userTrackingButtonFrame: CGRect? { controlColumn().tracking }

    /// Where the pitch button is drawn now, in points (an OpenMapKit addition: a tap there tilts
    /// a flat map to 45° and flattens a tilted one); nil
    /// while ``showsPitchControl`` or ``isPitchEnabled`` is false or the frame is too small.
    public var pitchControlFrame: CGRect? { controlColumn().pitch }

    /// Where the zoom control is drawn now, in points (an OpenMapKit addition: a tap on its upper
    /// half zooms in one level, on its lower half out, about the centre, animated); nil while
    /// ``showsZoomControls`` or ``isZoomEnabled`` is false or the frame is too small.
    public var zoomControlFrame: CGRect? {
        guard showsZoomControls, isZoomEnabled, hasArea, ornamentLayout.drawsControls else { return nil }
        let size = MapViewControls.zoomControlSize
        // Above the legal label, which keeps the bottom-right corner.
        let legal = attributionFrame.map { viewport.size.height - $0.minY + MapViewControls.gap } ?? MapViewControls.margin
        let frame = CGRect(x: viewport.size.width - MapViewControls.margin - size.width, y: viewport.size.height - legal - size.height,
                           width: size.width, height: size.height)
        return MapViewControls.fits(frame, in: viewport.size) ? frame : nil
    }

    /// Whether `point` (in points) is on something ``tap(at:)`` handles before the map: the
    /// selected annotation's callout, the compass, the user-tracking button, the pitch button or
    /// the zoom control (an OpenMapKit addition, for a surface that routes clicks itself).
    public func isOnControl(_ point: CGPoint) -> Bool {
        guard point.x.isFinite, point.y.isFinite else { return false }
        if let callout = selectedCalloutFrame(), callout.contains(point) { return true }
        if isOnCompass(point) { return true }
        return [userTrackingButtonFrame, pitchControlFrame, zoomControlFrame].contains { $0?.contains(point) ?? false }
    }

    /// The top-right column: the tracking button over the pitch button, in one platter.
    func controlColumn() -> (tracking: CGRect?, pitch: CGRect?) {
        guard hasArea, ornamentLayout.drawsControls else { return (nil, nil) }
        let side = MapViewControls.buttonSide, margin = MapViewControls.margin
        var y = margin
        var tracking: CGRect?, pitch: CGRect?
        if showsUserTrackingButton {
            tracking = CGRect(x: viewport.size.width - margin - side, y: y, width: side, height: side)
            y += side
        }
        if showsPitchControl, isPitchEnabled {
            pitch = CGRect(x: viewport.size.width - margin - side, y: y, width: side, height: side)
        }
        // A column that does not fit is not drawn (as the compass is not).
        if let frame = tracking, !MapViewControls.fits(frame, in: viewport.size) { tracking = nil }
        if let frame = pitch, !MapViewControls.fits(frame, in: viewport.size) { pitch = nil }
        return (tracking, pitch)
    }

    /// How far the compass moves down to sit under the platter (0 without one).
    var compassOffsetForControls: CGFloat {
        let column = controlColumn()
        let frames = [column.tracking, column.pitch].compactMap { $0 }
        guard let bottom = frames.map(\.maxY).max() else { return 0 }
        return bottom - MapViewControls.margin + MapViewControls.gap
    }

    /// Draws the controls shown over a frame.
    func drawControls(on canvas: RenderCanvas, dark: Bool) {
        let column = controlColumn()
        let buttons = [column.tracking, column.pitch].compactMap { $0 }
        if let first = buttons.first, let last = buttons.last {
            MapViewControls.drawPlatter(first.union(last), dividers: buttons.dropFirst().map(\.minY), dark: dark, on: canvas)
        }
        if let frame = column.tracking {
            MapViewControls.drawTrackingGlyph(userTrackingMode, in: frame, dark: dark, on: canvas)
        }
        if let frame = column.pitch {
            MapViewControls.drawPitchGlyph(pitched: viewport.pitch > MapViewControls.flatPitch, in: frame, dark: dark, on: canvas)
        }
        if let frame = zoomControlFrame {
            MapViewControls.drawZoomControl(in: frame, canZoomIn: viewport.zoomLevel < maximumAllowedZoom - 1e-6,
                                            canZoomOut: viewport.zoomLevel > minimumAllowedZoom + 1e-6, dark: dark, on: canvas)
        }
    }

    /// The nearest and farthest zoom levels the constraints allow at the current size.
    var maximumAllowedZoom: Double {
        var probe = viewport
        probe.zoomLevel = MKMapView.maximumZoomLevel + 10
        return constrained(probe).zoomLevel
    }

    var minimumAllowedZoom: Double {
        var probe = viewport
        probe.zoomLevel = -100
        return constrained(probe).zoomLevel
    }

    /// A tap on a control at `point`; whether there was one (the tap is then used up).
    func tapControl(at point: CGPoint) -> Bool {
        if let frame = userTrackingButtonFrame, frame.contains(point) {
            cycleUserTrackingMode()
            return true
        }
        if let frame = pitchControlFrame, frame.contains(point) {
            togglePitch()
            return true
        }
        if let frame = zoomControlFrame, frame.contains(point) {
            zoomStep(in: point.y < frame.midY)
            return true
        }
        return false
    }

    /// What the tracking button does: none → follow → follow with heading (when a heading is
    /// known) → none, as MapKit's button cycles.
    func cycleUserTrackingMode() {
        switch userTrackingMode {
        case .none: setUserTrackingMode(.follow, animated: true)
        case .follow: setUserTrackingMode(userLocation.heading == nil ? .none : .followWithHeading, animated: true)
        case .followWithHeading: setUserTrackingMode(.none, animated: true)
        }
    }

    /// What the pitch button does: a flat map tilts, a tilted one goes flat, animated, keeping
    /// the centre, zoom and heading.
    func togglePitch() {
        guard isPitchEnabled else { return }
        requestCameraChange(reason: .gestureTilt) { [self] in
            var target = currentTarget
            target.pitch = target.pitch > MapViewControls.flatPitch ? 0 : MapViewControls.pitchedAngle
            apply(target, animated: true)
        }
    }

    /// What the zoom control does: one level in or out about the centre, animated.
    func zoomStep(in zoomIn: Bool) {
        zoom(by: zoomIn ? 1 : -1, around: CGPoint(x: viewport.size.width / 2, y: viewport.size.height / 2), animated: true)
    }
}

/// How MapKit's controls look and where they sit: 44-point buttons on a translucent rounded
/// platter (white, dark grey on the dark appearance) with the system blue glyphs, 10 points from
/// the edges.
enum MapViewControls {
    /// A button's side, the distance from the view's edges and between stacked controls.
    static let buttonSide = 44.0, margin = 10.0, gap = 8.0, cornerRadius = 8.0
    /// The zoom control: two buttons stacked.
    static let zoomControlSize = CGSize(width: 44, height: 88)
    /// The pitch the 3D button tilts a flat map to, in degrees (an OpenMapKit choice: MapKit
    /// does not document its angle).
    static let pitchedAngle = 45.0
    /// Pitches up to this count as flat (the button then offers 3D).
    static let flatPitch = 0.5

    /// Whether `frame` lies inside a view of `size` with the margins kept.
    static func fits(_ frame: CGRect, in size: CGSize) -> Bool {
        frame.minX >= margin - 1e-9 && frame.minY >= margin - 1e-9 && frame.maxX <= size.width - margin + 1e-9
            && frame.maxY <= size.height - margin + 1e-9
    }

    static func ink(dark: Bool) -> RenderColor { UIColor.systemBlue.renderColor }
    static func label(dark: Bool) -> RenderColor {
        dark ? RenderColor(red: 0.92, green: 0.92, blue: 0.94) : RenderColor(red: 0.25, green: 0.25, blue: 0.27)
    }

    static func roundedRect(_ r: CGRect, radius: Double) -> [RenderPathElement] {
        let x0 = Double(r.minX), y0 = Double(r.minY), x1 = Double(r.maxX), y1 = Double(r.maxY)
        return [.move(x: x0 + radius, y: y0),
                .arc(centerX: x1 - radius, centerY: y0 + radius, radius: radius, startAngle: -.pi / 2, endAngle: 0),
                .arc(centerX: x1 - radius, centerY: y1 - radius, radius: radius, startAngle: 0, endAngle: .pi / 2),
                .arc(centerX: x0 + radius, centerY: y1 - radius, radius: radius, startAngle: .pi / 2, endAngle: .pi),
                .arc(centerX: x0 + radius, centerY: y0 + radius, radius: radius, startAngle: .pi, endAngle: 1.5 * .pi), .close]
    }

    /// The platter behind buttons: a rounded box with a soft shadow and hairlines at `dividers`.
    static func drawPlatter(_ frame: CGRect, dividers: [CGFloat], dark: Bool, on canvas: RenderCanvas) {
        guard frame.minX.isFinite, frame.minY.isFinite, frame.width > 0, frame.height > 0 else { return }
        let path = roundedRect(frame, radius: cornerRadius)
        canvas.fillShadow(path: path, offsetX: 0, offsetY: 1, blur: 4, color: RenderColor(red: 0, green: 0, blue: 0, alpha: 0.2))
        canvas.fill(path: path, color: dark ? RenderColor(red: 0.17, green: 0.17, blue: 0.18, alpha: 0.94)
                                            : RenderColor(red: 1, green: 1, blue: 1, alpha: 0.94))
        for y in dividers {
            canvas.stroke(path: [.move(x: Double(frame.minX), y: Double(y)), .line(x: Double(frame.maxX), y: Double(y))],
                          style: RenderStrokeStyle(width: 0.5),
                          color: dark ? RenderColor(red: 1, green: 1, blue: 1, alpha: 0.2) : RenderColor(red: 0, green: 0, blue: 0, alpha: 0.15))
        }
    }

    /// Draws the user-tracking button (platter and glyph) in `frame`.
    static func drawUserTrackingButton(_ mode: MKUserTrackingMode, in frame: CGRect, dark: Bool, on canvas: RenderCanvas) {
        drawPlatter(frame, dividers: [], dark: dark, on: canvas)
        drawTrackingGlyph(mode, in: frame, dark: dark, on: canvas)
    }

    /// The tracking glyph: MapKit's location arrow, outlined while not following, filled while
    /// following, and turned up with a heading bar while following with heading.
    static func drawTrackingGlyph(_ mode: MKUserTrackingMode, in frame: CGRect, dark: Bool, on canvas: RenderCanvas) {
        let s = 20.0 / 24, x = Double(frame.midX) - 10, y = Double(frame.midY) - 10
        func p(_ px: Double, _ py: Double) -> (Double, Double) { (x + px * s, y + py * s) }
        let points: [(Double, Double)]
        switch mode {
        case .none, .follow: points = [p(21, 3), p(3, 10.5), p(11, 13), p(13.5, 21)]
        case .followWithHeading: points = [p(12, 4), p(19, 21), p(12, 17), p(5, 21)]
        }
        var path: [RenderPathElement] = [.move(x: points[0].0, y: points[0].1)]
        path += points.dropFirst().map { .line(x: $0.0, y: $0.1) }
        path.append(.close)
        let ink = ink(dark: dark)
        if mode == .none {
            canvas.stroke(path: path, style: RenderStrokeStyle(width: 1.8), color: ink)
        } else {
            canvas.fill(path: path, color: ink)
        }
        if mode == .followWithHeading {
            let top = p(12, 1)
            canvas.stroke(path: [.move(x: top.0 - 4, y: top.1), .line(x: top.0 + 4, y: top.1)], style: RenderStrokeStyle(width: 1.8), color: ink)
        }
    }

    /// Draws the pitch button (platter and glyph) in `frame`.
    static func drawPitchControl(pitched: Bool, in frame: CGRect, dark: Bool, on canvas: RenderCanvas) {
        drawPlatter(frame, dividers: [], dark: dark, on: canvas)
        drawPitchGlyph(pitched: pitched, in: frame, dark: dark, on: canvas)
    }

    /// The pitch glyph: "3D" on a flat map (what a tap gives), "2D" on a tilted one.
    static func drawPitchGlyph(pitched: Bool, in frame: CGRect, dark: Bool, on canvas: RenderCanvas) {
        let size = 15.0
        let runs = AnnotationDrawing.shape(pitched ? "2D" : "3D", stack: ["Noto Sans Bold"], size: size)
        let width = runs.reduce(0) { $0 + $1.advance }
        AnnotationDrawing.draw(runs, x: Double(frame.midX) - width / 2, y: Double(frame.midY) + size * 0.36, color: label(dark: dark), on: canvas)
    }

    /// Draws the zoom control in `frame`: "+" in the upper half, "−" in the lower, a hairline
    /// between; a half that can go no further is faded.
    static func drawZoomControl(in frame: CGRect, canZoomIn: Bool, canZoomOut: Bool, dark: Bool, on canvas: RenderCanvas) {
        drawPlatter(frame, dividers: [frame.midY], dark: dark, on: canvas)
        let cx = Double(frame.midX), arm = 7.0
        let full = label(dark: dark), faded = RenderColor(red: full.red, green: full.green, blue: full.blue, alpha: 0.3)
        let plusY = Double(frame.minY) + Double(frame.height) / 4, minusY = Double(frame.maxY) - Double(frame.height) / 4
        let style = RenderStrokeStyle(width: 2)
        canvas.stroke(path: [.move(x: cx - arm, y: plusY), .line(x: cx + arm, y: plusY)], style: style, color: canZoomIn ? full : faded)
        canvas.stroke(path: [.move(x: cx, y: plusY - arm), .line(x: cx, y: plusY + arm)], style: style, color: canZoomIn ? full : faded)
        canvas.stroke(path: [.move(x: cx - arm, y: minusY), .line(x: cx + arm, y: minusY)], style: style, color: canZoomOut ? full : faded)
    }
}
