// What a map people use declares beyond its content: selection, camera callbacks, camera bounds,
// the gestures allowed, state observers and taps. `Map` only records them; a `MapHost` acts on
// them (MapHost.swift), and a snapshot ignores them.

import Foundation

/// A selection binding of any selection type, read and written through `AnyHashable`.
struct MapSelectionBinding {
    let get: () -> AnyHashable?
    let set: (AnyHashable?) -> Void
    /// Whether a tag can be the selection (it is of the binding's type).
    let accepts: (AnyHashable) -> Bool
    /// Whether the selection is of the map's own features (a `MapFeature?` binding).
    let selectsFeatures: Bool

    init<Value: Hashable>(_ binding: Binding<Value?>) {
        get = { binding.wrappedValue.map(AnyHashable.init) }
        set = { binding.wrappedValue = $0?.base as? Value }
        accepts = { $0.base is Value }
        selectsFeatures = Value.self == MapFeature.self
    }
}

/// When `onMapCameraChange(frequency:_:)` is called (SwiftUI's `MapCameraUpdateFrequency`).
public enum MapCameraUpdateFrequency: Sendable {
    /// Once the camera comes to rest (the default).
    case onEnd
    /// On every frame the camera moves.
    case continuous
}

/// Where the map looks after a camera change (SwiftUI's `MapCameraUpdateContext`).
public struct MapCameraUpdateContext: Sendable {
    /// The camera.
    public let camera: MapCamera
    /// The region shown.
    public let region: MKCoordinateRegion
    /// The map rectangle shown.
    public let rect: MKMapRect
}

/// Limits on where the camera may look (SwiftUI's `MapCameraBounds`): its centre kept inside an
/// area, its distance from the ground between two bounds.
public struct MapCameraBounds: Sendable {
    let centerRect: MKMapRect?
    let minimumDistance: CLLocationDistance?
    let maximumDistance: CLLocationDistance?

    /// The centre kept inside `centerCoordinateBounds`, the distance within the limits given.
    public init(centerCoordinateBounds: MKCoordinateRegion, minimumDistance: CLLocationDistance? = nil,
                maximumDistance: CLLocationDistance? = nil) {
        self.init(rect: MKMapRect(centerCoordinateBounds), minimumDistance: minimumDistance, maximumDistance: maximumDistance)
    }

    /// The centre kept inside `centerCoordinateBounds`, the distance within the limits given.
    public init(centerCoordinateBounds: MKMapRect, minimumDistance: CLLocationDistance? = nil,
                maximumDistance: CLLocationDistance? = nil) {
        self.init(rect: centerCoordinateBounds, minimumDistance: minimumDistance, maximumDistance: maximumDistance)
    }

    /// Only the distance limited.
    public init(minimumDistance: CLLocationDistance? = nil, maximumDistance: CLLocationDistance? = nil) {
        self.init(rect: nil, minimumDistance: minimumDistance, maximumDistance: maximumDistance)
    }

    private init(rect: MKMapRect?, minimumDistance: CLLocationDistance?, maximumDistance: CLLocationDistance?) {
        (centerRect, self.minimumDistance, self.maximumDistance) = (rect, minimumDistance, maximumDistance)
    }
}

/// The gestures a person may move a map with (SwiftUI's `MapInteractionModes`).
public struct MapInteractionModes: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Dragging the map.
    public static let pan = MapInteractionModes(rawValue: 1 << 0)
    /// Zooming (pinching, double taps, the wheel).
    public static let zoom = MapInteractionModes(rawValue: 1 << 1)
    /// Turning the map.
    public static let rotate = MapInteractionModes(rawValue: 1 << 2)
    /// Tilting the map.
    public static let pitch = MapInteractionModes(rawValue: 1 << 3)
    /// Every gesture.
    public static let all: MapInteractionModes = [.pan, .zoom, .rotate, .pitch]
}

/// An `onChange(of:)` on a map: the value seen at the last evaluation and what to do when it
/// changes.
struct MapChangeObserver {
    let value: AnyHashable
    let initial: Bool
    let action: (AnyHashable, AnyHashable) -> Void
}

extension Map {
    /// Calls `action` when the camera changes: once it comes to rest (`.onEnd`, the default) or
    /// on every frame it moves (`.continuous`), in a ``MapHost``.
    public func onMapCameraChange(frequency: MapCameraUpdateFrequency = .onEnd,
                                  _ action: @escaping (MapCameraUpdateContext) -> Void) -> Map {
        var copy = self
        copy.cameraChangeHandlers.append((frequency, action))
        return copy
    }

    /// Calls `action` when the camera changes, without its context.
    public func onMapCameraChange(frequency: MapCameraUpdateFrequency = .onEnd, _ action: @escaping () -> Void) -> Map {
        onMapCameraChange(frequency: frequency) { (_: MapCameraUpdateContext) in action() }
    }

    /// Calls `action` when `value` differs from what it was when the map was last made (SwiftUI's
    /// `onChange(of:initial:_:)`), in a ``MapHost``; with `initial`, also the first time.
    public func onChange<Value: Hashable>(of value: Value, initial: Bool = false, _ action: @escaping () -> Void) -> Map {
        onChange(of: value, initial: initial) { (_: Value, _: Value) in action() }
    }

    /// Calls `action` with the old and new value when `value` changes (see the other form).
    public func onChange<Value: Hashable>(of value: Value, initial: Bool = false,
                                          _ action: @escaping (_ oldValue: Value, _ newValue: Value) -> Void) -> Map {
        var copy = self
        copy.changeObservers.append(MapChangeObserver(value: AnyHashable(value), initial: initial) { old, new in
            guard let old = old.base as? Value, let new = new.base as? Value else { return }
            action(old, new)
        })
        return copy
    }

    /// Calls `action` with the point (in the map's coordinates) of a tap that selects nothing
    /// (SwiftUI's `onTapGesture`), in a ``MapHost``; a ``MapProxy`` turns it into a coordinate.
    public func onTapGesture(perform action: @escaping (CGPoint) -> Void) -> Map {
        var copy = self
        copy.tapAction = action
        return copy
    }

    /// Ties controls made with `scope` to this map (SwiftUI's `mapScope`).
    public func mapScope(_ scope: Namespace.ID) -> Map {
        var copy = self
        copy.scope = scope
        return copy
    }
}
