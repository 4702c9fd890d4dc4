import Foundation

/// A value that can be read and written elsewhere (SwiftUI's `Binding`), for the `position:`
/// initialiser.
///
/// Differs from SwiftUI: ``Map`` reads it once, when it is made, and never writes it back (a
/// headless map is moved only by code).
public struct Binding<Value> {
    let get: () -> Value
    let set: (Value) -> Void
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { (self.get, self.set) = (get, set) }
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
}
