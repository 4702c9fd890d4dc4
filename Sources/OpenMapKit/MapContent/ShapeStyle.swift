import Foundation

/// Whether something is shown (SwiftUI's `Visibility`).
public enum Visibility: Sendable, Hashable { case automatic, visible, hidden }

/// Something that colours an overlay: a ``Color`` or a ``Gradient`` (SwiftUI's `ShapeStyle`).
public protocol ShapeStyle: Sendable {}
extension Color: ShapeStyle {}

// `.stroke(.blue, lineWidth: 5)` and `.foregroundStyle(.purple)` name colours as SwiftUI does.
extension ShapeStyle where Self == Color {
    public static var red: Color { Color.red }
    public static var orange: Color { Color.orange }
    public static var yellow: Color { Color.yellow }
    public static var green: Color { Color.green }
    public static var mint: Color { Color.mint }
    public static var teal: Color { Color.teal }
    public static var cyan: Color { Color.cyan }
    public static var blue: Color { Color.blue }
    public static var indigo: Color { Color.indigo }
    public static var purple: Color { Color.purple }
    public static var pink: Color { Color.pink }
    public static var brown: Color { Color.brown }
    public static var gray: Color { Color.gray }
    public static var black: Color { Color.black }
    public static var white: Color { Color.white }
    public static var clear: Color { Color.clear }
    public static var primary: Color { Color.primary }
    public static var secondary: Color { Color.secondary }
    public static var background: Color { Color.background }
}

/// Colours spread along a line (SwiftUI's `Gradient`); a polyline stroked with it is drawn by
/// ``MKGradientPolylineRenderer``.
public struct Gradient: ShapeStyle, Hashable {
    /// A colour and the fraction of the line's length (0…1) where it is reached (SwiftUI's
    /// `Gradient.Stop`).
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: CGFloat
        public init(color: Color, location: CGFloat) { (self.color, self.location) = (color, location) }
    }
    public var stops: [Stop]
    public init(colors: [Color]) {
        stops = colors.enumerated().map { Stop(color: $1, location: colors.count > 1 ? CGFloat($0) / CGFloat(colors.count - 1) : 0) }
    }
    public init(stops: [Stop]) { self.stops = stops }
}

/// How a line is stroked (SwiftUI's `StrokeStyle`).
public struct StrokeStyle: Hashable, Sendable {
    public var lineWidth: CGFloat
    public var lineCap: CGLineCap
    public var lineJoin: CGLineJoin
    public var miterLimit: CGFloat
    public var dash: [CGFloat]
    public var dashPhase: CGFloat
    public init(lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter, miterLimit: CGFloat = 10,
                dash: [CGFloat] = [], dashPhase: CGFloat = 0) {
        (self.lineWidth, self.lineCap, self.lineJoin, self.miterLimit, self.dash, self.dashPhase) = (lineWidth, lineCap, lineJoin, miterLimit, dash, dashPhase)
    }
}
