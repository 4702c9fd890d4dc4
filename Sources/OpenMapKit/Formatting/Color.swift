import Foundation
import MapRender

/// A colour for renderers and markers (UIKit's `UIColor`, AppKit's `NSColor`): red, green, blue
/// and alpha from 0 to 1, in sRGB, not premultiplied.
///
/// It carries UIKit's named colours (`.systemBlue`, `.red` …) with the values of UIKit's light
/// appearance, so `renderer.strokeColor = .systemBlue` reads as it does on iOS.
///
/// Differs from UIKit: a plain sRGB value, with no colour spaces and no dynamic colours; the
/// named colours, `.label` included, always have their light-appearance values.
public final class UIColor: Hashable, Sendable, CustomStringConvertible {
    public let red: CGFloat
    public let green: CGFloat
    public let blue: CGFloat
    public let alpha: CGFloat

    /// Components outside 0…1 are clamped; non-finite ones read as 0.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func clamp(_ v: CGFloat) -> CGFloat { v.isFinite ? min(max(v, 0), 1) : 0 }
        (self.red, self.green, self.blue, self.alpha) = (clamp(red), clamp(green), clamp(blue), clamp(alpha))
    }

    /// A grey.
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A colour from hue, saturation and brightness (0…1 each).
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (hue.isFinite ? hue - hue.rounded(.down) : 0) * 6, s = min(max(saturation, 0), 1), v = min(max(brightness, 0), 1)
        let c = v * s, x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1)), m = v - c
        let (r, g, b): (CGFloat, CGFloat, CGFloat) = switch Int(h) {
        case 0: (c, x, 0)
        case 1: (x, c, 0)
        case 2: (0, c, x)
        case 3: (0, x, c)
        case 4: (x, 0, c)
        default: (c, 0, x)
        }
        self.init(red: r + m, green: g + m, blue: b + m, alpha: alpha)
    }

    /// The same colour with another alpha.
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Copies the components out, as UIKit does; always succeeds here.
    @discardableResult
    public func getRed(_ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
                       blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        red?.pointee = self.red
        green?.pointee = self.green
        blue?.pointee = self.blue
        alpha?.pointee = self.alpha
        return true
    }

    public static func == (a: UIColor, b: UIColor) -> Bool {
        (a.red, a.green, a.blue, a.alpha) == (b.red, b.green, b.blue, b.alpha)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(red)
        hasher.combine(green)
        hasher.combine(blue)
        hasher.combine(alpha)
    }

    public var description: String {
        String(format: "UIColor(red: %.3f, green: %.3f, blue: %.3f, alpha: %.3f)", Double(red), Double(green), Double(blue), Double(alpha))
    }

    /// The colour as the canvas takes it.
    public var renderColor: RenderColor {
        RenderColor(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
    }

    private convenience init(_ r: Int, _ g: Int, _ b: Int) {
        self.init(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: 1)
    }

    // UIKit's fixed colours.
    public static let black = UIColor(white: 0, alpha: 1)
    public static let darkGray = UIColor(white: 1.0 / 3, alpha: 1)
    public static let lightGray = UIColor(white: 2.0 / 3, alpha: 1)
    public static let white = UIColor(white: 1, alpha: 1)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
    public static let clear = UIColor(white: 0, alpha: 0)

    // UIKit's system colours (light appearance).
    public static let systemRed = UIColor(255, 59, 48)
    public static let systemOrange = UIColor(255, 149, 0)
    public static let systemYellow = UIColor(255, 204, 0)
    public static let systemGreen = UIColor(52, 199, 89)
    public static let systemMint = UIColor(0, 199, 190)
    public static let systemTeal = UIColor(48, 176, 199)
    public static let systemCyan = UIColor(50, 173, 230)
    public static let systemBlue = UIColor(0, 122, 255)
    public static let systemIndigo = UIColor(88, 86, 214)
    public static let systemPurple = UIColor(175, 82, 222)
    public static let systemPink = UIColor(255, 45, 85)
    public static let systemBrown = UIColor(162, 132, 94)
    public static let systemGray = UIColor(142, 142, 147)
    public static let tintColor = systemBlue
    public static let label = black
}

/// AppKit's name for ``UIColor``.
public typealias NSColor = UIColor

/// SwiftUI's `Color`, for the `Map { … }` content builder: `.tint(.mint)`, `.stroke(.blue, lineWidth: 5)`,
/// `.foregroundStyle(.orange.opacity(0.75))`. Named colours have SwiftUI's light-appearance values.
///
/// Differs from SwiftUI: a plain sRGB value that does not adapt to a dark appearance.
public struct Color: Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, opacity: Double

    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
        (self.red, self.green, self.blue, self.opacity) = (clamp(red), clamp(green), clamp(blue), clamp(opacity))
    }

    public init(white: Double, opacity: Double = 1) {
        self.init(red: white, green: white, blue: white, opacity: opacity)
    }

    /// The SwiftUI colour of a UIKit colour.
    public init(_ color: UIColor) {
        self.init(red: Double(color.red), green: Double(color.green), blue: Double(color.blue), opacity: Double(color.alpha))
    }

    /// The same colour at `opacity` times its opacity.
    public func opacity(_ opacity: Double) -> Color {
        Color(red: red, green: green, blue: blue, opacity: self.opacity * opacity)
    }

    var uiColor: UIColor { UIColor(red: red, green: green, blue: blue, alpha: opacity) }
    var renderColor: RenderColor { RenderColor(red: red, green: green, blue: blue, alpha: opacity) }

    public static let red = Color(UIColor.systemRed)
    public static let orange = Color(UIColor.systemOrange)
    public static let yellow = Color(UIColor.systemYellow)
    public static let green = Color(UIColor.systemGreen)
    public static let mint = Color(UIColor.systemMint)
    public static let teal = Color(UIColor.systemTeal)
    public static let cyan = Color(UIColor.systemCyan)
    public static let blue = Color(UIColor.systemBlue)
    public static let indigo = Color(UIColor.systemIndigo)
    public static let purple = Color(UIColor.systemPurple)
    public static let pink = Color(UIColor.systemPink)
    public static let brown = Color(UIColor.systemBrown)
    public static let gray = Color(UIColor.systemGray)
    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let clear = Color(white: 0, opacity: 0)
    /// The accent colour: blue, as SwiftUI's default.
    public static let accentColor = blue
}
