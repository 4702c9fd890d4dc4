import Foundation

/// The colours of one default style. Every layer of the default styles takes its colours from a
/// palette, so the light, dark and muted maps share one set of layers and stay in step.
struct DefaultStylePalette {
    var land, wood, grass, sand, ice, wetland: String
    var residential, commercial, industrial, hospital, school, cemetery, pitch, park, parkOutline: String
    var water, waterway, aeroway, runway: String
    var building, buildingOutline: String
    var motorway, motorwayCasing, trunk, primary, primaryCasing, road, roadCasing, path, rail, ferry: String
    var boundary: String
    /// The sprite pattern drawn where the map has no data (outside the bundles' bounds).
    var noData: String
    var label, labelHalo, placeLabel, suburbLabel, roadLabel, waterLabel, parkLabel, peakLabel, houseNumber: String
    /// How strongly POIs show: 1 draws them all at their zooms, below 1 fades them and keeps only
    /// the important ones (MapKit's muted emphasis).
    var poiEmphasis: Double
    /// POI name colours by category: food, shopping, health, nature, culture, transport, other.
    var poiText: [String]

    static let light = DefaultStylePalette(
        land: "#f6f3ec", wood: "#cfe5bf", grass: "#deecce", sand: "#f3ead0", ice: "#f4f8fb", wetland: "#d9e9dc",
        residential: "#efebe3", commercial: "#f4e9e6", industrial: "#ece6ee", hospital: "#f8e2e0", school: "#f4ecd8",
        cemetery: "#dbe8d3", pitch: "#cfe8c0", park: "#c8e6b2", parkOutline: "#b3d99b",
        water: "#9fd0f4", waterway: "#9fd0f4", aeroway: "#e6e3ec", runway: "#d5d1dc",
        building: "#e7e2d9", buildingOutline: "#d6cfc2",
        motorway: "#ffc46b", motorwayCasing: "#e29a3c", trunk: "#ffd88a", primary: "#ffeab0", primaryCasing: "#e3c88a",
        road: "#ffffff", roadCasing: "#d9d2c6", path: "#b9ad9c", rail: "#a9a49c", ferry: "#5fa6dc",
        boundary: "#a08fb8", noData: "no-data",
        label: "#3f434a", labelHalo: "#ffffff", placeLabel: "#2d3036", suburbLabel: "#6b6f78", roadLabel: "#55595f",
        waterLabel: "#3b7fbf", parkLabel: "#3f7a3a", peakLabel: "#6d5640", houseNumber: "#8c8478",
        poiEmphasis: 1, poiText: ["#c0661c", "#a07800", "#c2342b", "#2f7d3b", "#8a46b8", "#2f6fbf", "#5f6670"])

    static let dark = DefaultStylePalette(
        land: "#23252a", wood: "#263528", grass: "#283329", sand: "#34322b", ice: "#2e3238", wetland: "#25322f",
        residential: "#292b30", commercial: "#2e2a2e", industrial: "#2b2a31", hospital: "#33292b", school: "#302d27",
        cemetery: "#27312a", pitch: "#27382a", park: "#24382a", parkOutline: "#2c4532",
        water: "#1b3550", waterway: "#1f3d5c", aeroway: "#2e2d35", runway: "#3c3b45",
        building: "#34363c", buildingOutline: "#3f4249",
        motorway: "#9a7644", motorwayCasing: "#4f3f28", trunk: "#7d6644", primary: "#58534a", primaryCasing: "#34312c",
        road: "#4b4e55", roadCasing: "#2a2c31", path: "#6a6458", rail: "#5e5c5a", ferry: "#3b6f9c",
        boundary: "#8f7fa8", noData: "no-data-dark",
        label: "#d9dbe0", labelHalo: "#1b1c20", placeLabel: "#eceef2", suburbLabel: "#a5a9b2", roadLabel: "#b8bbc2",
        waterLabel: "#7fb3e6", parkLabel: "#8cc28a", peakLabel: "#c9ae92", houseNumber: "#8f8a82",
        poiEmphasis: 1, poiText: ["#f2a35a", "#e3c14a", "#f27d74", "#7fcf8a", "#c79af0", "#72b0f7", "#aab1bb"])

    static let muted = DefaultStylePalette(
        land: "#f3f3f1", wood: "#e1eadb", grass: "#e7ede1", sand: "#f1eee5", ice: "#f6f8fa", wetland: "#e4ece6",
        residential: "#efefec", commercial: "#f1eeed", industrial: "#efedf0", hospital: "#f3ebea", school: "#f2efe8",
        cemetery: "#e4ebe0", pitch: "#e0ead9", park: "#dde9d5", parkOutline: "#d0e1c5",
        water: "#cfe1ee", waterway: "#cfe1ee", aeroway: "#ecebef", runway: "#e0dfe5",
        building: "#e9e8e5", buildingOutline: "#dedcd7",
        motorway: "#f3e2c4", motorwayCasing: "#ddc8a4", trunk: "#f4e8d1", primary: "#f8f1e0", primaryCasing: "#e2d8c4",
        road: "#ffffff", roadCasing: "#e0ddd7", path: "#cfc8be", rail: "#c9c6c1", ferry: "#9cc1dd",
        boundary: "#c3bacf", noData: "no-data",
        label: "#7b7f86", labelHalo: "#ffffff", placeLabel: "#5f636a", suburbLabel: "#9a9ea5", roadLabel: "#8d9197",
        waterLabel: "#7fa6c6", parkLabel: "#7e9a7a", peakLabel: "#9a8b7c", houseNumber: "#aaa49b",
        poiEmphasis: 0.6, poiText: ["#c0661c", "#a07800", "#c2342b", "#2f7d3b", "#8a46b8", "#2f6fbf", "#5f6670"])

    /// Roads and labels over imagery: no land colours (the imagery shows through), translucent
    /// roads, white text on dark halos.
    static let hybrid = DefaultStylePalette(
        land: "#000000", wood: "", grass: "", sand: "", ice: "", wetland: "",
        residential: "", commercial: "", industrial: "", hospital: "", school: "", cemetery: "", pitch: "", park: "", parkOutline: "",
        water: "", waterway: "", aeroway: "", runway: "", building: "", buildingOutline: "",
        motorway: "#ffd27a", motorwayCasing: "#00000000", trunk: "#ffe3a3", primary: "#fff4d6", primaryCasing: "#00000000",
        road: "#ffffff", roadCasing: "#00000000", path: "#e8e2d6", rail: "#d0ccc4", ferry: "#9fd0f4",
        boundary: "#e6d9ff", noData: "",
        label: "#ffffff", labelHalo: "#1a1a1a", placeLabel: "#ffffff", suburbLabel: "#eeeeee", roadLabel: "#ffffff",
        waterLabel: "#cfe8ff", parkLabel: "#e3f5d9", peakLabel: "#f3e3d0", houseNumber: "#dddddd",
        poiEmphasis: 0.8, poiText: ["#ffd9a8", "#fff0a8", "#ffc4c0", "#d4f5c8", "#ecd6ff", "#cfe6ff", "#ffffff"])
}

/// Writes the default styles' JSON from a palette. Zoom ranges follow the import's schema (which
/// layers exist from which zoom); sizes grow with zoom so every zoom 0–18 stays legible.
enum DefaultStyleLayers {
    static let source = DefaultStyle.vectorSourceID

    /// The whole style document: the vector layers, over imagery for `hybrid` and `imagery`.
    /// With `extrudedBuildings` (MapKit's realistic elevation), buildings are a `fill-extrusion`
    /// layer (see ``extrudedBuildings(_:)``) instead of a flat fill.
    ///
    /// Maps without imagery cover what lies outside the data with the palette's `noData` pattern,
    /// from the GeoJSON source ``DefaultStyle/noDataSourceID`` whose data is `noDataArea` (see
    /// ``NoDataArea``), just above the background so that the data's own features stay on top.
    /// Imagery maps have imagery beyond the data, so they have neither.
    static func document(name: String, palette p: DefaultStylePalette, imagery: Bool, vector: Bool,
                         extrudedBuildings: Bool = false, noDataArea: String = NoDataArea.geoJSON(outside: [])) -> String {
        var sources = [#""\#(source)": {"type": "vector", "tiles": ["bundle://{z}/{x}/{y}"], "minzoom": 0, "maxzoom": 14}"#]
        var layers: [String] = []
        if imagery {
            sources.append(#""\#(DefaultStyle.imagerySourceID)": {"type": "raster", "tiles": ["imagery://{z}/{x}/{y}"], "tileSize": 256, "maxzoom": 19}"#)
            layers.append(##"{"id": "background", "type": "background", "paint": {"background-color": "#1c2127"}}"##)
            layers.append(#"{"id": "imagery", "type": "raster", "source": "\#(DefaultStyle.imagerySourceID)"}"#)
        } else {
            layers.append(#"{"id": "background", "type": "background", "paint": {"background-color": "\#(p.land)"}}"#)
            sources.append(#""\#(DefaultStyle.noDataSourceID)": {"type": "geojson", "data": \#(noDataArea)}"#)
            layers.append(#"{"id": "no-data", "type": "fill", "source": "\#(DefaultStyle.noDataSourceID)", "paint": {"fill-pattern": "\#(p.noData)"}}"#)
        }
        if vector {
            if !imagery { layers += ground(p, flatBuildings: !extrudedBuildings) }
            layers += roads(p, overImagery: imagery)
            if extrudedBuildings { layers.append(Self.extrudedBuildings(p)) }
            layers += labels(p)
        }
        return """
        {
          "version": 8,
          "name": "\(name)",
          "sprite": "\(DefaultSprite.url)",
          "glyphs": "openmapkit://fonts/{fontstack}/{range}.pbf",
          "sources": {
            \(sources.joined(separator: ",\n    "))
          },
          "layers": [
            \(layers.joined(separator: ",\n    "))
          ]
        }
        """
    }

    /// Zoom-interpolated value: `["interpolate", ["exponential", base], ["zoom"], z, v, ...]`.
    private static func zoomed(_ stops: [(Double, String)], base: Double = 1.5) -> String {
        #"["interpolate", ["exponential", \#(base)], ["zoom"], "# + stops.map { "\(fmt($0.0)), \($0.1)" }.joined(separator: ", ") + "]"
    }

    private static func fmt(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// A value chosen by the feature's `class`: `["match", ["get", "class"], ...]`.
    private static func byClass(_ cases: [(String, String)], otherwise: String) -> String {
        #"["match", ["get", "class"], "# + cases.map { "\($0.0), \($0.1)" }.joined(separator: ", ") + ", \(otherwise)]"
    }

    // MARK: Ground: land cover, land use, water, buildings

    private static func ground(_ p: DefaultStylePalette, flatBuildings: Bool) -> [String] {
        let layers = [
            #"{"id": "landcover", "type": "fill", "source": "\#(source)", "source-layer": "landcover", "#
                + #""paint": {"fill-color": \#(byClass([("\"wood\"", "\"\(p.wood)\""), ("\"grass\"", "\"\(p.grass)\""), ("\"farmland\"", "\"\(p.grass)\""), ("\"sand\"", "\"\(p.sand)\""), ("\"ice\"", "\"\(p.ice)\""), ("\"wetland\"", "\"\(p.wetland)\""), ("\"rock\"", "\"\(p.residential)\"")], otherwise: "\"\(p.grass)\"")), "#
                + #""fill-opacity": \#(zoomed([(4, "0.5"), (10, "0.9")], base: 1))}}"#,
            #"{"id": "landuse", "type": "fill", "source": "\#(source)", "source-layer": "landuse", "#
                + #""filter": ["!=", ["get", "class"], "residential"], "#
                + #""paint": {"fill-color": \#(byClass([("\"commercial\"", "\"\(p.commercial)\""), ("\"retail\"", "\"\(p.commercial)\""), ("\"industrial\"", "\"\(p.industrial)\""), ("\"railway\"", "\"\(p.industrial)\""), ("\"hospital\"", "\"\(p.hospital)\""), ("[\"school\", \"university\", \"college\", \"kindergarten\"]", "\"\(p.school)\""), ("\"cemetery\"", "\"\(p.cemetery)\""), ("[\"stadium\", \"pitch\", \"playground\"]", "\"\(p.pitch)\"")], otherwise: "\"\(p.residential)\""))}}"#,
            #"{"id": "landuse-residential", "type": "fill", "source": "\#(source)", "source-layer": "landuse", "minzoom": 10, "#
                + #""filter": ["==", ["get", "class"], "residential"], "#
                + #""paint": {"fill-color": "\#(p.residential)", "fill-opacity": \#(zoomed([(10, "0.4"), (14, "1")], base: 1))}}"#,
            #"{"id": "park", "type": "fill", "source": "\#(source)", "source-layer": "park", "filter": ["==", ["geometry-type"], "Polygon"], "#
                + #""paint": {"fill-color": "\#(p.park)", "fill-outline-color": "\#(p.parkOutline)"}}"#,
            #"{"id": "water", "type": "fill", "source": "\#(source)", "source-layer": "water", "paint": {"fill-color": "\#(p.water)"}}"#,
            #"{"id": "waterway", "type": "line", "source": "\#(source)", "source-layer": "waterway", "#
                + #""layout": {"line-cap": "round", "line-join": "round"}, "#
                + #""paint": {"line-color": "\#(p.waterway)", "line-width": \#(zoomed([(8, byClass([("\"river\"", "1"), ("\"canal\"", "0.8")], otherwise: "0.3")), (13, byClass([("\"river\"", "3"), ("\"canal\"", "2")], otherwise: "1")), (18, byClass([("\"river\"", "12"), ("\"canal\"", "8")], otherwise: "4"))]))}}"#,
            #"{"id": "aeroway-area", "type": "fill", "source": "\#(source)", "source-layer": "aeroway", "minzoom": 10, "#
                + #""filter": ["==", ["geometry-type"], "Polygon"], "paint": {"fill-color": "\#(p.aeroway)"}}"#,
            #"{"id": "aeroway-runway", "type": "line", "source": "\#(source)", "source-layer": "aeroway", "minzoom": 10, "#
                + #""filter": ["all", ["==", ["geometry-type"], "LineString"], ["in", ["get", "class"], ["literal", ["runway", "taxiway"]]]], "#
                + #""paint": {"line-color": "\#(p.runway)", "line-width": \#(zoomed([(10, byClass([("\"runway\"", "1")], otherwise: "0.5")), (18, byClass([("\"runway\"", "60")], otherwise: "20"))]))}}"#,
            #"{"id": "building", "type": "fill", "source": "\#(source)", "source-layer": "building", "minzoom": 14, "#
                + #""paint": {"fill-color": "\#(p.building)", "fill-outline-color": "\#(p.buildingOutline)", "#
                + #""fill-opacity": \#(zoomed([(14, "0.4"), (16, "1")], base: 1))}}"#,
        ]
        return flatBuildings ? layers : layers.filter { !$0.hasPrefix(#"{"id": "building","#) }
    }

    /// Buildings standing up (MapKit's realistic elevation): a `fill-extrusion` layer from the
    /// OpenMapTiles `building` layer's `render_height` and `render_min_height` (metres, as the
    /// importer writes them), leaving out the outlines of buildings drawn by their parts
    /// (`hide_3d`). Above the roads and below the labels, as MapLibre composites extrusions at
    /// their place in the style: roads drawn above it would lie over the walls. Seen from straight
    /// above it shows the roofs; the renderer raises the walls when the map is pitched.
    /// Imagery maps have no building colour: theirs are a pale stone.
    static func extrudedBuildings(_ p: DefaultStylePalette) -> String {
        let color = p.building.isEmpty ? "#d8d3ca" : p.building
        return #"{"id": "building-3d", "type": "fill-extrusion", "source": "\#(source)", "source-layer": "building", "minzoom": 14, "#
            + #""filter": ["!=", ["get", "hide_3d"], true], "#
            + #""paint": {"fill-extrusion-color": "\#(color)", "#
            + #""fill-extrusion-height": ["coalesce", ["get", "render_height"], 5], "#
            + #""fill-extrusion-base": ["coalesce", ["get", "render_min_height"], 0], "#
            + #""fill-extrusion-opacity": \#(zoomed([(14, "0.4"), (16, "1")], base: 1))}}"#
    }

    // MARK: Roads, railways, boundaries

    private static let roadClasses = #"["motorway", "trunk", "primary", "secondary", "tertiary", "minor", "service", "busway", "raceway"]"#

    /// Road widths in points by class and zoom: thin threads when zoomed out, streets you could
    /// write a name in at 17–18.
    private static func roadWidth(casing: Bool) -> String {
        let extra = casing ? 1.0 : 0
        func w(_ motorway: Double, _ trunk: Double, _ primary: Double, _ secondary: Double, _ tertiary: Double, _ minor: Double, _ service: Double) -> String {
            byClass([("\"motorway\"", fmt(motorway + extra)), ("\"trunk\"", fmt(trunk + extra)), ("\"primary\"", fmt(primary + extra)),
                     ("\"secondary\"", fmt(secondary + extra)), ("\"tertiary\"", fmt(tertiary + extra)),
                     ("\"service\"", fmt(service + extra))], otherwise: fmt(minor + extra))
        }
        return zoomed([(5, w(0.9, 0.8, 0.6, 0.3, 0.1, 0.1, 0.1)), (10, w(2.2, 2, 1.7, 1.1, 0.6, 0.3, 0.2)),
                       (14, w(5, 4.5, 4, 3.5, 3, 2, 1)), (18, w(22, 20, 18, 16, 14, 12, 6))])
    }

    private static let roadSortKey = #"["match", ["get", "class"], "motorway", 9, "trunk", 8, "primary", 7, "secondary", 6, "tertiary", 5, "minor", 4, 3]"#

    private static func roads(_ p: DefaultStylePalette, overImagery: Bool) -> [String] {
        let roadColor = byClass([("\"motorway\"", "\"\(p.motorway)\""), ("\"trunk\"", "\"\(p.trunk)\""), ("[\"primary\", \"secondary\"]", "\"\(p.primary)\"")],
                                otherwise: "\"\(p.road)\"")
        let casingColor = byClass([("[\"motorway\", \"trunk\"]", "\"\(p.motorwayCasing)\""), ("[\"primary\", \"secondary\"]", "\"\(p.primaryCasing)\"")],
                                  otherwise: "\"\(p.roadCasing)\"")
        var layers: [String] = []
        if !overImagery {
            // Main roads keep their casing from zoom 7, so they read as roads over land cover;
            // the rest get it from 12, where streets are wide enough for it.
            layers.append(#"{"id": "road-casing", "type": "line", "source": "\#(source)", "source-layer": "transportation", "minzoom": 7, "#
                + #""filter": ["all", ["in", ["get", "class"], ["literal", \#(roadClasses)]], "#
                + #"["any", ["in", ["get", "class"], ["literal", ["motorway", "trunk", "primary", "secondary"]]], [">=", ["zoom"], 12]]], "#
                + #""layout": {"line-cap": "round", "line-join": "round", "line-sort-key": \#(roadSortKey)}, "#
                + #""paint": {"line-color": \#(casingColor), "line-width": \#(roadWidth(casing: true)), "line-gap-width": 0}}"#)
        }
        layers += [
            #"{"id": "road-path", "type": "line", "source": "\#(source)", "source-layer": "transportation", "minzoom": 14, "#
                + #""filter": ["in", ["get", "class"], ["literal", ["path", "track"]]], "#
                + #""paint": {"line-color": "\#(p.path)", "line-width": \#(zoomed([(14, "0.8"), (18, "2.5")])), "line-dasharray": [2, 1.2]}}"#,
            #"{"id": "road", "type": "line", "source": "\#(source)", "source-layer": "transportation", "#
                + #""filter": ["in", ["get", "class"], ["literal", \#(roadClasses)]], "#
                + #""layout": {"line-cap": "round", "line-join": "round", "line-sort-key": \#(roadSortKey)}, "#
                + #""paint": {"line-color": \#(roadColor), "line-width": \#(roadWidth(casing: false))\#(overImagery ? #", "line-opacity": 0.75"# : "")}}"#,
            #"{"id": "railway", "type": "line", "source": "\#(source)", "source-layer": "transportation", "minzoom": 10, "#
                + #""filter": ["in", ["get", "class"], ["literal", ["rail", "transit"]]], "#
                + #""paint": {"line-color": "\#(p.rail)", "line-width": \#(zoomed([(10, "0.6"), (16, "2")])), "line-dasharray": [3, 2]}}"#,
            #"{"id": "ferry", "type": "line", "source": "\#(source)", "source-layer": "transportation", "minzoom": 9, "#
                + #""filter": ["==", ["get", "class"], "ferry"], "paint": {"line-color": "\#(p.ferry)", "line-width": 1.2, "line-dasharray": [4, 3]}}"#,
            #"{"id": "boundary-country", "type": "line", "source": "\#(source)", "source-layer": "boundary", "#
                + #""filter": ["all", ["==", ["get", "admin_level"], 2], ["!=", ["get", "maritime"], 1]], "#
                + #""layout": {"line-join": "round"}, "#
                + #""paint": {"line-color": "\#(p.boundary)", "line-width": \#(zoomed([(2, "0.8"), (10, "2.5"), (16, "4")], base: 1))}}"#,
            #"{"id": "boundary-state", "type": "line", "source": "\#(source)", "source-layer": "boundary", "minzoom": 4, "#
                + #""filter": ["all", [">", ["get", "admin_level"], 2], ["<=", ["get", "admin_level"], 4], ["!=", ["get", "maritime"], 1]], "#
                + #""paint": {"line-color": "\#(p.boundary)", "line-width": \#(zoomed([(4, "0.6"), (12, "1.6")], base: 1)), "line-dasharray": [3, 2]}}"#,
        ]
        return layers
    }

    // MARK: Labels and icons

    private static let regular = #"["Noto Sans Regular"]"#
    private static let bold = #"["Noto Sans Bold"]"#
    private static let italic = #"["Noto Sans Italic"]"#

    private static func text(_ p: DefaultStylePalette, color: String, halo: Double = 1.4) -> String {
        #""text-color": "\#(color)", "text-halo-color": "\#(p.labelHalo)", "text-halo-width": \#(fmt(halo))"#
    }

    /// Street names along the streets. Main roads' names are placed before POIs (a layer above
    /// them), side streets' after, so a busy centre still shows its main streets' names.
    private static func roadLabel(_ p: DefaultStylePalette, major: Bool) -> String {
        let name = #"["coalesce", ["get", "name"], ["get", "name_en"]]"#
        let majorClasses = #"["literal", ["motorway", "trunk", "primary", "secondary", "tertiary"]]"#
        return #"{"id": "road-label-\#(major ? "major" : "minor")", "type": "symbol", "source": "\#(source)", "source-layer": "transportation_name", "minzoom": 12, "#
            + #""filter": ["all", ["has", "name"], \#(major ? "" : "[\"!\", ")["in", ["get", "class"], \#(majorClasses)]\#(major ? "" : "]"), "#
            + #"[">=", ["zoom"], ["match", ["get", "class"], ["motorway", "trunk", "primary"], 12, ["secondary", "tertiary"], 13, ["minor", "service"], 15, 16]], "#
            + #"["!", ["in", ["get", "class"], ["literal", ["rail", "transit", "ferry", "aerialway"]]]]], "#
            + #""layout": {"symbol-placement": "line", "text-field": \#(name), "text-font": \#(regular), "#
            + #""text-size": \#(zoomed([(13, "10"), (18, byClass([("[\"motorway\", \"trunk\", \"primary\", \"secondary\"]", "15")], otherwise: "13"))], base: 1)), "#
            + #""symbol-spacing": 300, "text-max-angle": 30, "text-padding": 2, "#
            + #""symbol-sort-key": ["match", ["get", "class"], "motorway", 1, "trunk", 2, "primary", 3, "secondary", 4, "tertiary", 5, 6]}, "#
            + #""paint": {\#(text(p, color: p.roadLabel, halo: 1.6))}}"#
    }

    private static func labels(_ p: DefaultStylePalette) -> [String] {
        let name = #"["coalesce", ["get", "name"], ["get", "name_en"]]"#
        let poiClassesWithIcon = "[" + PointOfInterestIcon.openMapTilesClassNames.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        // POIs appear by importance: at 14 only the landmarks, everything by 17. Muted maps keep
        // fewer and fade them.
        let rankLimit = p.poiEmphasis < 1
            ? #"["step", ["zoom"], 8, 15, 12, 16, 15, 17, 20]"#
            : #"["step", ["zoom"], 12, 15, 20, 16, 25, 17, 100]"#
        let poiTextColor = ##"["match", ["get", "class"], ["restaurant", "fast_food", "cafe", "bar", "ice_cream", "bakery"], "\##(p.poiText[0])", "##
            + ##"["grocery", "shop", "clothing_store"], "\##(p.poiText[1])", ["hospital", "pharmacy", "doctors"], "\##(p.poiText[2])", "##
            + ##"["park", "sports", "playground"], "\##(p.poiText[3])", "##
            + ##"["museum", "theatre", "attraction", "place_of_worship", "lodging"], "\##(p.poiText[4])", "##
            + ##"["railway", "bus", "ferry_terminal", "aerialway", "parking", "fuel"], "\##(p.poiText[5])", "\##(p.poiText[6])"]"##
        return [
            #"{"id": "waterway-label", "type": "symbol", "source": "\#(source)", "source-layer": "waterway", "minzoom": 13, "#
                + #""filter": ["has", "name"], "#
                + #""layout": {"symbol-placement": "line", "text-field": \#(name), "text-font": \#(italic), "text-size": 11, "#
                + #""text-letter-spacing": 0.05, "symbol-spacing": 350}, "#
                + #""paint": {\#(text(p, color: p.waterLabel, halo: 1.2))}}"#,
            #"{"id": "water-label", "type": "symbol", "source": "\#(source)", "source-layer": "water_name", "#
                + #""filter": ["any", ["in", ["get", "class"], ["literal", ["ocean", "sea", "bay", "strait"]]], [">=", ["zoom"], 14]], "#
                + #""layout": {"text-field": \#(name), "text-font": \#(italic), "#
                + #""text-size": \#(zoomed([(4, byClass([("[\"ocean\", \"sea\"]", "12")], otherwise: "10")), (14, byClass([("[\"ocean\", \"sea\"]", "18")], otherwise: "13"))], base: 1)), "#
                + #""text-letter-spacing": 0.1, "text-max-width": 7}, "#
                + #""paint": {\#(text(p, color: p.waterLabel, halo: 1.2))}}"#,
            #"{"id": "building-number", "type": "symbol", "source": "\#(source)", "source-layer": "housenumber", "minzoom": 17, "#
                + #""layout": {"text-field": ["get", "housenumber"], "text-font": \#(regular), "text-size": 10, "text-padding": 3}, "#
                + #""paint": {\#(text(p, color: p.houseNumber, halo: 1))}}"#,
            roadLabel(p, major: false),
            #"{"id": "road-shield", "type": "symbol", "source": "\#(source)", "source-layer": "transportation_name", "minzoom": 8, "#
                + #""filter": ["all", ["has", "ref"], ["<=", ["get", "ref_length"], 6], ["in", ["get", "class"], ["literal", ["motorway", "trunk", "primary"]]]], "#
                + #""layout": {"symbol-placement": "line", "symbol-spacing": 400, "text-field": ["get", "ref"], "text-font": \#(bold), "#
                + #""text-size": 9.5, "text-rotation-alignment": "viewport", "icon-rotation-alignment": "viewport", "#
                + #""icon-image": ["case", ["==", ["get", "class"], "motorway"], "shield-motorway", "shield"], "#
                + #""icon-text-fit": "both", "icon-text-fit-padding": [2, 4, 2, 4]}, "#
                + ##""paint": {"text-color": ["case", ["==", ["get", "class"], "motorway"], "#ffffff", "#3f434a"]}}"##,
            #"{"id": "park-label", "type": "symbol", "source": "\#(source)", "source-layer": "park", "minzoom": 13, "#
                + #""filter": ["all", ["has", "name"], ["==", ["geometry-type"], "Point"]], "#
                + #""layout": {"text-field": \#(name), "text-font": \#(regular), "text-size": 11, "text-max-width": 8}, "#
                + #""paint": {\#(text(p, color: p.parkLabel))}}"#,
            #"{"id": "poi", "type": "symbol", "source": "\#(source)", "source-layer": "poi", "minzoom": 14, "#
                + #""filter": ["all", ["has", "name"], ["<=", ["get", "rank"], \#(rankLimit)]], "#
                + #""layout": {"icon-image": ["case", ["in", ["get", "class"], ["literal", \#(poiClassesWithIcon)]], ["concat", "poi-", ["get", "class"]], "poi"], "#
                + #""icon-size": \#(zoomed([(14, "0.8"), (17, "1")], base: 1)), "#
                + #""text-field": \#(name), "text-font": \#(regular), "text-size": 11, "text-max-width": 8, "#
                + #""text-anchor": "top", "text-offset": [0, 0.9], "text-optional": true, "text-padding": 2, "#
                + #""symbol-sort-key": ["get", "rank"]}, "#
                + #""paint": {"text-color": \#(poiTextColor), "text-halo-color": "\#(p.labelHalo)", "text-halo-width": 1.4, "#
                + #""icon-opacity": \#(fmt(p.poiEmphasis)), "text-opacity": \#(fmt(p.poiEmphasis))}}"#,
            roadLabel(p, major: true),
            #"{"id": "peak", "type": "symbol", "source": "\#(source)", "source-layer": "mountain_peak", "minzoom": 11, "#
                + #""filter": ["has", "name"], "#
                + #""layout": {"icon-image": "peak", "text-field": ["case", ["has", "ele"], ["concat", \#(name), "\n", ["to-string", ["get", "ele"]], " m"], \#(name)], "#
                + #""text-font": \#(italic), "text-size": 10.5, "text-anchor": "top", "text-offset": [0, 0.7], "text-optional": true, "#
                + #""symbol-sort-key": ["get", "rank"]}, "#
                + #""paint": {\#(text(p, color: p.peakLabel))}}"#,
            #"{"id": "place-suburb", "type": "symbol", "source": "\#(source)", "source-layer": "place", "minzoom": 12, "maxzoom": 17, "#
                + #""filter": ["in", ["get", "class"], ["literal", ["suburb", "quarter", "neighbourhood"]]], "#
                + #""layout": {"text-field": \#(name), "text-font": \#(regular), "text-transform": "uppercase", "text-letter-spacing": 0.12, "#
                + #""text-size": \#(zoomed([(12, byClass([("\"suburb\"", "10.5")], otherwise: "9.5")), (16, byClass([("\"suburb\"", "13")], otherwise: "11"))], base: 1)), "text-max-width": 7, "#
                + #""symbol-sort-key": ["get", "rank"]}, "#
                + #""paint": {\#(text(p, color: p.suburbLabel, halo: 1.5))}}"#,
            #"{"id": "place-village", "type": "symbol", "source": "\#(source)", "source-layer": "place", "minzoom": 10, "maxzoom": 17, "#
                + #""filter": ["in", ["get", "class"], ["literal", ["village", "hamlet", "island", "isolated_dwelling"]]], "#
                + #""layout": {"text-field": \#(name), "text-font": \#(regular), "#
                + #""text-size": \#(zoomed([(10, byClass([("\"village\"", "11")], otherwise: "10")), (16, byClass([("\"village\"", "16")], otherwise: "13"))], base: 1)), "#
                + #""text-max-width": 8, "symbol-sort-key": ["get", "rank"]}, "#
                + #""paint": {\#(text(p, color: p.placeLabel, halo: 1.5))}}"#,
            #"{"id": "place-town", "type": "symbol", "source": "\#(source)", "source-layer": "place", "minzoom": 7, "maxzoom": 15, "#
                + #""filter": ["==", ["get", "class"], "town"], "#
                + #""layout": {"text-field": \#(name), "text-font": \#(regular), "text-size": \#(zoomed([(7, "11"), (14, "17")], base: 1)), "#
                + #""text-max-width": 8, "icon-image": ["step", ["zoom"], "dot", 11, ""], "text-anchor": ["step", ["zoom"], "left", 11, "center"], "#
                + #""text-offset": ["step", ["zoom"], ["literal", [0.5, 0]], 11, ["literal", [0, 0]]], "symbol-sort-key": ["get", "rank"]}, "#
                + #""paint": {\#(text(p, color: p.placeLabel, halo: 1.6))}}"#,
            #"{"id": "place-city", "type": "symbol", "source": "\#(source)", "source-layer": "place", "minzoom": 3, "maxzoom": 14, "#
                + #""filter": ["==", ["get", "class"], "city"], "#
                + #""layout": {"text-field": \#(name), "text-font": \#(regular), "text-size": \#(zoomed([(3, "11"), (8, "15"), (13, "19")], base: 1)), "#
                + #""text-max-width": 8, "icon-image": ["step", ["zoom"], ["case", ["==", ["get", "capital"], 2], "dot-capital", "dot"], 9, ""], "#
                + #""text-anchor": ["step", ["zoom"], "left", 9, "center"], "#
                + #""text-offset": ["step", ["zoom"], ["literal", [0.5, 0]], 9, ["literal", [0, 0]]], "symbol-sort-key": ["get", "rank"]}, "#
                + #""paint": {\#(text(p, color: p.placeLabel, halo: 1.8))}}"#,
            #"{"id": "place-state", "type": "symbol", "source": "\#(source)", "source-layer": "place", "minzoom": 4, "maxzoom": 9, "#
                + #""filter": ["in", ["get", "class"], ["literal", ["state", "province"]]], "#
                + #""layout": {"text-field": \#(name), "text-font": \#(regular), "text-transform": "uppercase", "text-letter-spacing": 0.15, "#
                + #""text-size": \#(zoomed([(4, "9"), (8, "13")], base: 1)), "text-max-width": 8}, "#
                + #""paint": {\#(text(p, color: p.suburbLabel, halo: 1.5))}}"#,
            #"{"id": "place-country", "type": "symbol", "source": "\#(source)", "source-layer": "place", "minzoom": 1, "maxzoom": 10, "#
                + #""filter": ["==", ["get", "class"], "country"], "#
                + #""layout": {"text-field": \#(name), "text-font": \#(bold), "text-size": \#(zoomed([(1, "10"), (4, "14"), (8, "20")], base: 1)), "#
                + #""text-max-width": 6, "text-transform": "uppercase", "text-letter-spacing": 0.08}, "#
                + #""paint": {\#(text(p, color: p.label, halo: 2))}}"#,
        ]
    }
}
