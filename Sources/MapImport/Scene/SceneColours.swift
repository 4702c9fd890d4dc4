import MapStyle
import StreetScene

// `building:colour`, `roof:colour` and `colour` values: mappers write CSS colour names (the wiki
// recommends them) or hex codes, read by the style's CSS colour parser, so every valid name works;
// anything else (a typo, "brick-red", a language other than English) is nil and the renderer picks
// a colour by material or kind instead of guessing.

enum SceneColours {
    /// The colour a tag value names: a CSS colour (MapStyle's parser: the CSS Color Module 4 names,
    /// `#rgb` / `#rrggbb`, `rgb()`, `hsl()`), a name written with spaces, `-` or `_` ("Light Grey",
    /// "light_grey" are `lightgrey`), or six hex digits without the `#`. Transparent is no colour.
    static func parse(_ value: String) -> SceneColour? {
        var text = value.trimmingCharacters(in: .whitespaces).lowercased()
        // Several colours ("white;red") are several surfaces; the first is the main one.
        if let semicolon = text.firstIndex(of: ";") { text = String(text[..<semicolon]).trimmingCharacters(in: .whitespaces) }
        let candidates = text.hasPrefix("#") || text.contains("(")
            ? [text]
            : [text.filter { $0 != " " && $0 != "_" && $0 != "-" }].flatMap { key in key.count == 6 ? [key, "#" + key] : [key] }
        for candidate in candidates {
            guard let colour = StyleColor.parse(candidate), colour.a > 0 else { continue }
            let rgba = colour.rgba255
            func channel(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
            return SceneColour(red: channel(rgba[0]), green: channel(rgba[1]), blue: channel(rgba[2]))
        }
        return nil
    }
}
