// The SwiftUI modifiers annotation content is styled with in the WWDC23 talk and MapKit's samples:
// `.foregroundStyle`, `.font`, `.background`, `.cornerRadius`/`.clipShape`, `.overlay`,
// `.opacity` and `.shadow`. Styles (foreground, font) flow down to the images, text and bare shapes
// inside that set none of their own; the rest wrap the content and draw around it.

import Foundation
import MapRender

/// SwiftUI's `Font`: the text styles' sizes (Dynamic Type's defaults) and weights.
public struct Font: Hashable, Sendable {
    /// The size in points.
    public let size: CGFloat
    /// Whether it is drawn bold (semibold and heavier weights).
    let isBold: Bool

    /// A weight (SwiftUI's `Font.Weight`).
    public enum Weight: Sendable, Hashable {
        case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
        var isBold: Bool { [.semibold, .bold, .heavy, .black].contains(self) }
    }

    public static let largeTitle = Font(size: 34, isBold: false)
    public static let title = Font(size: 28, isBold: false)
    public static let title2 = Font(size: 22, isBold: false)
    public static let title3 = Font(size: 20, isBold: false)
    public static let headline = Font(size: 17, isBold: true)
    public static let body = Font(size: 17, isBold: false)
    public static let callout = Font(size: 16, isBold: false)
    public static let subheadline = Font(size: 15, isBold: false)
    public static let footnote = Font(size: 13, isBold: false)
    public static let caption = Font(size: 12, isBold: false)
    public static let caption2 = Font(size: 11, isBold: false)

    /// The system font at `size` points and `weight`.
    public static func system(size: CGFloat, weight: Weight = .regular) -> Font { Font(size: size, isBold: weight.isBold) }

    /// The font in bold.
    public func bold() -> Font { Font(size: size, isBold: true) }
    /// The font at `weight`.
    public func weight(_ weight: Weight) -> Font { Font(size: size, isBold: weight.isBold) }
}

/// The style a container passes to the content inside it that sets none of its own.
struct AnnotationStyle {
    var foreground: Color?
    var font: Font?

    /// `content` with the style given to whatever in it has none.
    func apply(to content: any AnnotationContent) -> any AnnotationContent {
        switch content {
        case var image as Image:
            if image.color == nil { image.color = foreground }
            // SF Symbols follow the font's size.
            if image.side == nil, case .symbol = image.source, let font { image.side = font.size * 1.2 }
            return image
        case var text as Text:
            if text.color == nil { text.color = foreground }
            if text.size == nil, let font { (text.size, text.bold) = (font.size, font.isBold) }
            return text
        case let shape as any AnnotationShape:
            // A bare shape fills with the foreground style, as in SwiftUI.
            return foreground.map { shape.fill($0) } ?? shape
        case let container as any InheritsAnnotationStyle:
            return container.inheriting(self)
        default:
            return content
        }
    }
}

/// Content that passes an inherited style on to what it holds.
protocol InheritsAnnotationStyle {
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent
}

extension AnnotationContent {
    /// Colours the images, text and bare shapes inside that have no colour of their own
    /// (SwiftUI's `foregroundStyle`).
    public func foregroundStyle(_ color: Color) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(AnnotationStyle(foreground: color).apply(to: self))
    }

    /// Sets the font of the text (and the size of the symbols) inside that have none of their own.
    public func font(_ font: Font) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(AnnotationStyle(font: font).apply(to: self))
    }

    /// Draws `color` behind the content, filling its frame.
    public func background(_ color: Color) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(BackgroundContent(content: self, background: Rectangle().fill(color)))
    }

    /// Draws `background` behind the content, in its frame.
    public func background(_ background: some AnnotationContent) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(BackgroundContent(content: self, background: background))
    }

    /// Draws the content made by `background` behind this content, in its frame.
    public func background(@AnnotationContentBuilder _ background: () -> ZStack) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(BackgroundContent(content: self, background: background()))
    }

    /// Rounds the content's corners (SwiftUI's `cornerRadius`): what lies outside is cut away.
    public func cornerRadius(_ radius: CGFloat) -> ModifiedAnnotationContent {
        clipShape(RoundedRectangle(cornerRadius: radius))
    }

    /// Cuts the content to `shape` in its frame.
    public func clipShape(_ shape: some AnnotationShape) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(ClippedContent(content: self, shape: shape))
    }

    /// Draws the content `overlay` makes on top, placed at `alignment` in this content's frame.
    public func overlay(alignment: UnitPoint = .center, @AnnotationContentBuilder _ overlay: () -> ZStack) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(OverlayContent(content: self, overlay: overlay(), alignment: alignment))
    }

    /// Draws `overlay` on top, placed at `alignment` in this content's frame.
    public func overlay(_ overlay: some AnnotationContent, alignment: UnitPoint = .center) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(OverlayContent(content: self, overlay: overlay, alignment: alignment))
    }

    /// Draws the content `opacity` opaque (0 … 1), as one layer.
    public func opacity(_ opacity: Double) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(OpacityContent(content: self, opacity: opacity.isFinite ? min(max(opacity, 0), 1) : 1))
    }

    /// Casts a shadow `radius` points soft, offset by `x` and `y`.
    ///
    /// Differs from SwiftUI: the shadow is cast by the content's outline — its shape, its clip
    /// or background shape, else its frame, moved by padding and frames — not by each pixel.
    public func shadow(color: Color = Color(white: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> ModifiedAnnotationContent {
        ModifiedAnnotationContent(ShadowContent(content: self, color: color, radius: radius, x: x, y: y))
    }
}

/// Content a modifier made (SwiftUI's modifiers return an opaque `some View`).
public struct ModifiedAnnotationContent: AnnotationContent, InheritsAnnotationStyle {
    let content: any AnnotationContent
    init(_ content: any AnnotationContent) { self.content = content }
    public var idealSize: CGSize? { content.idealSize }
    public func draw(on canvas: RenderCanvas, in rect: CGRect) { content.draw(on: canvas, in: rect) }
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent { ModifiedAnnotationContent(style.apply(to: content)) }
}

/// A modifier's content, seen through for layout and outlines.
protocol WrapsAnnotationContent {
    var wrapped: any AnnotationContent { get }
}

/// Content that knows its outline (for shadows).
protocol OutlinedContent {
    func outlinePath(in rect: CGRect) -> [RenderPathElement]
}

extension ModifiedAnnotationContent: WrapsAnnotationContent, OutlinedContent {
    var wrapped: any AnnotationContent { content }
    func outlinePath(in rect: CGRect) -> [RenderPathElement] { AnnotationLayout.outline(of: content, in: rect) }
}

struct BackgroundContent: AnnotationContent, InheritsAnnotationStyle, OutlinedContent, WrapsAnnotationContent {
    let content: any AnnotationContent
    let background: any AnnotationContent
    var idealSize: CGSize? { content.idealSize }
    func draw(on canvas: RenderCanvas, in rect: CGRect) {
        background.draw(on: canvas, in: rect)
        content.draw(on: canvas, in: rect)
    }
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent {
        // The background keeps its own colour: a style reaches the content in front.
        BackgroundContent(content: style.apply(to: content), background: background)
    }
    func outlinePath(in rect: CGRect) -> [RenderPathElement] { AnnotationLayout.outline(of: background, in: rect) }
    var wrapped: any AnnotationContent { content }
}

struct ClippedContent: AnnotationContent, InheritsAnnotationStyle, OutlinedContent, WrapsAnnotationContent {
    let content: any AnnotationContent
    let shape: any AnnotationShape
    var idealSize: CGSize? { content.idealSize }
    func draw(on canvas: RenderCanvas, in rect: CGRect) {
        canvas.save()
        canvas.clip(path: shape.path(in: rect))
        content.draw(on: canvas, in: rect)
        canvas.restore()
    }
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent { ClippedContent(content: style.apply(to: content), shape: shape) }
    func outlinePath(in rect: CGRect) -> [RenderPathElement] { shape.path(in: rect) }
    var wrapped: any AnnotationContent { content }
}

struct OverlayContent: AnnotationContent, InheritsAnnotationStyle, OutlinedContent, WrapsAnnotationContent {
    let content: any AnnotationContent
    let overlay: any AnnotationContent
    let alignment: UnitPoint
    var idealSize: CGSize? { content.idealSize }
    func draw(on canvas: RenderCanvas, in rect: CGRect) {
        content.draw(on: canvas, in: rect)
        let size = overlay.idealSize ?? rect.size
        let x = rect.minX + (rect.width - size.width) * alignment.x, y = rect.minY + (rect.height - size.height) * alignment.y
        overlay.draw(on: canvas, in: CGRect(x: x, y: y, width: size.width, height: size.height))
    }
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent {
        OverlayContent(content: style.apply(to: content), overlay: style.apply(to: overlay), alignment: alignment)
    }
    func outlinePath(in rect: CGRect) -> [RenderPathElement] { AnnotationLayout.outline(of: content, in: rect) }
    var wrapped: any AnnotationContent { content }
}

struct OpacityContent: AnnotationContent, InheritsAnnotationStyle, OutlinedContent, WrapsAnnotationContent {
    let content: any AnnotationContent
    let opacity: Double
    var idealSize: CGSize? { content.idealSize }
    func draw(on canvas: RenderCanvas, in rect: CGRect) {
        canvas.beginGroup()
        content.draw(on: canvas, in: rect)
        canvas.endGroup(opacity: opacity)
    }
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent { OpacityContent(content: style.apply(to: content), opacity: opacity) }
    func outlinePath(in rect: CGRect) -> [RenderPathElement] { AnnotationLayout.outline(of: content, in: rect) }
    var wrapped: any AnnotationContent { content }
}

struct ShadowContent: AnnotationContent, InheritsAnnotationStyle, WrapsAnnotationContent {
    var wrapped: any AnnotationContent { content }
    let content: any AnnotationContent
    let color: Color
    let radius: CGFloat, x: CGFloat, y: CGFloat
    var idealSize: CGSize? { content.idealSize }
    func draw(on canvas: RenderCanvas, in rect: CGRect) {
        canvas.fillShadow(path: AnnotationLayout.outline(of: content, in: rect), offsetX: Double(x), offsetY: Double(y), blur: Double(max(radius, 0)), color: color.renderColor)
        content.draw(on: canvas, in: rect)
    }
    func inheriting(_ style: AnnotationStyle) -> any AnnotationContent {
        ShadowContent(content: style.apply(to: content), color: color, radius: radius, x: x, y: y)
    }
}
