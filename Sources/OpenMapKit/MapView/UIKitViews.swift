// The few UIKit views MapKit code puts in a callout: `UIView`, `UIControl`, `UIButton`,
// `UILabel` and `UIImageView`, as models in the style of `UIImage` and `UIColor` here. A callout
// lays them out and draws them (MKMapView+Callouts.swift); a tap on a control in it reaches the
// map view's delegate as `calloutAccessoryControlTapped`.

import Foundation
import MapRender

/// A rectangle that draws something (UIKit's `UIView`), as a model: a frame, a background
/// colour, hidden and alpha. A map view draws it where it puts it, such as a callout's accessory.
///
/// Differs from UIKit: no subviews, layers, Auto Layout or responder chain; subclasses draw by
/// overriding nothing (the map view knows how to draw each of the classes here), so a custom
/// subclass draws as its nearest class does.
open class UIView {
    /// The view's frame in its container, in points; its size is what a callout makes room for.
    open var frame: CGRect
    /// The view's bounds: its frame's size at the origin.
    open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }
    /// The colour filling the view's bounds before its content; nil fills nothing.
    open var backgroundColor: UIColor?
    /// The colour the view's content is drawn in where it has one (a button's symbol, an image's
    /// template tint); nil uses its container's (a callout's blue).
    open var tintColor: UIColor?
    /// Whether the view is hidden (neither drawn nor tappable).
    open var isHidden = false
    /// The view's opacity, 0 … 1.
    open var alpha: CGFloat = 1
    /// A number the app chooses to tell views apart.
    open var tag = 0

    /// A view with `frame` (in points).
    public init(frame: CGRect) { self.frame = frame }

    /// A view with a zero frame.
    public convenience init() { self.init(frame: .zero) }

    /// The size the view would like: its frame's size (subclasses with content return the
    /// content's size when the frame is empty).
    open func sizeThatFits(_ size: CGSize) -> CGSize { frame.size }

    /// Sizes the frame to ``sizeThatFits(_:)``, keeping its origin.
    open func sizeToFit() { frame.size = sizeThatFits(.zero) }

    /// Draws the view into `rect` on a canvas: its background, then its content.
    func draw(in rect: CGRect, tint: RenderColor, dark: Bool, on canvas: RenderCanvas) {
        if let backgroundColor { canvas.fill(path: UIView.rectPath(rect), color: backgroundColor.renderColor) }
    }

    static func rectPath(_ r: CGRect) -> [RenderPathElement] {
        let x0 = Double(r.minX), y0 = Double(r.minY), x1 = Double(r.maxX), y1 = Double(r.maxY)
        return [.move(x: x0, y: y0), .line(x: x1, y: y0), .line(x: x1, y: y1), .line(x: x0, y: y1), .close]
    }
}

/// A view that responds to taps (UIKit's `UIControl`). In a callout, a tap on an enabled control
/// calls the map view delegate's `calloutAccessoryControlTapped`.
open class UIControl: UIView {
    /// The states a control is drawn for (UIKit's `UIControl.State`).
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Enabled, not highlighted or selected.
        public static let normal = State([])
        /// Touched.
        public static let highlighted = State(rawValue: 1 << 0)
        /// Disabled.
        public static let disabled = State(rawValue: 1 << 1)
        /// Selected.
        public static let selected = State(rawValue: 1 << 2)
    }

    /// Whether the control takes taps (a disabled one is drawn faded and ignores them).
    open var isEnabled = true
    /// Whether the control is drawn selected.
    open var isSelected = false
    /// Whether the control is drawn highlighted (touched).
    open var isHighlighted = false

    /// The control's state, from its flags.
    open var state: State {
        var state = State.normal
        if isHighlighted { state.insert(.highlighted) }
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        return state
    }
}

/// A button (UIKit's `UIButton`): the system's detail-disclosure, info and contact-add buttons
/// that callouts use, or a custom button with a title or an image.
open class UIButton: UIControl {
    /// The kind of button (UIKit's `UIButton.ButtonType`).
    public enum ButtonType: Int, Sendable, Hashable {
        /// No system look: the title or image set on it.
        case custom = 0
        /// A title in the tint colour.
        case system = 1
        /// The "i" in a circle MapKit callouts show for more detail.
        case detailDisclosure = 2
        /// The "i" in a circle, light.
        case infoLight = 3
        /// The "i" in a circle, dark.
        case infoDark = 4
        /// A "+" in a circle.
        case contactAdd = 5
        /// An "×" in a grey circle.
        case close = 7
    }

    /// The kind of button.
    public let buttonType: ButtonType
    private var titles: [UInt: String] = [:]
    private var images: [UInt: UIImage] = [:]

    /// A button of `buttonType`, sized as UIKit sizes system buttons (the disclosure and info
    /// buttons are 22 points square, a close button 30).
    public init(type buttonType: ButtonType) {
        self.buttonType = buttonType
        super.init(frame: .zero)
        frame.size = sizeThatFits(.zero)
    }

    /// A custom button with `frame`.
    public override init(frame: CGRect) {
        buttonType = .custom
        super.init(frame: frame)
    }

    /// Sets the title shown in `state` (`.normal` is used for states with none).
    open func setTitle(_ title: String?, for state: UIControl.State) { titles[state.rawValue] = title }
    /// The title shown in `state`.
    open func title(for state: UIControl.State) -> String? { titles[state.rawValue] ?? titles[0] }
    /// Sets the image shown in `state` (`.normal` is used for states with none).
    open func setImage(_ image: UIImage?, for state: UIControl.State) { images[state.rawValue] = image }
    /// The image shown in `state`.
    open func image(for state: UIControl.State) -> UIImage? { images[state.rawValue] ?? images[0] }

    /// The title shown now.
    open var currentTitle: String? { title(for: state) }
    /// The image shown now.
    open var currentImage: UIImage? { image(for: state) }

    /// The system buttons' sizes; a custom one's image or title size when its frame is empty.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        switch buttonType {
        case .detailDisclosure, .infoLight, .infoDark, .contactAdd: return CGSize(width: 22, height: 22)
        case .close: return CGSize(width: 30, height: 30)
        case .custom, .system:
            if frame.size != .zero { return frame.size }
            if let image = currentImage { return image.size }
            if let title = currentTitle {
                let width = AnnotationDrawing.shape(title, stack: ["Noto Sans Regular"], size: UIButton.titleSize).reduce(0) { $0 + $1.advance }
                return CGSize(width: width + 12, height: UIButton.titleSize * 1.3 + 10)
            }
            return .zero
        }
    }

    static let titleSize = 15.0

    override func draw(in rect: CGRect, tint: RenderColor, dark: Bool, on canvas: RenderCanvas) {
        super.draw(in: rect, tint: tint, dark: dark, on: canvas)
        let color = tintColor?.renderColor ?? tint
        let cx = Double(rect.midX), cy = Double(rect.midY), r = Double(min(rect.width, rect.height)) / 2
        guard cx.isFinite, cy.isFinite, r > 0 else { return }
        switch buttonType {
        case .detailDisclosure, .infoLight, .infoDark:
            // A ring with a lowercase "i": a dot over a stem.
            let ink = buttonType == .infoDark ? RenderColor(red: 0.1, green: 0.1, blue: 0.12) : color
            canvas.fillAnnulus(x: cx, y: cy, inner: r * 0.84, outer: r * 0.97, color: ink)
            canvas.fillCircle(x: cx, y: cy - r * 0.42, radius: r * 0.11, color: ink)
            canvas.fill(path: UIView.rectPath(CGRect(x: cx - r * 0.08, y: cy - r * 0.2, width: r * 0.16, height: r * 0.62)), color: ink)
        case .contactAdd:
            canvas.fillAnnulus(x: cx, y: cy, inner: r * 0.84, outer: r * 0.97, color: color)
            canvas.fill(path: UIView.rectPath(CGRect(x: cx - r * 0.5, y: cy - r * 0.08, width: r, height: r * 0.16)), color: color)
            canvas.fill(path: UIView.rectPath(CGRect(x: cx - r * 0.08, y: cy - r * 0.5, width: r * 0.16, height: r)), color: color)
        case .close:
            canvas.fillCircle(x: cx, y: cy, radius: r, color: dark ? RenderColor(red: 0.3, green: 0.3, blue: 0.32) : RenderColor(red: 0.9, green: 0.9, blue: 0.92))
            let d = r * 0.38, grey = RenderColor(red: 0.45, green: 0.45, blue: 0.48)
            canvas.stroke(path: [.move(x: cx - d, y: cy - d), .line(x: cx + d, y: cy + d)], style: RenderStrokeStyle(width: 2), color: grey)
            canvas.stroke(path: [.move(x: cx + d, y: cy - d), .line(x: cx - d, y: cy + d)], style: RenderStrokeStyle(width: 2), color: grey)
        case .custom, .system:
            if let image = currentImage, let rendered = try? image.canvas.makeImage() {
                canvas.draw(rendered, x: Double(rect.minX), y: Double(rect.minY), width: Double(rect.width), height: Double(rect.height))
            } else if let title = currentTitle {
                let runs = AnnotationDrawing.shape(title, stack: ["Noto Sans Regular"], size: UIButton.titleSize)
                let width = runs.reduce(0) { $0 + $1.advance }
                AnnotationDrawing.draw(runs, x: cx - width / 2, y: cy + UIButton.titleSize * 0.36, color: color, on: canvas)
            }
        }
    }
}

/// A line of text (UIKit's `UILabel`), e.g. a callout's detail accessory.
open class UILabel: UIView {
    /// The text shown.
    open var text: String?
    /// The text's colour; nil is the label colour (dark on light, light on dark).
    open var textColor: UIColor?
    /// The text's size in points (UIKit sets it through a `UIFont`; here the size alone).
    open var fontSize: CGFloat = 13

    /// The text's size when the frame is empty.
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        if frame.size != .zero { return frame.size }
        guard let text, !text.isEmpty else { return .zero }
        let width = AnnotationDrawing.shape(text, stack: ["Noto Sans Regular"], size: Double(fontSize)).reduce(0) { $0 + $1.advance }
        return CGSize(width: width, height: Double(fontSize) * 1.3)
    }

    override func draw(in rect: CGRect, tint: RenderColor, dark: Bool, on canvas: RenderCanvas) {
        super.draw(in: rect, tint: tint, dark: dark, on: canvas)
        guard let text, !text.isEmpty else { return }
        let color = textColor?.renderColor ?? (dark ? RenderColor(red: 0.92, green: 0.92, blue: 0.94) : RenderColor(red: 0.2, green: 0.2, blue: 0.22))
        let runs = AnnotationDrawing.shape(text, stack: ["Noto Sans Regular"], size: Double(fontSize))
        AnnotationDrawing.draw(runs, x: Double(rect.minX), y: Double(rect.midY) + Double(fontSize) * 0.36, color: color, on: canvas)
    }
}

/// A view showing an image (UIKit's `UIImageView`), scaled to fill its frame.
open class UIImageView: UIView {
    /// The image shown.
    open var image: UIImage?

    /// A view showing `image`, sized to it.
    public init(image: UIImage?) {
        self.image = image
        super.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
    }

    /// An empty image view with `frame`.
    public override init(frame: CGRect) { super.init(frame: frame) }

    /// The image's size when the frame is empty.
    open override func sizeThatFits(_ size: CGSize) -> CGSize { frame.size != .zero ? frame.size : image?.size ?? .zero }

    override func draw(in rect: CGRect, tint: RenderColor, dark: Bool, on canvas: RenderCanvas) {
        super.draw(in: rect, tint: tint, dark: dark, on: canvas)
        guard let image, let rendered = try? image.canvas.makeImage() else { return }
        canvas.draw(rendered, x: Double(rect.minX), y: Double(rect.minY), width: Double(rect.width), height: Double(rect.height))
    }
}
