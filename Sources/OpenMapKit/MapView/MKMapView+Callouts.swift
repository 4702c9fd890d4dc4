// The selected annotation's callout: MapKit's bubble with the title, the subtitle (or the detail
// accessory view in its place) and the left and right accessory views, laid out once and used
// to draw it, to hit-test it and to report its frame.

import Foundation
import MapRender

/// Where each part of a callout goes, in the map view's coordinates.
struct MapViewCalloutLayout {
    /// The bubble (without its arrow).
    var box: CGRect
    /// Where the arrow points.
    var anchor: CGPoint
    var title: String
    var subtitle: String?
    /// Where the title's and subtitle's lines start (left end of the baseline).
    var titleOrigin: CGPoint
    var subtitleOrigin: CGPoint
    /// The accessory views shown, with their frames in the map view.
    var left: (view: UIView, frame: CGRect)?
    var right: (view: UIView, frame: CGRect)?
    var detail: (view: UIView, frame: CGRect)?

    /// The accessory control at `point`, if one is there and takes taps.
    func control(at point: CGPoint) -> UIControl? {
        for part in [left, right, detail].compactMap({ $0 }) {
            guard let control = part.view as? UIControl, control.isEnabled, !control.isHidden, control.alpha > 0,
                  part.frame.insetBy(dx: -4, dy: -4).contains(point) else { continue }
            return control
        }
        return nil
    }
}

extension MKMapView {
    /// The selected annotation's callout: shown when its view can show one, the annotation has a
    /// title (MapKit shows no callout without one), and the view is placed; anchored at the top
    /// centre of the view plus its callout offset.
    func selectedCalloutLayout() -> MapViewCalloutLayout? {
        guard let annotation = selectedAnnotation, let view = annotationViews[ObjectIdentifier(annotation)], view.canShowCallout,
              !view.isHidden, let title = annotation.title ?? nil, !title.isEmpty, let frame = frame(of: view) else { return nil }
        let anchor = CGPoint(x: frame.midX + view.calloutOffset.x, y: frame.minY + view.calloutOffset.y)
        return MapViewCallout.layout(title: title, subtitle: annotation.subtitle ?? nil, left: view.leftCalloutAccessoryView,
                                     right: view.rightCalloutAccessoryView, detail: view.detailCalloutAccessoryView, anchor: anchor)
    }

    /// Where the selected annotation's callout is drawn now; nil when none is shown.
    func selectedCalloutFrame() -> CGRect? { selectedCalloutLayout()?.box }

    /// Where the selected annotation's callout is drawn now, in points (an OpenMapKit addition,
    /// for a surface that handles clicks itself: a click there belongs to the callout, see
    /// ``tap(at:)``); nil when no callout is shown.
    public var calloutFrame: CGRect? { selectedCalloutFrame() }
}

/// MapKit's callout bubble: a rounded box (white, or dark grey on the dark appearance) above the
/// selected view, its arrow pointing down at the anchor, with a soft shadow: the left accessory,
/// the title over the subtitle (or the detail accessory), the right accessory.
enum MapViewCallout {
    static let titleSize = 15.0, subtitleSize = 12.0, padding = 10.0, arrow = 8.0, radius = 10.0, spacing = 8.0

    /// The bubble's box (without the arrow) for text this wide, pointing at `anchor`.
    static func box(textWidth: Double, hasSubtitle: Bool, anchor: CGPoint) -> CGRect {
        let height = padding * 2 + titleSize * 1.25 + (hasSubtitle ? subtitleSize * 1.35 : 0)
        let width = max(textWidth + padding * 2, 2 * radius + 2 * arrow)
        return CGRect(x: Double(anchor.x) - width / 2, y: Double(anchor.y) - arrow - height, width: width, height: height)
    }

    /// Lays a callout out: accessories sized by their `sizeThatFits` (hidden ones left out), the
    /// detail view in the subtitle's place, everything centred vertically in the box.
    static func layout(title: String, subtitle: String?, left: UIView?, right: UIView?, detail: UIView?,
                       anchor: CGPoint) -> MapViewCalloutLayout {
        func shown(_ view: UIView?) -> (UIView, CGSize)? {
            guard let view, !view.isHidden else { return nil }
            let size = view.sizeThatFits(.zero)
            guard size.width.isFinite, size.height.isFinite, size.width >= 0, size.height >= 0 else { return nil }
            // Absurd sizes are capped so a callout stays on a screen.
            return (view, CGSize(width: min(size.width, 400), height: min(size.height, 300)))
        }
        let left = shown(left), right = shown(right), detail = shown(detail)
        let subtitle = detail == nil ? subtitle.flatMap { $0.isEmpty ? nil : $0 } : nil
        let titleWidth: Double = measure(title, bold: true, size: titleSize)
        let subtitleWidth: Double = subtitle.map { measure($0, bold: false, size: subtitleSize) } ?? 0
        let detailWidth: Double = Double(detail?.1.width ?? 0), detailHeight: Double = detail.map { Double($0.1.height) + 4 } ?? 0
        let textWidth: Double = max(titleWidth, subtitleWidth, detailWidth)
        let subtitleHeight: Double = subtitle != nil ? subtitleSize * 1.35 : 0
        let textHeight: Double = titleSize * 1.25 + subtitleHeight + detailHeight
        let leftWidth: Double = left.map { Double($0.1.width) + spacing } ?? 0
        let rightWidth: Double = right.map { Double($0.1.width) + spacing } ?? 0
        let leftHeight: Double = Double(left?.1.height ?? 0), rightHeight: Double = Double(right?.1.height ?? 0)
        let inner: Double = max(textHeight, leftHeight, rightHeight)
        let boxHeight: Double = padding * 2 + inner
        let boxWidth: Double = max(leftWidth + textWidth + rightWidth + padding * 2, 2 * radius + 2 * arrow)
        let box = CGRect(x: Double(anchor.x) - boxWidth / 2, y: Double(anchor.y) - arrow - boxHeight, width: boxWidth, height: boxHeight)
        let textX: Double = Double(box.minX) + padding + leftWidth
        let textTop: Double = Double(box.minY) + padding + (inner - textHeight) / 2
        let titleOrigin = CGPoint(x: textX + (textWidth - titleWidth) / 2, y: textTop + titleSize)
        let subtitleOrigin = CGPoint(x: textX + (textWidth - subtitleWidth) / 2, y: textTop + titleSize + 4 + subtitleSize * 1.1)
        var result = MapViewCalloutLayout(box: box, anchor: anchor, title: title, subtitle: subtitle, titleOrigin: titleOrigin,
                                          subtitleOrigin: subtitleOrigin)
        if let (view, size) = left {
            result.left = (view, CGRect(x: Double(box.minX) + padding, y: Double(box.midY) - Double(size.height) / 2,
                                        width: Double(size.width), height: Double(size.height)))
        }
        if let (view, size) = right {
            result.right = (view, CGRect(x: Double(box.maxX) - padding - Double(size.width), y: Double(box.midY) - Double(size.height) / 2,
                                         width: Double(size.width), height: Double(size.height)))
        }
        if let (view, size) = detail {
            result.detail = (view, CGRect(x: textX + (textWidth - Double(size.width)) / 2, y: textTop + titleSize * 1.25 + 4,
                                          width: Double(size.width), height: Double(size.height)))
        }
        return result
    }

    static func measure(_ text: String, bold: Bool, size: Double) -> Double {
        AnnotationDrawing.shape(text, stack: [bold ? "Noto Sans Bold" : "Noto Sans Regular"], size: size).reduce(0) { $0 + $1.advance }
    }

    /// The blue MapKit tints callout accessories with.
    static let accessoryTint = UIColor.systemBlue.renderColor

    static func draw(_ layout: MapViewCalloutLayout, dark: Bool, on canvas: RenderCanvas) {
        let anchor = layout.anchor, rect = layout.box
        guard anchor.x.isFinite, anchor.y.isFinite, rect.minX.isFinite, rect.minY.isFinite else { return }
        let x0 = Double(rect.minX), y0 = Double(rect.minY), x1 = Double(rect.maxX), y1 = Double(rect.maxY), r = radius
        let ax = Double(anchor.x), ay = Double(anchor.y)
        let path: [RenderPathElement] = [
            .move(x: x0 + r, y: y0),
            .arc(centerX: x1 - r, centerY: y0 + r, radius: r, startAngle: -.pi / 2, endAngle: 0),
            .arc(centerX: x1 - r, centerY: y1 - r, radius: r, startAngle: 0, endAngle: .pi / 2),
            .line(x: ax + arrow, y: y1), .line(x: ax, y: ay), .line(x: ax - arrow, y: y1),
            .arc(centerX: x0 + r, centerY: y1 - r, radius: r, startAngle: .pi / 2, endAngle: .pi),
            .arc(centerX: x0 + r, centerY: y0 + r, radius: r, startAngle: .pi, endAngle: 1.5 * .pi), .close,
        ]
        canvas.fillShadow(path: path, offsetX: 0, offsetY: 1.5, blur: 4, color: RenderColor(red: 0, green: 0, blue: 0, alpha: dark ? 0.5 : 0.25))
        canvas.fill(path: path, color: dark ? RenderColor(red: 0.17, green: 0.17, blue: 0.18) : RenderColor(red: 1, green: 1, blue: 1))
        let titleRuns = AnnotationDrawing.shape(layout.title, stack: ["Noto Sans Bold"], size: titleSize)
        AnnotationDrawing.draw(titleRuns, x: Double(layout.titleOrigin.x), y: Double(layout.titleOrigin.y),
                               color: dark ? RenderColor(red: 1, green: 1, blue: 1) : RenderColor(red: 0, green: 0, blue: 0), on: canvas)
        if let subtitle = layout.subtitle {
            let runs = AnnotationDrawing.shape(subtitle, stack: ["Noto Sans Regular"], size: subtitleSize)
            AnnotationDrawing.draw(runs, x: Double(layout.subtitleOrigin.x), y: Double(layout.subtitleOrigin.y),
                                   color: dark ? RenderColor(red: 0.62, green: 0.62, blue: 0.65) : RenderColor(red: 0.42, green: 0.42, blue: 0.45),
                                   on: canvas)
        }
        for part in [layout.left, layout.right, layout.detail].compactMap({ $0 }) {
            let faded = (part.view as? UIControl).map { !$0.isEnabled } ?? false
            let opacity = Double(min(max(part.view.alpha, 0), 1)) * (faded ? 0.35 : 1)
            guard opacity > 0 else { continue }
            canvas.beginGroup()
            part.view.draw(in: part.frame, tint: accessoryTint, dark: dark, on: canvas)
            canvas.endGroup(opacity: opacity)
        }
    }
}
