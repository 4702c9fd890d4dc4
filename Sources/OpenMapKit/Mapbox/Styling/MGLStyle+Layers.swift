// Mapbox's runtime styling on MGLStyle: layers (listing, adding, inserting, removing), images,
// the style's transition, label localization and light. Every change edits the style document's
// JSON, which is checked with MapLibre's validator and then drawn on the map view's next frame.

import Foundation
import MapStyle

extension MGLStyle {
    // MARK: The document's JSON

    /// The document's root object.
    var rootObject: JSONObject { document.json.objectValue ?? JSONObject() }

    /// The JSON of the document's layer `identifier`.
    func layerObject(_ identifier: String) -> JSONObject? {
        rootObject["layers"]?.arrayValue?.lazy.compactMap(\.objectValue).first { $0["id"]?.stringValue == identifier }
    }

    /// Changes the document's JSON and loads it again (checked with MapLibre's validator; the map
    /// view draws the new document on its next frame). The document is unchanged when it throws.
    func editRoot(_ edit: (inout JSONObject) throws(MGLStyleError) -> Void) throws(MGLStyleError) {
        var root = rootObject
        try edit(&root)
        var changed: Style
        do { changed = try Style(json: .object(root)) } catch {
            throw MGLStyleError(.invalidValue, error.description)
        }
        changed.images = document.images
        document = changed
    }

    /// Changes the document's layers.
    func editLayers(_ edit: (inout [JSONValue]) throws(MGLStyleError) -> Void) throws(MGLStyleError) {
        try editRoot { root throws(MGLStyleError) in
            var layers = root["layers"]?.arrayValue ?? []
            try edit(&layers)
            root.set("layers", .array(layers))
        }
    }

    /// Replaces the document's layer of `object`'s identifier.
    func replaceLayerObject(_ object: JSONObject) throws(MGLStyleError) {
        let identifier = object["id"]?.stringValue
        try editLayers { layers in
            if let index = layers.firstIndex(where: { $0["id"]?.stringValue == identifier }) { layers[index] = .object(object) }
        }
    }

    /// The wrapper of the document's layer `identifier`, made once and kept while it is in the style.
    func layerWrapper(_ identifier: String, type: StyleLayer.Kind) -> MGLStyleLayer? {
        if let wrapper = layerWrappers[identifier] { return wrapper }
        guard let object = layerObject(identifier) else { return nil }
        let wrapper = MGLStyleLayer.wrapper(of: object, type: type, style: self)
        layerWrappers[identifier] = wrapper
        return wrapper
    }

    // MARK: Layers

    /// The style's layers, bottom (drawn first) to top. Setting it replaces them: layers left out
    /// are removed, new ones added (each new layer's source must be in the style).
    ///
    /// Differs from Mapbox: setting a list the style refuses (a duplicate identifier, a layer of
    /// another style, a layer whose source is missing) stops the program with the reason.
    public var layers: [MGLStyleLayer] {
        get { document.layers.compactMap { layerWrapper($0.id, type: $0.type) } }
        set {
            do { try setLayers(newValue) } catch { preconditionFailure("MGLStyle.layers: \(error.reason)") }
        }
    }

    private func setLayers(_ newLayers: [MGLStyleLayer]) throws(MGLStyleError) {
        var seen = Set<String>()
        var objects: [JSONValue] = []
        for layer in newLayers {
            guard seen.insert(layer.identifier).inserted else {
                throw MGLStyleError(.redundantLayerIdentifier, "two layers are named \"\(layer.identifier)\"")
            }
            if layer.style != nil, layer.style !== self, layer.isAttached {
                throw MGLStyleError(.redundantLayer, "layer \"\(layer.identifier)\" is in another style")
            }
            objects.append(.object(layer.object))
        }
        let old = layerWrappers
        let oldObjects = old.mapValues(\.object)
        try editLayers { $0 = objects }
        for (identifier, wrapper) in old where !seen.contains(identifier) {
            wrapper.detachedObject = oldObjects[identifier] ?? wrapper.detachedObject
            wrapper.style = nil
            layerWrappers[identifier] = nil
        }
        for layer in newLayers {
            layer.detachedObject = layer.object
            layer.style = self
            layerWrappers[layer.identifier] = layer
        }
    }

    /// The layer named `identifier`; nil when the style has none. Asking twice gives the same
    /// object while the layer stays in the style.
    public func layer(withIdentifier identifier: String) -> MGLStyleLayer? {
        guard let layer = document.layer(identifier) else { return nil }
        return layerWrapper(identifier, type: layer.type)
    }

    /// Adds `layer` on top of the others.
    ///
    /// Differs from Mapbox: where Mapbox raises (`MGLRedundantLayerIdentifierException` for an
    /// identifier already in the style, `MGLRedundantLayerException` for a layer already in a
    /// style) the program stops with the reason, as it does for a layer whose source is not in
    /// the style (add the source first) or that the style validator refuses;
    /// ``addLayer(_:error:)`` throws instead.
    public func addLayer(_ layer: MGLStyleLayer) {
        trap { () throws(MGLStyleError) in try addLayer(layer, error: ()) }
    }

    /// Adds `layer` on top of the others, throwing an ``MGLStyleError`` where ``addLayer(_:)``
    /// stops the program (an OpenMapKit addition).
    public func addLayer(_ layer: MGLStyleLayer, error: ()) throws(MGLStyleError) {
        try insert(layer, at: document.layers.count)
    }

    /// Inserts `layer` at `index` of ``layers`` (0 is the bottom; the count of layers is the top).
    ///
    /// Differs from Mapbox: stops the program with the reason where Mapbox raises (see
    /// ``addLayer(_:)``, and an index beyond the layers); ``insertLayer(_:at:error:)`` throws.
    public func insertLayer(_ layer: MGLStyleLayer, at index: UInt) {
        trap { () throws(MGLStyleError) in try insertLayer(layer, at: index, error: ()) }
    }

    /// Inserts `layer` at `index`, throwing an ``MGLStyleError`` where ``insertLayer(_:at:)``
    /// stops the program (an OpenMapKit addition).
    public func insertLayer(_ layer: MGLStyleLayer, at index: UInt, error: ()) throws(MGLStyleError) {
        guard index <= UInt(document.layers.count) else {
            throw MGLStyleError(.indexOutOfRange, "index \(index) is beyond the style's \(document.layers.count) layers")
        }
        try insert(layer, at: Int(index))
    }

    /// Inserts `layer` just below `sibling`, a layer of the style.
    ///
    /// Differs from Mapbox: stops the program with the reason where Mapbox raises (see
    /// ``addLayer(_:)``, and a sibling not in the style); ``insertLayer(_:below:error:)`` throws.
    public func insertLayer(_ layer: MGLStyleLayer, below sibling: MGLStyleLayer) {
        trap { () throws(MGLStyleError) in try insertLayer(layer, below: sibling, error: ()) }
    }

    /// Inserts `layer` just below `sibling`, throwing an ``MGLStyleError`` where
    /// ``insertLayer(_:below:)`` stops the program (an OpenMapKit addition).
    public func insertLayer(_ layer: MGLStyleLayer, below sibling: MGLStyleLayer, error: ()) throws(MGLStyleError) {
        try insert(layer, at: try index(of: sibling))
    }

    /// Inserts `layer` just above `sibling`, a layer of the style.
    ///
    /// Differs from Mapbox: stops the program with the reason where Mapbox raises (see
    /// ``addLayer(_:)``, and a sibling not in the style); ``insertLayer(_:above:error:)`` throws.
    public func insertLayer(_ layer: MGLStyleLayer, above sibling: MGLStyleLayer) {
        trap { () throws(MGLStyleError) in try insertLayer(layer, above: sibling, error: ()) }
    }

    /// Inserts `layer` just above `sibling`, throwing an ``MGLStyleError`` where
    /// ``insertLayer(_:above:)`` stops the program (an OpenMapKit addition).
    public func insertLayer(_ layer: MGLStyleLayer, above sibling: MGLStyleLayer, error: ()) throws(MGLStyleError) {
        try insert(layer, at: try index(of: sibling) + 1)
    }

    /// Removes `layer` from the style; nothing happens when it is not in the style, as in Mapbox.
    /// The layer object keeps its properties and can be added again.
    public func removeLayer(_ layer: MGLStyleLayer) {
        guard layer.style === self, layer.isAttached else { return }
        let object = layer.object
        trap { () throws(MGLStyleError) in
            try editLayers { layers in layers.removeAll { $0["id"]?.stringValue == layer.identifier } }
        }
        layer.detachedObject = object
        layer.style = nil
        layerWrappers[layer.identifier] = nil
        unlocalizedTextFields?[layer.identifier] = nil
    }

    private func index(of sibling: MGLStyleLayer) throws(MGLStyleError) -> Int {
        guard sibling.style === self, sibling.isAttached, let index = document.layers.firstIndex(where: { $0.id == sibling.identifier }) else {
            throw MGLStyleError(.notInStyle, "layer \"\(sibling.identifier)\" is not in the style")
        }
        return index
    }

    private func insert(_ layer: MGLStyleLayer, at index: Int) throws(MGLStyleError) {
        if layer.isAttached {
            throw MGLStyleError(.redundantLayer, "layer \"\(layer.identifier)\" is already in a style; remove it first")
        }
        if document.layer(layer.identifier) != nil || layerObject(layer.identifier) != nil {
            throw MGLStyleError(.redundantLayerIdentifier, "the style already has a layer named \"\(layer.identifier)\"")
        }
        let object = layer.detachedObject
        if let source = object["source"]?.stringValue, document.source(source) == nil {
            throw MGLStyleError(.notInStyle, "layer \"\(layer.identifier)\": the style has no source \"\(source)\" (add the source before its layers)")
        }
        try editLayers { layers in layers.insert(.object(object), at: min(index, layers.count)) }
        layer.style = self
        layerWrappers[layer.identifier] = layer
        if localizesLabels, layer.layerType == "symbol" { try localize(layerIdentifiers: [layer.identifier]) }
    }

    /// Runs a change that Mapbox's API does not let fail, stopping with the reason if it does.
    func trap(_ change: () throws(MGLStyleError) -> Void, function: String = #function) {
        do { try change() } catch { preconditionFailure("MGLStyle.\(function): \(error.reason)") }
    }

    // MARK: Images

    /// Adds `image` to the style under `name`, or replaces the image of that name, for
    /// `iconImageName` and the `*Pattern` properties; it wins over a sprite image of the same
    /// name. Drawn at the image's scale (a 2× image of 64 pixels is 32 points).
    ///
    /// Differs from Mapbox: an image cannot be stretchable (no cap insets) or a template
    /// (`renderingMode` is not read): give an SDF icon's colour with `iconColor` instead.
    public func setImage(_ image: UIImage, forName name: String) {
        guard let png = image.pngData() else { preconditionFailure("MGLStyle.setImage(_:forName:): the image \"\(name)\" cannot be encoded") }
        document.images[name] = StyleImage(png: [UInt8](png), pixelRatio: Double(image.scale))
    }

    /// The image added under `name` with ``setImage(_:forName:)``; nil when there is none.
    ///
    /// Differs from Mapbox: the images of the style's sprite are not returned, only the ones
    /// added at run time.
    public func image(forName name: String) -> UIImage? {
        guard let image = document.images[name] else { return nil }
        return UIImage(data: Data(image.png), scale: CGFloat(image.pixelRatio))
    }

    /// Removes the image added under `name`; nothing happens when there is none.
    public func removeImage(forName name: String) {
        guard document.images[name] != nil else { return }
        document.images[name] = nil
    }

    // MARK: Transitions

    /// How paint changes animate by default (the document's `transition`); 0.3 s without a delay
    /// when the document gives none. A layer's own `…Transition` (e.g.
    /// ``MGLFillStyleLayer/fillColorTransition``) wins over it.
    ///
    /// Paint changed in a style on screen blends from what the last frame showed into the new
    /// value, from the next frame on, on the map view's clock; ``MGLMapView/isAnimating`` is true
    /// until it ends. Snapshots draw the new values.
    public var transition: MGLTransition {
        get {
            let transition = document.transition ?? StyleTransition()
            return MGLTransition(duration: transition.duration / 1000, delay: transition.delay / 1000)
        }
        set { trap { () throws(MGLStyleError) in try editRoot { $0.set("transition", newValue.json) } } }
    }

    /// Whether labels fade in and out as they are placed (Mapbox's default is true).
    ///
    /// Differs from Mapbox: unsupported. OpenMapKit places labels for each still frame without
    /// fading, so the value only reads back.
    public var performsPlacementTransitions: Bool {
        get { placementTransitions }
        set { placementTransitions = newValue }
    }

    // MARK: Localization

    /// Whether labels show names in the user's preferred language (Mapbox's `localizesLabels`):
    /// setting it rewrites the `text-field` of the style's symbol layers so that a feature's
    /// `name` reads `name:<language>` first (the first of `Locale.preferredLanguages`), falling
    /// back to `name`; clearing it restores the text fields as they were. Symbol layers added
    /// while it is set are localized too.
    ///
    /// Differs from Mapbox: every symbol layer that shows `name` is localized, not only those of
    /// Mapbox Streets sources (OpenMapKit's tiles carry `name:xx` for every language in the data).
    public var localizesLabels: Bool {
        get { unlocalizedTextFields != nil }
        set {
            guard newValue != localizesLabels else { return }
            if newValue {
                unlocalizedTextFields = [:]
                trap { () throws(MGLStyleError) in try localize(layerIdentifiers: document.layers.filter { $0.type == .symbol }.map(\.id)) }
            } else {
                let saved = unlocalizedTextFields ?? [:]
                unlocalizedTextFields = nil
                trap { () throws(MGLStyleError) in
                    try editLayers { layers in
                        for index in layers.indices {
                            guard var object = layers[index].objectValue, let id = object["id"]?.stringValue, let original = saved[id] else { continue }
                            var layout = object["layout"]?.objectValue ?? JSONObject()
                            layout.setOrRemove("text-field", original)
                            object.setOrRemove("layout", layout.count == 0 ? nil : .object(layout))
                            layers[index] = .object(object)
                        }
                    }
                }
            }
        }
    }

    /// Localizes labels into `locale`'s language (MapLibre's `localizeLabels(into:)`): as
    /// ``localizesLabels`` with that language; nil for the user's preferred language.
    public func localizeLabels(into locale: Locale?) {
        localizesLabels = false
        localizationLanguage = locale.flatMap { MGLStyle.languageCode(of: $0.identifier) }
        localizesLabels = true
    }

    /// The language of localized labels.
    var labelLanguage: String {
        localizationLanguage ?? Locale.preferredLanguages.first.flatMap(MGLStyle.languageCode(of:)) ?? "en"
    }

    static func languageCode(of identifier: String) -> String? {
        let code = identifier.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)
        return code?.isEmpty == false ? code : nil
    }

    /// Rewrites the text fields of the named symbol layers, remembering the originals.
    func localize(layerIdentifiers: [String]) throws(MGLStyleError) {
        guard let spec = StyleReference.property("text-field", in: "layout_symbol") else { return }
        let ids = Set(layerIdentifiers)
        let language = labelLanguage
        var saved = unlocalizedTextFields ?? [:]
        try editLayers { layers in
            for index in layers.indices {
                guard var object = layers[index].objectValue, let id = object["id"]?.stringValue, ids.contains(id),
                      object["type"]?.stringValue == "symbol", saved[id] == nil else { continue }
                let original = object["layout"]?["text-field"]
                guard let original else { continue }
                let localized = MGLStyle.localized(StyleProperty.expressionJSON(original, spec: spec), language: language)
                guard localized != StyleProperty.expressionJSON(original, spec: spec) else { continue }
                saved[id] = .some(original)
                var layout = object["layout"]?.objectValue ?? JSONObject()
                layout.set("text-field", localized)
                object.set("layout", .object(layout))
                layers[index] = .object(object)
            }
        }
        unlocalizedTextFields = saved
    }

    /// `["get", "name"]` → `["coalesce", ["get", "name:xx"], ["get", "name"]]`, everywhere but in literals.
    static func localized(_ json: JSONValue, language: String) -> JSONValue {
        guard case .array(let items) = json, !items.isEmpty else { return json }
        if items == [.string("get"), .string("name")] {
            return .array([.string("coalesce"), .array([.string("get"), .string("name:" + language)]), json])
        }
        if items.first == .string("literal") { return json }
        return .array(items.map { localized($0, language: language) })
    }

    // MARK: Light

    /// The light that shades extruded buildings (the document's `light`).
    ///
    /// Differs from Mapbox: a value (reading gives a copy; set it back to apply a change), and
    /// OpenMapKit's renderer reads its colour, intensity and position for the extrusions' roofs.
    public var light: MGLLight {
        get { MGLLight(object: document.json["light"]?.objectValue ?? JSONObject()) }
        set { trap { () throws(MGLStyleError) in try editRoot { $0.setOrRemove("light", newValue.object.count == 0 ? nil : .object(newValue.object)) } } }
    }
}

/// The light of a style (Mapbox's `MGLLight`; MapLibre's `light`): where it comes from, its
/// colour and intensity, each an expression as layer properties are.
///
/// Differs from Mapbox: a structure read from and written back to ``MGLStyle/light``; `position`
/// is an expression of the `[radial, azimuthal, polar]` array, not an `MGLSphericalPosition`.
/// A value of the wrong type stops the program with the reason.
public struct MGLLight {
    /// The `light` object.
    var object: JSONObject

    init(object: JSONObject) { self.object = object }

    /// A light with the specification's defaults.
    public init() { object = JSONObject() }

    private func value(_ name: String) -> NSExpression! {
        guard let spec = StyleReference.property(name, in: "light"), let value = object[name] ?? spec.defaultValue else { return nil }
        return MGLStyleLayer.expression(for: value, spec: spec)
    }

    private mutating func setValue(_ expression: NSExpression?, _ name: String) {
        guard let expression else { object.setOrRemove(name, nil); return }
        do {
            let json = try expression.mglJSON()
            let problems = Style.validate(.object(JSONObject([("version", .number(8)), ("sources", .object(JSONObject())), ("layers", .array([])),
                                                              ("light", .object(JSONObject([(name, json)])))])))
            if let problem = problems.first(where: { $0.severity == .error }) { preconditionFailure("MGLLight.\(name): \(problem.message)") }
            object.set(name, json)
        } catch {
            preconditionFailure("MGLLight.\(name): \(error)")
        }
    }

    /// Whether the light turns with the map (`map`) or stays with the viewport (`viewport`, the default).
    public var anchor: NSExpression! {
        get { value("anchor") }
        set { setValue(newValue, "anchor") }
    }
    /// Where the light is: `[radial, azimuthal, polar]`, default `[1.15, 210, 30]`.
    public var position: NSExpression! {
        get { value("position") }
        set { setValue(newValue, "position") }
    }
    /// The light's colour (default white).
    public var color: NSExpression! {
        get { value("color") }
        set { setValue(newValue, "color") }
    }
    /// How strong the light is, 0 to 1 (default 0.5).
    public var intensity: NSExpression! {
        get { value("intensity") }
        set { setValue(newValue, "intensity") }
    }
}
