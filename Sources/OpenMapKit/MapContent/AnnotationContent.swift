// The small part of SwiftUI that annotation content is written in, drawn headless: shapes
// (`Circle`, `Rectangle`, `RoundedRectangle`) filled or stroked, `Image(systemName:)`, `Text`,
// `ZStack`, `.padding` and `.frame`; the modifiers that style them are in
// AnnotationContentModifiers.swift. Layout is SwiftUI's in miniature: images and text have their
// own size, shapes take the size they are offered, a ZStack is as large as its largest sized child
// and centres the others in it. A foreground style or font given to a container reaches the
// images, text and bare shapes inside that set none of their own, as SwiftUI's environment does.

import Foundation
import MapRender

/// A unit point in a rectangle (SwiftUI's `UnitPoint`): (0, 0) is the top-left corner, (1, 1) the
/// bottom-right.
public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public init(x: CGFloat, y: CGFloat) { (self.x, self.y) = (x, y) }

    public static let zero = UnitPoint(x: 0, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// Something an ``Annotation`` shows (the headless stand-in for a SwiftUI view).
public protocol AnnotationContent {
    /// The size it wants, in points; nil takes whatever it is offered (shapes).
    var idealSize: CGSize? { get }
    /// Draws it into `rect` (in points on the canvas).
    func draw(on canvas: RenderCanvas, in rect: CGRect)
}

extension AnnotationContent {
    /// The size it is drawn at on its own: its ideal size, or 20 × 20 points for a bare shape.
    public var contentSize: CGSize { idealSize ?? CGSize(width: 20, height: 20) }

    /// Adds `length` points of space on every side.
    public func padding(_ length: CGFloat = 8) -> PaddedContent { PaddedContent(content: self, inset: length) }

    /// Gives the content a fixed size (a missing side keeps the content's own).
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil) -> FramedContent {
        FramedContent(content: self, width: width, height: height)
    }
}

/// Builds annotation content from a list (SwiftUI's `ViewBuilder`, headless): several items are
/// stacked as in a ``ZStack``.
@resultBuilder
public enum AnnotationContentBuilder {
    public static func buildExpression(_ content: any AnnotationContent) -> [any AnnotationContent] { [content] }
    public static func buildBlock(_ parts: [any AnnotationContent]...) -> [any AnnotationContent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any AnnotationContent]?) -> [any AnnotationContent] { part ?? [] }
    public static func buildEither(first: [any AnnotationContent]) -> [any AnnotationContent] { first }
    public static func buildEither(second: [any AnnotationContent]) -> [any AnnotationContent] { second }
    public static func buildArray(_ parts: [[any AnnotationContent]]) -> [any AnnotationContent] { parts.flatMap { $0 } }
    public static func buildFinalResult(_ parts: [any AnnotationContent]) -> ZStack { ZStack(items: parts) }
}

/// Content drawn on top of each other, centred (SwiftUI's `ZStack`).
public struct ZStack: AnnotationContent {
    let items: [any AnnotationContent]
    init(items: [any AnnotationContent]) { self.items = items }
    public init(@AnnotationContentBuilder content: () -> ZStack) { self = content() }

    public var idealSize: CGSize? {
        let sizes = items.compactMap(\.idealSize)
        guard !sizes.isEmpty else { return nil }
        return CGSize(width: sizes.map(\.width).max()!, height: sizes.map(\.height).max()!)
    }

    public func draw(on canvas: RenderCanvas, in rect: CGRect) {
        for item in items {
            let size = item.idealSize ?? rect.size
            item.draw(on: canvas, in: CGRect(x: rect.midX - size.width / 2, y: rect.midY - size.height / 2, width: size.width, height: size.height))
        }
    }
}

extension ZStack: InheritsAnnotationStyle {
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent { ZStack(items: items.map { style.apply(to: $0) }) }
}

/// Content with space around it.
public struct PaddedContent: AnnotationContent {
    let content: any AnnotationContent
    let inset: CGFloat
    public var idealSize: CGSize? {
        content.idealSize.map { CGSize(width: $0.width + 2 * inset, height: $0.height + 2 * inset) }
    }
    public func draw(on canvas: RenderCanvas, in rect: CGRect) {
        content.draw(on: canvas, in: rect.insetBy(dx: inset, dy: inset))
    }
}

extension PaddedContent: InheritsAnnotationStyle {
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent { PaddedContent(content: style.apply(to: content), inset: inset) }
}

/// Content at a fixed size.
public struct FramedContent: AnnotationContent {
    let content: any AnnotationContent
    let width: CGFloat?, height: CGFloat?
    public var idealSize: CGSize? {
        let own = content.idealSize
        guard let w = width ?? own?.width, let h = height ?? own?.height else { return nil }
        return CGSize(width: w, height: h)
    }
    public func draw(on canvas: RenderCanvas, in rect: CGRect) {
        // Flexible content (shapes, stacks holding one) fills the frame, as SwiftUI offers it the
        // frame's size; fixed content (images, text) keeps its own size, centred.
        if AnnotationLayout.isFlexible(content) { return content.draw(on: canvas, in: rect) }
        let size = content.idealSize ?? rect.size
        let w = min(size.width, rect.width), h = min(size.height, rect.height)
        content.draw(on: canvas, in: CGRect(x: rect.midX - w / 2, y: rect.midY - h / 2, width: w, height: h))
    }
}

/// SwiftUI's layout rules the content types share.
enum AnnotationLayout {
    /// Whether content takes whatever size it is offered: shapes, and content holding one.
    static func isFlexible(_ content: any AnnotationContent) -> Bool {
        switch content {
        case is any AnnotationShape, is StyledShape: true
        case let stack as ZStack: stack.items.contains(where: isFlexible)
        case let padded as PaddedContent: isFlexible(padded.content)
        case let wrapper as any WrapsAnnotationContent: isFlexible(wrapper.wrapped)
        default: false
        }
    }

    /// The path outlining content drawn in `rect` (what casts a shadow): a shape's own, a clip
    /// or background shape's, the inner content's where padding or a frame moves it, else the rect.
    static func outline(of content: any AnnotationContent, in rect: CGRect) -> [RenderPathElement] {
        switch content {
        case let shape as any AnnotationShape: return shape.path(in: rect)
        case let styled as StyledShape: return styled.shape.path(in: rect)
        case let padded as PaddedContent: return outline(of: padded.content, in: rect.insetBy(dx: padded.inset, dy: padded.inset))
        case let framed as FramedContent:
            if isFlexible(framed.content) { return outline(of: framed.content, in: rect) }
            let size = framed.content.idealSize ?? rect.size
            let w = min(size.width, rect.width), h = min(size.height, rect.height)
            return outline(of: framed.content, in: CGRect(x: rect.midX - w / 2, y: rect.midY - h / 2, width: w, height: h))
        case let outlined as any OutlinedContent: return outlined.outlinePath(in: rect)
        default: return Rectangle().path(in: rect)
        }
    }
}

extension FramedContent: InheritsAnnotationStyle {
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent {
        FramedContent(content: style.apply(to: content), width: width, height: height)
    }
}

/// A shape filled or stroked; shapes take the size they are offered.
public protocol AnnotationShape: AnnotationContent {
    /// The outline inside `rect`.
    func path(in rect: CGRect) -> [RenderPathElement]
}

extension AnnotationShape {
    public var idealSize: CGSize? { nil }
    /// A shape on its own is filled black, as in SwiftUI.
    public func draw(on canvas: RenderCanvas, in rect: CGRect) {
        canvas.fill(path: path(in: rect), color: .black)
    }
    /// The shape filled with `color`.
    public func fill(_ color: Color) -> StyledShape { StyledShape(shape: self, fill: color, stroke: nil, lineWidth: 0) }
    /// The shape's outline, `lineWidth` points wide and centred on the edge.
    public func stroke(_ color: Color, lineWidth: CGFloat = 1) -> StyledShape {
        StyledShape(shape: self, fill: nil, stroke: color, lineWidth: lineWidth)
    }
    /// SwiftUI's `foregroundStyle`: the fill colour.
    public func foregroundStyle(_ color: Color) -> StyledShape { fill(color) }
}

/// A shape with its fill or stroke.
public struct StyledShape: AnnotationContent {
    let shape: any AnnotationShape
    let fill: Color?, stroke: Color?, lineWidth: CGFloat
    public var idealSize: CGSize? { nil }
    public func draw(on canvas: RenderCanvas, in rect: CGRect) {
        let path = shape.path(in: rect)
        if let fill { canvas.fill(path: path, color: fill.renderColor) }
        if let stroke { canvas.stroke(path: path, style: RenderStrokeStyle(width: Double(lineWidth)), color: stroke.renderColor) }
    }
}

/// SwiftUI's `Rectangle`.
public struct Rectangle: AnnotationShape {
    public init() {}
    public func path(in rect: CGRect) -> [RenderPathElement] {
        [.move(x: Double(rect.minX), y: Double(rect.minY)), .line(x: Double(rect.maxX), y: Double(rect.minY)),
         .line(x: Double(rect.maxX), y: Double(rect.maxY)), .line(x: Double(rect.minX), y: Double(rect.maxY)), .close]
    }
}

/// SwiftUI's `RoundedRectangle`.
public struct RoundedRectangle: AnnotationShape {
    public var cornerRadius: CGFloat
    public init(cornerRadius: CGFloat) { self.cornerRadius = cornerRadius }
    public func path(in rect: CGRect) -> [RenderPathElement] {
        let r = Double(max(0, min(cornerRadius, min(rect.width, rect.height) / 2)))
        let x0 = Double(rect.minX), y0 = Double(rect.minY), x1 = Double(rect.maxX), y1 = Double(rect.maxY)
        return [.move(x: x0 + r, y: y0),
                .arc(centerX: x1 - r, centerY: y0 + r, radius: r, startAngle: -.pi / 2, endAngle: 0),
                .arc(centerX: x1 - r, centerY: y1 - r, radius: r, startAngle: 0, endAngle: .pi / 2),
                .arc(centerX: x0 + r, centerY: y1 - r, radius: r, startAngle: .pi / 2, endAngle: .pi),
                .arc(centerX: x0 + r, centerY: y0 + r, radius: r, startAngle: .pi, endAngle: 1.5 * .pi), .close]
    }
}

/// SwiftUI's `Circle`: the largest circle centred in the rectangle.
public struct Circle: AnnotationShape {
    public init() {}
    public func path(in rect: CGRect) -> [RenderPathElement] {
        [.arc(centerX: Double(rect.midX), centerY: Double(rect.midY), radius: Double(min(rect.width, rect.height)) / 2,
              startAngle: 0, endAngle: 2 * .pi), .close]
    }
}

/// SwiftUI's `Image`: a symbol by SF Symbols name (drawn with the matching point-of-interest
/// icon, or the pin), or a ``UIImage``.
public struct Image: AnnotationContent {
    enum Source { case symbol(String), image(UIImage) }
    let source: Source
    /// The symbol's colour; nil takes the one inherited from a container (black by default).
    var color: Color?
    /// The symbol's size; nil follows the inherited font (20 points without one).
    var side: CGFloat?

    public init(systemName: String) { source = .symbol(systemName) }
    public init(uiImage: UIImage) { source = .image(uiImage) }

    public var idealSize: CGSize? {
        switch source {
        case .symbol: CGSize(width: side ?? 20, height: side ?? 20)
        case .image(let image): image.size
        }
    }

    /// The symbol's colour.
    public func foregroundStyle(_ color: Color) -> Image {
        var copy = self
        copy.color = color
        return copy
    }
    public func foregroundColor(_ color: Color) -> Image { foregroundStyle(color) }

    /// The symbol's size in points (SwiftUI sizes symbols with the font).
    public func imageScale(_ side: CGFloat) -> Image {
        var copy = self
        copy.side = side
        return copy
    }

    public func draw(on canvas: RenderCanvas, in rect: CGRect) {
        switch source {
        case .symbol(let name):
            // (A symbol is sized by its font: see `side`.)
            let icon = PointOfInterestIcon(systemImageName: name) ?? .pin
            icon.draw(on: canvas, centerX: Double(rect.midX), centerY: Double(rect.midY), size: Double(min(rect.width, rect.height)),
                      color: (color ?? .black).renderColor)
        case .image(let image):
            guard let rendered = try? image.canvas.makeImage() else { return }
            canvas.draw(rendered, x: Double(rect.minX), y: Double(rect.minY), width: Double(rect.width), height: Double(rect.height))
        }
    }
}

/// SwiftUI's `Text`, one line in the system font's stand-in (Noto Sans).
public struct Text: AnnotationContent {
    let string: String
    /// The colour; nil takes the one inherited from a container (black by default).
    var color: Color?
    /// The size in points; nil takes the inherited font's (17, SwiftUI's body, without one).
    var size: CGFloat?
    /// Whether the text is bold (a bold or semibold font).
    var bold = false
    var fontSize: CGFloat { size ?? 17 }

    public init(_ string: String) { self.string = string }

    public func foregroundStyle(_ color: Color) -> Text {
        var copy = self
        copy.color = color
        return copy
    }

    /// The text's size in points.
    public func fontSize(_ size: CGFloat) -> Text {
        var copy = self
        copy.size = size
        return copy
    }

    /// The text in `font` (SwiftUI's `font`): its size and weight.
    public func font(_ font: Font) -> Text {
        var copy = self
        copy.size = font.size
        copy.bold = font.isBold
        return copy
    }

    private func shaped() -> [ShapedRun] {
        AnnotationDrawing.shape(string, stack: [bold ? "Noto Sans Bold" : "Noto Sans Regular"], size: Double(fontSize))
    }

    public var idealSize: CGSize? {
        CGSize(width: shaped().reduce(0) { $0 + $1.advance }, height: Double(fontSize) * 1.25)
    }

    public func draw(on canvas: RenderCanvas, in rect: CGRect) {
        AnnotationDrawing.draw(shaped(), x: Double(rect.minX), y: Double(rect.midY) + Double(fontSize) * 0.36,
                               color: (color ?? .black).renderColor, on: canvas)
    }
}

extension Color {
    /// The background colour of the light appearance.
    public static let background = Color.white
    /// SwiftUI's primary and secondary foreground colours.
    public static let primary = Color.black
    public static let secondary = Color(red: 0.24, green: 0.24, blue: 0.26, opacity: 0.6)
}
