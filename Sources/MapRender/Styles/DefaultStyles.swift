import MapGeometry
import MapStyle

/// The styles drawn when the user brings none, for a bundle's OpenMapTiles-schema tiles.
///
/// `standard` is the light street map and `dark` the same map for a dark appearance; `muted` plays
/// the base map down so the caller's overlays stand out (MapKit's muted emphasis); `hybrid` lays
/// roads and labels over imagery tiles the caller supplies, and `imagery` shows the imagery alone.
///
/// Vector tiles come from the source named ``vectorSourceID`` with the tile URL
/// `bundle://{z}/{x}/{y}`, imagery from the raster source ``imagerySourceID`` with the URL
/// `imagery://{z}/{x}/{y}`: the caller's ``StyleResourceLoader`` resolves both (by source id).
/// Resources the styles name themselves (their sprite of POI icons) come from ``resource(_:)``.
public enum DefaultStyle: String, CaseIterable, Sendable {
    case standard
    case dark
    case muted
    case hybrid
    case imagery

    /// The vector source every default style reads the bundle's tiles from.
    public static let vectorSourceID = "openmaptiles"
    /// The raster source of `hybrid` and `imagery`, whose tiles the caller supplies.
    public static let imagerySourceID = "imagery"
    /// The GeoJSON source of the maps without imagery that holds the world outside the data's
    /// bounds, drawn hatched as having no data: filled in from `dataBounds` by
    /// ``json(extrudedBuildings:dataBounds:)``; empty (nothing hatched) without them.
    public static let noDataSourceID = "no-data"

    /// The style document.
    public var style: Style {
        // The documents are valid by construction; a test parses and validates each one.
        try! Style(text: json)
    }

    /// The style document's JSON text.
    public var json: String { json(extrudedBuildings: false) }

    /// The style document with buildings as a `fill-extrusion` layer when `extrudedBuildings`
    /// (MapKit's realistic elevation: buildings stand up when the map is pitched; seen from
    /// straight above, their roofs), or as flat fills. `imagery` has no buildings either way.
    ///
    /// `dataBounds` are the rectangles the map's data covers (its bundles' bounds): the maps
    /// without imagery hatch the world outside them as having no data (see
    /// ``noDataSourceID``). Empty, as by default, nothing is hatched.
    public func makeStyle(extrudedBuildings: Bool, dataBounds: [MKMapRect] = []) -> Style {
        // The documents are valid by construction; a test parses and validates each one.
        try! Style(text: json(extrudedBuildings: extrudedBuildings, dataBounds: dataBounds))
    }

    /// The JSON text of ``makeStyle(extrudedBuildings:dataBounds:)``.
    public func json(extrudedBuildings: Bool, dataBounds: [MKMapRect] = []) -> String {
        let extruded = extrudedBuildings
        let area = NoDataArea.geoJSON(outside: dataBounds)
        return switch self {
        case .standard: DefaultStyleLayers.document(name: "OpenMapKit Standard", palette: .light, imagery: false, vector: true,
                                                    extrudedBuildings: extruded, noDataArea: area)
        case .dark: DefaultStyleLayers.document(name: "OpenMapKit Standard Dark", palette: .dark, imagery: false, vector: true,
                                                extrudedBuildings: extruded, noDataArea: area)
        case .muted: DefaultStyleLayers.document(name: "OpenMapKit Muted", palette: .muted, imagery: false, vector: true,
                                                 extrudedBuildings: extruded, noDataArea: area)
        case .hybrid: DefaultStyleLayers.document(name: "OpenMapKit Hybrid", palette: .hybrid, imagery: true, vector: true,
                                                  extrudedBuildings: extruded)
        case .imagery: DefaultStyleLayers.document(name: "OpenMapKit Imagery", palette: .hybrid, imagery: true, vector: false)
        }
    }

    /// The bytes of a resource the default styles name — their sprite, `openmapkit://sprites/default`
    /// with `.json` or `.png` and `@2x` for dense screens — or nil for any other URL.
    public static func resource(_ url: String) -> [UInt8]? {
        guard url.hasPrefix(DefaultSprite.url) else { return nil }
        switch url.dropFirst(DefaultSprite.url.count) {
        case ".json": return DefaultSprite.files(pixelRatio: 1).json
        case ".png": return DefaultSprite.files(pixelRatio: 1).png
        case "@2x.json": return DefaultSprite.files(pixelRatio: 2).json
        case "@2x.png": return DefaultSprite.files(pixelRatio: 2).png
        default: return nil
        }
    }
}
