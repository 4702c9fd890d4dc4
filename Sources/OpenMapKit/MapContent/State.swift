// The two SwiftUI property wrappers map code is written with, so that the trip planner's
// `@State private var position: MapCameraPosition = .automatic` and `Map(position: $position)`
// read on Linux as they do on iOS. There is no SwiftUI view graph here: a `MapHost` evaluates the
// code that makes the `Map` again before each frame, and State's storage is a shared box, so
// every copy of the struct that holds it reads and writes the same value.

import Foundation

/// A value a map's code owns and changes (SwiftUI's `State`); `$value` is a ``Binding`` to it.
///
/// Differs from SwiftUI: the storage is a box shared by every copy of the holding struct (SwiftUI
/// keeps it in the view graph); a ``MapHost`` picks changes up when it next evaluates the map, and
/// changes are not animated. Not thread-safe: read and write it on the thread that runs the host.
@propertyWrapper
public struct State<Value> {
    final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
    let box: Box

    /// A state starting at `value`.
    public init(wrappedValue value: Value) { box = Box(value) }
    /// A state starting at `value` (SwiftUI's `State(initialValue:)`).
    public init(initialValue value: Value) { box = Box(value) }

    /// The value now.
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    /// A binding that reads and writes this state.
    public var projectedValue: Binding<Value> {
        let box = box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }
}

extension State where Value: ExpressibleByNilLiteral {
    /// A state starting at nil.
    public init() { self.init(wrappedValue: nil) }
}

/// SwiftUI's `Namespace`, for ``Map/init(position:bounds:interactionModes:selection:scope:content:)``'s
/// `scope` and ``Map/mapScope(_:)``: each namespace has its own identity.
@propertyWrapper
public struct Namespace {
    /// A namespace's identity.
    public struct ID: Hashable, Sendable {
        let value: UUID
    }
    private let id = ID(value: UUID())
    /// A new namespace.
    public init() {}
    /// The namespace's identity.
    public var wrappedValue: ID { id }
}
