// How a map view draws its annotation views: in MapKit's drawing order (zPriority, the selected
// view on top, then south in front), each as its class looks — the marker's balloon with its
// glyph, title and subtitle, the classic pin, the user-location dot with its accuracy circle, an
// image — highlighted, faded by alpha, and growing or dropping in when it appears, on the clock.

import Foundation
import MapGeometry
import MapRender

extension MKMapView {
    /// The annotations drawn now with their views, back to front: ascending drawing priority
    /// (``MKAnnotationView/selectedZPriority`` for the selected view, ``MKAnnotationView/zPriority``
    /// otherwise), then north to south; views hidden, transparent, clustered or decluttered are
    /// left out.
    func annotationDrawList() -> [(annotation: any MKAnnotation, view: MKAnnotationView, point: CGPoint)] {
        let decluttered = declutteredAnnotations()
        var list: [(annotation: any MKAnnotation, view: MKAnnotationView, point: CGPoint, z: Float, order: Int)] = []
        var candidates = annotationStore.list + clusterAnnotations.map { $0 as any MKAnnotation }
        if let feature = featureState.selected { candidates.append(feature) }
        for (order, annotation) in candidates.enumerated() {
            if annotation is MKUserLocation, !showsUserLocation { continue }
            guard let view = annotationViews[ObjectIdentifier(annotation)], !view.isHidden, view.alpha > 0,
                  !isClusteredMember(annotation), !decluttered.contains(ObjectIdentifier(annotation)) else { continue }
            let point = viewport.convert(annotation.coordinate)
            guard point.x.isFinite, point.y.isFinite else { continue }
            let z = view.isSelected ? view.selectedZPriority.rawValue : view.zPriority.rawValue
            list.append((annotation, view, point, z, order))
        }
        list.sort { ($0.z, $0.point.y, $0.order) < ($1.z, $1.point.y, $1.order) }
        return list.map { ($0.annotation, $0.view, $0.point) }
    }

    /// Draws the annotation views over a frame, then the markers' titles (first added, first
    /// placed; an adaptive title that would cover a placed title or another balloon is left out,
    /// a `visible` one is always drawn).
    func drawAnnotationViews(on canvas: RenderCanvas, dark: Bool) {
        let now = clock.now
        let list = annotationDrawList()
        var balloons: [(box: CGRect, view: MKAnnotationView)] = []
        for entry in list {
            let view = entry.view
            let opacity = Double(min(max(view.alpha, 0), 1))
            if opacity < 1 { canvas.beginGroup() }
            switch view {
            case let marker as MKMarkerAnnotationView:
                var item = MarkerItem(annotation: entry.annotation)
                item.tint = AnnotationDrawing.highlighted(marker.effectiveTint.renderColor, marker.isHighlighted)
                item.glyphColor = marker.glyphTintColor?.renderColor ?? .white
                // MapKit's balloon grows when its marker is selected.
                item.isSelected = marker.isSelected
                if let glyph = marker.contentGlyph {
                    item.glyph = glyph
                } else if let image = (marker.isSelected ? marker.selectedGlyphImage : nil) ?? marker.glyphImage {
                    item.glyph = .image(image)
                } else if let text = marker.glyphText, !text.isEmpty {
                    item.glyph = .text(String(text.prefix(3)))
                }
                let grow = appearProgress(of: marker, duration: MKMarkerAnnotationView.appearDuration, now: now)
                canvas.withTransform(scale: max(grow, 0.01), aboutX: Double(entry.point.x), y: Double(entry.point.y)) {
                    AnnotationDrawing.drawBalloon(item, at: entry.point, on: canvas)
                }
                balloons.append((AnnotationDrawing.balloonBox(at: entry.point, scale: item.isSelected ? AnnotationDrawing.selectedScale : 1), view))
            case let pin as MKPinAnnotationView:
                let fall = 1 - appearProgress(of: pin, duration: MKPinAnnotationView.dropDuration, now: now)
                // Dropped from just above the view's top edge.
                let dy = -(Double(entry.point.y) + PinDrawing.height) * fall
                canvas.withTransform(scale: 1, aboutX: Double(entry.point.x), y: Double(entry.point.y), dy: dy) {
                    PinDrawing.draw(at: entry.point, tint: AnnotationDrawing.highlighted(pin.effectiveTint.renderColor, pin.isHighlighted),
                                    on: canvas)
                }
            case let dot as MKUserLocationView:
                if dot.showsAccuracyRing, let location = userLocation.location, entry.annotation is MKUserLocation {
                    let radius = location.horizontalAccuracy / viewport.metersPerPoint
                    AnnotationDrawing.drawAccuracyCircle(at: entry.point, radius: radius, on: canvas)
                }
                AnnotationDrawing.drawUserLocation(at: entry.point, tint: dot.tintColor?.renderColor, on: canvas)
            default:
                guard let image = view.image, image.size.width > 0, image.size.height > 0, let frame = frame(of: view),
                      let rendered = try? image.canvas.makeImage() else { break }
                // A highlighted image view dims, as a touched UIKit view does.
                canvas.draw(rendered, x: Double(frame.minX), y: Double(frame.minY), width: Double(frame.width), height: Double(frame.height),
                            opacity: view.isHighlighted ? 0.6 : 1)
            }
            if opacity < 1 { canvas.endGroup(opacity: opacity) }
        }
        drawMarkerTitles(list: list, balloons: balloons, dark: dark, on: canvas)
    }

    /// How far a view's appearing animation has gone, 0 … 1 (eased out); 1 when it does not
    /// animate or has finished, which also ends it.
    private func appearProgress(of view: MKAnnotationView, duration: TimeInterval, now: TimeInterval) -> Double {
        guard let start = view.appearedAt else { return 1 }
        let t = (now - start) / duration
        guard t.isFinite, t < 1 else {
            view.appearedAt = nil
            return 1
        }
        let clamped = max(t, 0)
        return 1 - pow(1 - clamped, 3)
    }

    /// Whether any view is still appearing (a growing marker, a dropping pin).
    var annotationsAppearing: Bool {
        let now = clock.now
        return annotationViews.values.contains { view in
            guard let start = view.appearedAt else { return false }
            let duration = view is MKPinAnnotationView ? MKPinAnnotationView.dropDuration : MKMarkerAnnotationView.appearDuration
            return now - start < duration
        }
    }

    /// Starts the appearing animation of a view just given to its annotation, when it has one.
    func startAppearing(_ view: MKAnnotationView) {
        if let marker = view as? MKMarkerAnnotationView, marker.animatesWhenAdded {
            view.appearedAt = clock.now
        } else if let pin = view as? MKPinAnnotationView, pin.animatesDrop {
            view.appearedAt = clock.now
        }
    }

    private func drawMarkerTitles(list: [(annotation: any MKAnnotation, view: MKAnnotationView, point: CGPoint)],
                                  balloons: [(box: CGRect, view: MKAnnotationView)], dark: Bool, on canvas: RenderCanvas) {
        let ink = dark ? RenderColor(red: 0.92, green: 0.92, blue: 0.94) : RenderColor(red: 0.2, green: 0.2, blue: 0.22)
        let grey = dark ? RenderColor(red: 0.7, green: 0.7, blue: 0.73) : RenderColor(red: 0.42, green: 0.42, blue: 0.45)
        let halo = (3.0, dark ? RenderColor(red: 0.1, green: 0.1, blue: 0.12, alpha: 0.9) : RenderColor(red: 1, green: 1, blue: 1, alpha: 0.95))
        // Titles are placed in the order the annotations were added, not drawn.
        // Markers' titles, and those a `Map`'s annotation content asks for under its image.
        let titled = list.filter {
            ($0.view as? MKMarkerAnnotationView).map { $0.titleVisibility != .hidden } ?? ($0.view.contentTitle != nil)
        }
        .sorted { order(of: $0.annotation) < order(of: $1.annotation) }
        var taken: [CGRect] = []
        var drawn: [String] = []
        for entry in titled {
            if entry.view.contentTitle != nil, !(entry.view is MKMarkerAnnotationView) {
                drawContentTitle(entry.view, balloons: balloons, taken: &taken, drawn: &drawn, ink: ink, halo: halo, on: canvas)
                continue
            }
            guard let marker = entry.view as? MKMarkerAnnotationView, let title = entry.annotation.title ?? nil, !title.isEmpty,
                  marker.appearedAt == nil else { continue }
            let size = AnnotationDrawing.titleSize, subtitleSize = 10.0
            let runs = AnnotationDrawing.shape(title, size: size)
            guard !runs.isEmpty else { continue }
            let showsSubtitle = marker.subtitleVisibility == .visible || (marker.subtitleVisibility == .adaptive && marker.isSelected)
            let subtitle = showsSubtitle ? (entry.annotation.subtitle ?? nil).flatMap { $0.isEmpty ? nil : $0 } : nil
            let subtitleRuns = subtitle.map { AnnotationDrawing.shape($0, stack: ["Noto Sans Regular"], size: subtitleSize) } ?? []
            let width = runs.reduce(0) { $0 + $1.advance }, subtitleWidth = subtitleRuns.reduce(0) { $0 + $1.advance }
            let x = Double(entry.point.x), y = Double(entry.point.y)
            let height = size + 5 + (subtitleRuns.isEmpty ? 0 : subtitleSize + 3)
            let rect = CGRect(x: x - max(width, subtitleWidth) / 2 - 2, y: y + 1, width: max(width, subtitleWidth) + 4, height: height)
            if marker.titleVisibility == .adaptive {
                let hitsBalloon = balloons.contains { $0.view !== marker && $0.box.intersects(rect) }
                guard !hitsBalloon, !taken.contains(where: { $0.intersects(rect) }) else { continue }
            }
            taken.append(rect)
            drawn.append(title)
            AnnotationDrawing.draw(runs, x: x - width / 2, y: y + 1 + size, color: ink, halo: halo, on: canvas)
            if !subtitleRuns.isEmpty {
                AnnotationDrawing.draw(subtitleRuns, x: x - subtitleWidth / 2, y: y + 1 + size + 3 + subtitleSize, color: grey, halo: halo, on: canvas)
            }
        }
        AnnotationDrawing.recordDrawnTitles(drawn)
    }

    /// The title under a `Map` annotation's image, placed as an adaptive marker title is.
    private func drawContentTitle(_ view: MKAnnotationView, balloons: [(box: CGRect, view: MKAnnotationView)], taken: inout [CGRect],
                                  drawn: inout [String], ink: RenderColor, halo: (Double, RenderColor), on canvas: RenderCanvas) {
        guard let title = view.contentTitle, !title.isEmpty, let frame = frame(of: view) else { return }
        let size = AnnotationDrawing.titleSize
        let runs = AnnotationDrawing.shape(title, size: size)
        let width = runs.reduce(0) { $0 + $1.advance }
        let x = Double(frame.midX), y = Double(frame.maxY)
        let rect = CGRect(x: x - width / 2 - 2, y: y + 1, width: width + 4, height: size + 5)
        guard !runs.isEmpty, !balloons.contains(where: { $0.box.intersects(rect) }), !taken.contains(where: { $0.intersects(rect) }) else { return }
        taken.append(rect)
        drawn.append(title)
        AnnotationDrawing.draw(runs, x: x - width / 2, y: y + 1 + size, color: ink, halo: halo, on: canvas)
    }

    /// Where `annotation` is in the order added (clusters and features after every annotation).
    private func order(of annotation: any MKAnnotation) -> Int {
        annotationStore.list.firstIndex { $0 === annotation } ?? Int.max
    }
}

/// MapKit's classic pin: a round head in the tint colour with a light spot, on a grey needle
/// whose point is on the coordinate, with a soft shadow.
enum PinDrawing {
    static let width = 16.0, height = 40.0, headRadius = 7.0

    static func draw(at point: CGPoint, tint: RenderColor, on canvas: RenderCanvas) {
        let x = Double(point.x), y = Double(point.y)
        guard x.isFinite, y.isFinite else { return }
        let cy = y - height + headRadius + 1
        let needle: [RenderPathElement] = [.move(x: x, y: cy + headRadius - 1), .line(x: x, y: y)]
        canvas.stroke(path: needle, style: RenderStrokeStyle(width: 1.6), color: RenderColor(red: 0.55, green: 0.55, blue: 0.58))
        let head: [RenderPathElement] = [.arc(centerX: x, centerY: cy, radius: headRadius, startAngle: 0, endAngle: 2 * .pi), .close]
        canvas.fillShadow(path: head, offsetX: 0, offsetY: 1, blur: 2, color: RenderColor(red: 0, green: 0, blue: 0, alpha: 0.3))
        canvas.fill(path: head, color: tint)
        let edge = RenderColor(red: tint.red * 0.7, green: tint.green * 0.7, blue: tint.blue * 0.7, alpha: tint.alpha)
        canvas.stroke(path: head, style: RenderStrokeStyle(width: 0.75), color: edge)
        canvas.fillCircle(x: x - 2.2, y: cy - 2.2, radius: 2, color: RenderColor(red: 1, green: 1, blue: 1, alpha: 0.55))
    }
}
