import Foundation

/// What modifiers pass down to the content they wrap; the innermost modifier wins.
struct MapContentEnvironment {
    var tint: Color?
    var titles = Visibility.automatic
    var foreground: (any ShapeStyle)?
    var stroke: (any ShapeStyle)?
    var strokeStyle: StrokeStyle?
    var level: MKOverlayLevel?
    /// The selection value `.tag` gave (the innermost wins).
    var tag: AnyHashable?
}

/// Content with a modifier applied.
/// (OpenMapKit's type: SwiftUI's modifiers return an opaque `some MapContent`.)
public struct ModifiedMapContent: MapContent, PrimitiveMapContent {
    let content: any MapContent
    let modify: (inout MapContentEnvironment) -> Void
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        var inner = environment
        modify(&inner)
        OpenMapKit.collect(content, into: &scene, inner)
    }
}

extension MapContent {
    private func modified(_ modify: @escaping (inout MapContentEnvironment) -> Void) -> ModifiedMapContent {
        ModifiedMapContent(content: self, modify: modify)
    }

    /// The colour of markers (their balloon).
    public func tint(_ color: Color) -> ModifiedMapContent { modified { $0.tint = color } }
    /// Shows or hides the titles of markers and annotations.
    public func annotationTitles(_ visibility: Visibility) -> ModifiedMapContent { modified { $0.titles = visibility } }
    /// The fill of polygons and circles.
    public func foregroundStyle(_ style: some ShapeStyle) -> ModifiedMapContent { modified { $0.foreground = style } }
    /// The outline of overlays: a colour or gradient, `lineWidth` points wide.
    public func stroke(_ style: some ShapeStyle, lineWidth: CGFloat) -> ModifiedMapContent {
        modified {
            $0.stroke = style
            $0.strokeStyle = StrokeStyle(lineWidth: lineWidth, lineCap: .round, lineJoin: .round)
        }
    }
    /// The outline of overlays with a full stroke style.
    public func stroke(_ style: some ShapeStyle, style strokeStyle: StrokeStyle) -> ModifiedMapContent {
        modified {
            $0.stroke = style
            $0.strokeStyle = strokeStyle
        }
    }
    /// The outline's width, in the default colour.
    public func stroke(lineWidth: CGFloat) -> ModifiedMapContent {
        modified { $0.strokeStyle = StrokeStyle(lineWidth: lineWidth, lineCap: .round, lineJoin: .round) }
    }
    public func strokeStyle(style: StrokeStyle) -> ModifiedMapContent { modified { $0.strokeStyle = style } }
    /// Where overlays sit among the map's layers (default: above roads, below labels).
    public func mapOverlayLevel(level: MKOverlayLevel) -> ModifiedMapContent { modified { $0.level = level } }
    /// The value a map's selection binding takes when a person selects this marker or annotation
    /// in a ``MapHost`` (it must be of the binding's type); content without one cannot be
    /// selected, except a ``Marker/init(item:)`` by an `MKMapItem` selection.
    public func tag(_ tag: some Hashable) -> ModifiedMapContent {
        let value = AnyHashable(tag)
        return modified { $0.tag = value }
    }
}
