// Mapbox's runtime styling on MGLStyle: sources (listing, adding, removing). Every change edits
// the style document's JSON and is drawn on the map view's next frame.

import Foundation
import MapStyle

extension MGLStyle {
    /// The JSON of the document's source `identifier`.
    func sourceObject(_ identifier: String) -> JSONObject? {
        rootObject["sources"]?[identifier]?.objectValue
    }

    /// Replaces the document's source `identifier`.
    func replaceSourceObject(_ identifier: String, _ object: JSONObject) throws(MGLStyleError) {
        try editRoot { root in
            var sources = root["sources"]?.objectValue ?? JSONObject()
            sources.set(identifier, .object(object))
            root.set("sources", .object(sources))
        }
    }

    /// The wrapper of the document's source `identifier`, made once and kept while it is in the style.
    func sourceWrapper(_ identifier: String) -> MGLSource? {
        if let wrapper = sourceWrappers[identifier] { return wrapper }
        guard let object = sourceObject(identifier) else { return nil }
        let wrapper = MGLSource.wrapper(identifier: identifier, object: object, style: self)
        sourceWrappers[identifier] = wrapper
        return wrapper
    }

    /// The style's sources. Setting it replaces them: sources left out are removed (a source that
    /// layers still use stays), new ones added.
    ///
    /// Differs from Mapbox: adding a source the style refuses (a duplicate identifier, a source
    /// of another style) stops the program with the reason.
    public var sources: Set<MGLSource> {
        get { Set(document.sources.compactMap { sourceWrapper($0.id) }) }
        set {
            for source in sources where !newValue.contains(source) { removeSource(source) }
            for source in newValue where !(source.style === self && source.isAttached) { addSource(source) }
        }
    }

    /// The source named `identifier`; nil when the style has none. Asking twice gives the same
    /// object while the source stays in the style.
    public func source(withIdentifier identifier: String) -> MGLSource? {
        sourceWrapper(identifier)
    }

    /// Adds `source` to the style, for layers to draw.
    ///
    /// Differs from Mapbox: where Mapbox raises (`MGLRedundantSourceIdentifierException` for an
    /// identifier already in the style, `MGLRedundantSourceException` for a source already in a
    /// style) the program stops with the reason; ``addSource(_:error:)`` throws instead.
    public func addSource(_ source: MGLSource) {
        trap { () throws(MGLStyleError) in try addSource(source, error: ()) }
    }

    /// Adds `source`, throwing an ``MGLStyleError`` where ``addSource(_:)`` stops the program (an
    /// OpenMapKit addition).
    public func addSource(_ source: MGLSource, error: ()) throws(MGLStyleError) {
        if source.isAttached {
            throw MGLStyleError(.redundantSource, "source \"\(source.identifier)\" is already in a style; remove it first")
        }
        if sourceObject(source.identifier) != nil {
            throw MGLStyleError(.redundantSourceIdentifier, "the style already has a source named \"\(source.identifier)\"")
        }
        try replaceSourceObject(source.identifier, source.detachedObject)
        source.style = self
        sourceWrappers[source.identifier] = source
        (source as? MGLImageSource)?.publishImage()
    }

    /// Removes `source` from the style. As in Mapbox, a source that layers of the style use is
    /// not removed (``removeSource(_:error:)`` says why), and a source not in the style is
    /// ignored. The source object keeps its content and can be added again.
    public func removeSource(_ source: MGLSource) {
        try? removeSource(source, error: ())
    }

    /// Removes `source` from the style, throwing an ``MGLStyleError`` with code
    /// ``MGLStyleError/Code/sourceIsInUse`` when layers of the style use it (Mapbox's
    /// `MGLErrorCodeSourceIsInUseCannotRemove`) and ``MGLStyleError/Code/notInStyle`` when it is
    /// not in the style.
    ///
    /// Differs from Mapbox: throws an ``MGLStyleError`` rather than an `NSError` of `MGLErrorDomain`.
    public func removeSource(_ source: MGLSource, error: ()) throws(MGLStyleError) {
        guard source.style === self, source.isAttached else {
            throw MGLStyleError(.notInStyle, "source \"\(source.identifier)\" is not in the style")
        }
        let users = document.layers.filter { $0.source == source.identifier }.map(\.id)
        guard users.isEmpty else {
            throw MGLStyleError(.sourceIsInUse, "source \"\(source.identifier)\" is used by layers \(users.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
        let object = source.object
        try editRoot { root in
            let sources = root["sources"]?.objectValue ?? JSONObject()
            root.set("sources", .object(JSONObject(sources.members.filter { $0.key != source.identifier })))
        }
        source.detachedObject = object
        source.style = nil
        sourceWrappers[source.identifier] = nil
        document.sourceImages[source.identifier] = nil
    }
}
