import MapStyle

/// The styles drawn when the user brings none, for a bundle's OpenMapTiles-schema tiles.
///
/// These are first versions without labels (the renderer does not place text yet): land, water,
/// parks, buildings, a road hierarchy with casings, railways and boundaries. Their source is named
/// `openmaptiles` with the tile URL `bundle://{z}/{x}/{y}`, which the caller's loader resolves
/// against a bundle.
public enum DefaultStyle: String, CaseIterable, Sendable {
    case standard

    /// The style document.
    public var style: Style {
        // The literal below is valid by construction; a test parses and validates it.
        try! Style(text: json)
    }

    public var json: String {
        switch self {
        case .standard: Self.standardJSON
        }
    }

    private static let standardJSON = #"""
    {
      "version": 8,
      "name": "OpenMapKit Standard",
      "sources": {
        "openmaptiles": {"type": "vector", "tiles": ["bundle://{z}/{x}/{y}"], "minzoom": 0, "maxzoom": 14}
      },
      "layers": [
        {"id": "background", "type": "background", "paint": {"background-color": "#f4f1ea"}},
        {"id": "landcover-wood", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
         "filter": ["==", ["get", "class"], "wood"], "paint": {"fill-color": "#d4e6c3", "fill-opacity": 0.8}},
        {"id": "landcover-grass", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
         "filter": ["in", ["get", "class"], ["literal", ["grass", "farmland", "wetland"]]], "paint": {"fill-color": "#e2eccf"}},
        {"id": "landuse", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
         "paint": {"fill-color": ["match", ["get", "class"], "residential", "#ede9e1", "commercial", "#f1e6e3",
                                  "industrial", "#ebe4ea", "cemetery", "#dde8d4", "hospital", "#f5e1e1", "school", "#f3ecd6",
                                  "#ede9e1"]}},
        {"id": "park", "type": "fill", "source": "openmaptiles", "source-layer": "park",
         "paint": {"fill-color": "#cfe6bb", "fill-outline-color": "#b9d9a0"}},
        {"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water",
         "paint": {"fill-color": "#a9d1f2"}},
        {"id": "waterway", "type": "line", "source": "openmaptiles", "source-layer": "waterway",
         "paint": {"line-color": "#a9d1f2", "line-width": ["interpolate", ["linear"], ["zoom"], 8, 0.5, 14, 2, 18, 6]}},
        {"id": "aeroway", "type": "fill", "source": "openmaptiles", "source-layer": "aeroway",
         "filter": ["==", ["geometry-type"], "Polygon"], "paint": {"fill-color": "#e4e1ea"}},
        {"id": "building", "type": "fill", "source": "openmaptiles", "source-layer": "building", "minzoom": 13,
         "paint": {"fill-color": "#e3ddd3", "fill-outline-color": "#d3cabd",
                   "fill-opacity": ["interpolate", ["linear"], ["zoom"], 13, 0.3, 15, 1]}},
        {"id": "road-casing", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
         "filter": ["in", ["get", "class"], ["literal", ["motorway", "trunk", "primary", "secondary", "tertiary", "minor"]]],
         "layout": {"line-cap": "round", "line-join": "round"},
         "paint": {"line-color": ["match", ["get", "class"], ["motorway", "trunk"], "#e0a458", "#d6cfc4"],
                   "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 10, 1,
                                  18, ["match", ["get", "class"], ["motorway", "trunk"], 26, ["primary", "secondary"], 22, 16]]}},
        {"id": "road-path", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 14,
         "filter": ["in", ["get", "class"], ["literal", ["path", "track"]]],
         "paint": {"line-color": "#c9bfb0", "line-width": 1, "line-dasharray": [2, 1.5]}},
        {"id": "road", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
         "filter": ["in", ["get", "class"], ["literal", ["motorway", "trunk", "primary", "secondary", "tertiary", "minor", "service"]]],
         "layout": {"line-cap": "round", "line-join": "round"},
         "paint": {"line-color": ["match", ["get", "class"], ["motorway", "trunk"], "#f9c46b", "primary", "#fde4a0", "#ffffff"],
                   "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 10, 0.5,
                                  18, ["match", ["get", "class"], ["motorway", "trunk"], 22, ["primary", "secondary"], 18, "service", 6, 12]]}},
        {"id": "railway", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
         "filter": ["==", ["get", "class"], "rail"],
         "paint": {"line-color": "#a8a29a", "line-width": 1.5, "line-dasharray": [3, 3]}},
        {"id": "boundary", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
         "filter": ["<=", ["get", "admin_level"], 4],
         "paint": {"line-color": "#a59cb5", "line-width": ["interpolate", ["linear"], ["zoom"], 3, 0.6, 12, 2],
                   "line-dasharray": [4, 2]}}
      ]
    }
    """#
}
