// MapKit for SwiftUI's map content, headless: `Map { Marker(…); MapPolyline(…) }` builds a scene
// that renders to an image (`try await map.snapshot(size:)`) through the same drawing as
// MKMapSnapshotter, with the overlays and annotations drawn in. One concept a file in this folder.

import Foundation

/// Something shown on a map (SwiftUI's `MapContent`): the built-in markers, annotations and
/// overlays, or your own type whose ``body`` is made of them. Unlike SwiftUI's, it is not bound
/// to the main actor: headless maps are built and rendered on any thread.
public protocol MapContent {
    associatedtype Body: MapContent
    @MapContentBuilder var body: Body { get }
}

extension Never: MapContent {
    public var body: Never { return fatalError("Never has no body") }
}

/// Content that the scene reads directly rather than through its body.
protocol PrimitiveMapContent {
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment)
}

extension PrimitiveMapContent {
    public var body: Never { return fatalError("\(Self.self) is drawn directly") }
}

/// Collects any content: primitives directly, other content through its body.
func collect(_ content: any MapContent, into scene: inout MapScene, _ environment: MapContentEnvironment) {
    if let primitive = content as? PrimitiveMapContent {
        primitive.collect(into: &scene, environment)
    } else {
        collect(content.body, into: &scene, environment)
    }
}

/// Builds map content from a list with `if`, `if let`, `switch` and `for` (SwiftUI's
/// `MapContentBuilder`).
@resultBuilder
public enum MapContentBuilder {
    public static func buildExpression(_ content: any MapContent) -> [any MapContent] { [content] }
    public static func buildBlock() -> [any MapContent] { [] }
    public static func buildBlock(_ parts: [any MapContent]...) -> [any MapContent] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [any MapContent]?) -> [any MapContent] { part ?? [] }
    public static func buildEither(first: [any MapContent]) -> [any MapContent] { first }
    public static func buildEither(second: [any MapContent]) -> [any MapContent] { second }
    public static func buildArray(_ parts: [[any MapContent]]) -> [any MapContent] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [any MapContent]) -> [any MapContent] { part }
    public static func buildFinalResult(_ parts: [any MapContent]) -> TupleMapContent { TupleMapContent(parts) }
}

/// Several pieces of content (SwiftUI's `TupleMapContent`).
public struct TupleMapContent: MapContent, PrimitiveMapContent {
    public let value: [any MapContent]
    public init(_ value: [any MapContent]) { self.value = value }
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        for item in value { OpenMapKit.collect(item, into: &scene, environment) }
    }
}

/// No content (SwiftUI's `EmptyMapContent`).
public struct EmptyMapContent: MapContent, PrimitiveMapContent {
    public init() {}
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {}
}

/// Content of any type (SwiftUI's `AnyMapContent`).
public struct AnyMapContent: MapContent, PrimitiveMapContent {
    let base: any MapContent
    public init(_ base: some MapContent) { self.base = base }
    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        OpenMapKit.collect(base, into: &scene, environment)
    }
}

/// Content made for each element of a collection (SwiftUI's `ForEach` in a map).
public struct ForEach<Data: RandomAccessCollection, ID: Hashable>: MapContent, PrimitiveMapContent {
    public let data: Data
    let content: (Data.Element) -> any MapContent

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @MapContentBuilder content: @escaping (Data.Element) -> TupleMapContent) {
        self.data = data
        self.content = content
    }

    func collect(into scene: inout MapScene, _ environment: MapContentEnvironment) {
        for element in data { OpenMapKit.collect(content(element), into: &scene, environment) }
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @MapContentBuilder content: @escaping (Data.Element) -> TupleMapContent) {
        self.init(data, id: \.id, content: content)
    }
}
