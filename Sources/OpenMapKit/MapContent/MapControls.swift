import Foundation

/// A map control (SwiftUI's compass, scale, buttons…). Controls are interactive UI, so headless
/// maps accept them, for source compatibility, and draw none.
public protocol MapControl {}
/// SwiftUI's `MapCompass`: accepted, not drawn (see ``MapControl``).
public struct MapCompass: MapControl { public init() {} }
/// SwiftUI's `MapScaleView`: accepted, not drawn (see ``MapControl``).
public struct MapScaleView: MapControl { public init() {} }
/// SwiftUI's `MapUserLocationButton`: accepted, not drawn (see ``MapControl``).
public struct MapUserLocationButton: MapControl { public init() {} }
/// SwiftUI's `MapPitchToggle`: accepted, not drawn (see ``MapControl``).
public struct MapPitchToggle: MapControl { public init() {} }
/// SwiftUI's `MapZoomStepper`: accepted, not drawn (see ``MapControl``).
public struct MapZoomStepper: MapControl { public init() {} }
/// SwiftUI's `MapPitchSlider`: accepted, not drawn (see ``MapControl``).
public struct MapPitchSlider: MapControl { public init() {} }

/// Builds a list of map controls (SwiftUI's `MapControlBuilder`).
@resultBuilder
public enum MapControlBuilder {
    public static func buildExpression(_ control: any MapControl) -> [any MapControl] { [control] }
    public static func buildBlock(_ parts: [any MapControl]...) -> [any MapControl] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any MapControl]?) -> [any MapControl] { part ?? [] }
    public static func buildEither(first: [any MapControl]) -> [any MapControl] { first }
    public static func buildEither(second: [any MapControl]) -> [any MapControl] { second }
}

extension Map {
    /// The controls shown over the map; headless maps draw none (see ``MapControl``).
    public func mapControls(@MapControlBuilder _ content: () -> [any MapControl]) -> Map { self }
}
