import Foundation

/// A value that can be read and written elsewhere (SwiftUI's `Binding`): ``State``'s `$value`,
/// or one made from a getter and a setter.
///
/// A ``MapHost`` reads a map's position and selection bindings before each frame and writes them
/// back as the person moves the map and selects content; a snapshot reads them once.
/// As a property wrapper (`@Binding var position: MapCameraPosition`) it lets a view-like struct
/// read and write a value its owner keeps, as SwiftUI's does.
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value> {
    let get: () -> Value
    let set: (Value) -> Void
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { (self.get, self.set) = (get, set) }
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
    /// The binding itself (`$position` inside a struct holding `@Binding var position`).
    public var projectedValue: Binding<Value> { self }
    /// A binding given as `$value`.
    public init(projectedValue: Binding<Value>) { self = projectedValue }
}

extension Binding {
    /// A binding to a value the binding's value holds (SwiftUI's `$model.property`).
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { self.wrappedValue[keyPath: keyPath] }, set: { self.wrappedValue[keyPath: keyPath] = $0 })
    }
}
