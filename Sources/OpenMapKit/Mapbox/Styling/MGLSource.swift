// Mapbox's MGLSource: the base of the source classes, and the storage they share. A source made
// in code keeps its own MapLibre source JSON; a source of a style reads and writes the style
// document's source, so a change (a shape source's new shape) is drawn on the next frame.

import Foundation
import MapStyle

/// Where a style's data comes from (Mapbox's `MGLSource`): use one of the concrete classes
/// (``MGLShapeSource``, ``MGLVectorTileSource``, ``MGLRasterTileSource``, ``MGLRasterDEMSource``,
/// ``MGLImageSource``) and add it to a style with ``MGLStyle/addSource(_:)`` before the layers
/// that draw it.
///
/// Identity: as in Mapbox, the source objects of a style are wrappers made on demand; a style
/// keeps the one it made for each identifier while that source is in the style, so asking twice
/// gives the same object.
///
/// Differs from Mapbox: there is no public initialiser of the abstract class (a source needs a
/// type); a source of a type Mapbox's SDK has no class for (MapLibre's `video`) is an
/// `MGLSource` of that type.
public class MGLSource: NSObject {
    /// The identifier, unique within a style.
    public let identifier: String
    /// The source's JSON while it is not in a style (and a copy of it once it was removed).
    var detachedObject: JSONObject
    /// The style holding the source, while it is in one.
    weak var style: MGLStyle?

    init(identifier: String, object: JSONObject) {
        self.identifier = identifier
        detachedObject = object
        super.init()
    }

    required init(wrapping identifier: String, object: JSONObject) {
        self.identifier = identifier
        detachedObject = object
        super.init()
    }

    /// The wrapper of a document source.
    static func wrapper(identifier: String, object: JSONObject, style: MGLStyle) -> MGLSource {
        let type: MGLSource.Type = switch object["type"]?.stringValue {
        case "geojson": MGLShapeSource.self
        case "vector": MGLVectorTileSource.self
        case "raster": MGLRasterTileSource.self
        case "raster-dem": MGLRasterDEMSource.self
        case "image": MGLImageSource.self
        default: MGLSource.self
        }
        let source = type.init(wrapping: identifier, object: object)
        source.style = style
        return source
    }

    /// Whether the source is in a style now.
    var isAttached: Bool { style?.sourceWrappers[identifier] === self }

    /// The source's JSON: the style document's while it is in a style.
    var object: JSONObject {
        if isAttached, let style, let object = style.sourceObject(identifier) { return object }
        return detachedObject
    }

    /// Changes the source's JSON: in the style's document (checked and drawn) or its own; stops
    /// with the reason if the style refuses it.
    func update(_ member: String, _ edit: (inout JSONObject) -> Void) {
        var changed = object
        edit(&changed)
        if isAttached, let style {
            do { try style.replaceSourceObject(identifier, changed) } catch {
                preconditionFailure("\(type(of: self)).\(member) of source \"\(identifier)\": \(error.reason)")
            }
        } else {
            detachedObject = changed
        }
    }

    /// The source's identifier and type.
    public override var description: String { "<\(type(of: self)) identifier=\"\(identifier)\">" }
}
