import CHarfBuzz
import Foundation

/// The fonts installed on this machine, and how a style's font stack maps onto them.
///
/// MapLibre styles name fonts as stacks of "Family Style" strings ("Open Sans Bold", "Noto Sans
/// Regular"), served as glyph PBFs by a glyph server. We draw with installed fonts instead, so a
/// stack resolves to font files:
/// 1. a name whose family and style are installed is used as it is;
/// 2. any other family maps by kind onto what Debian installs: names with "Serif" to Noto Serif,
///    "Mono" to DejaVu Sans Mono, everything else (Open Sans, Roboto, Arial Unicode MS, Metropolis…)
///    to Noto Sans, keeping the weight (Bold, Semibold and Black read as bold; Light, Medium and
///    Regular as regular) and italics;
/// 3. after the stack come the fallbacks, in this order: Noto Sans in the same weight and slant,
///    every other Noto Sans script family installed (Arabic, Hebrew, Devanagari, Thai …) in the same
///    weight, then DejaVu Sans, which covers most of the rest.
/// Text is never blank: a character no font covers is drawn with the first font's missing-glyph box.
public final class FontCatalog: @unchecked Sendable {
    /// One installed font file.
    public struct Entry: Hashable, Sendable {
        public var path: String
        public var family: String
        public var style: String
        public var isBold: Bool { style.contains("Bold") || style.contains("Black") || style.contains("Semibold") || style.contains("SemiBold") }
        public var isItalic: Bool { style.contains("Italic") || style.contains("Oblique") }
    }

    public let entries: [Entry]
    private let lock = NSLock()
    private var opened: [String: FontFace] = [:]
    private var resolved: [[String]: [Entry]] = [:]

    /// Scans `directories` (recursively) for TrueType and OpenType fonts.
    public init(directories: [String] = ["/usr/share/fonts"]) {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            entries = []
            return
        }
        defer { FT_Done_FreeType(library) }
        var found: [Entry] = []
        for directory in directories {
            guard let walker = FileManager.default.enumerator(atPath: directory) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".ttf") || relative.hasSuffix(".otf") {
                let path = directory + "/" + relative
                var face: FT_Face?
                guard FT_New_Face(library, path, 0, &face) == 0, let face else { continue }
                defer { FT_Done_Face(face) }
                guard let family = face.pointee.family_name, let style = face.pointee.style_name else { continue }
                found.append(Entry(path: path, family: String(cString: family), style: String(cString: style)))
            }
        }
        entries = found.sorted { ($0.family, $0.style, $0.path) < ($1.family, $1.style, $1.path) }
    }

    /// A catalogue of the given fonts, without scanning (its faces are opened on its own, so two
    /// catalogues made from one list can be used on two threads).
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The fonts under /usr/share/fonts, scanned once per process; renderers make their own
    /// catalogue from its ``entries`` so that they do not share FreeType faces.
    public static let installed = FontCatalog()

    /// The installed font for `family` and `style` ("Noto Sans", "Bold Italic"), if any.
    public func entry(family: String, style: String) -> Entry? {
        entries.first { $0.family == family && $0.style == style }
    }

    /// The fonts to draw a stack with, in the order to try them (see ``FontCatalog``).
    public func resolve(_ stack: [String]) -> [Entry] {
        // Labels resolve the same few stacks thousands of times a frame.
        if let cached = lock.withLock({ resolved[stack] }) { return cached }
        let result = resolveUncached(stack)
        lock.withLock { resolved[stack] = result }
        return result
    }

    private func resolveUncached(_ stack: [String]) -> [Entry] {
        var result: [Entry] = []
        func add(_ entry: Entry?) { if let entry, !result.contains(entry) { result.append(entry) } }
        var bold = false, italic = false
        for (index, name) in stack.enumerated() {
            let (family, style) = Self.split(name)
            if index == 0 {
                bold = ["Bold", "Black", "Semibold", "SemiBold", "Heavy", "ExtraBold"].contains { style.contains($0) }
                italic = style.contains("Italic") || style.contains("Oblique")
            }
            if let exact = entry(family: family, style: style) {
                add(exact)
                continue
            }
            let target = family.contains("Serif") ? "Noto Serif" : family.contains("Mono") ? "DejaVu Sans Mono" : "Noto Sans"
            add(closest(family: target, bold: bold, italic: italic))
        }
        add(closest(family: "Noto Sans", bold: bold, italic: italic))
        for family in Set(entries.map(\.family)).sorted() where family.hasPrefix("Noto Sans ") && !family.contains("Mono") {
            add(closest(family: family, bold: bold, italic: false))
        }
        add(closest(family: "DejaVu Sans", bold: bold, italic: italic))
        return result
    }

    /// An opened face for `entry`, shared by later calls (open faces are kept for the catalogue's life).
    public func face(_ entry: Entry) throws(RenderError) -> FontFace {
        if let face = lock.withLock({ opened[entry.path] }) { return face }
        let face = try FontFace(path: entry.path)
        lock.withLock { opened[entry.path] = face }
        return face
    }

    /// The family's installed face nearest in weight and slant.
    private func closest(family: String, bold: Bool, italic: Bool) -> Entry? {
        let candidates = entries.filter { $0.family == family }
        return candidates.min { score($0, bold, italic) < score($1, bold, italic) }
    }

    private func score(_ entry: Entry, _ bold: Bool, _ italic: Bool) -> Int {
        (entry.isBold == bold ? 0 : 2) + (entry.isItalic == italic ? 0 : 1) + (entry.style == "Regular" || entry.style == "Book" || entry.isBold ? 0 : 4)
    }

    /// "Open Sans Bold Italic" → ("Open Sans", "Bold Italic"); a name without a style word is Regular.
    static func split(_ name: String) -> (family: String, style: String) {
        let styleWords: Set<String> = ["Regular", "Bold", "Italic", "Oblique", "Light", "Medium", "Semibold", "SemiBold", "Black",
                                       "Heavy", "Thin", "ExtraBold", "ExtraLight", "Book", "Condensed"]
        var words = name.split(separator: " ").map(String.init)
        var style: [String] = []
        while let last = words.last, styleWords.contains(last), words.count > 1 {
            style.insert(last, at: 0)
            words.removeLast()
        }
        return (words.joined(separator: " "), style.isEmpty ? "Regular" : style.joined(separator: " "))
    }
}

extension FontCatalog {
    /// Shapes a line of text with a font stack: the text is cut into runs by which font covers each
    /// character (combining marks stay with their base), each run is shaped on its own, and the runs
    /// come back in drawing order — reversed when the line's first strong character is right to left
    /// (a simple bidirectional rule: runs, not the full Unicode algorithm).
    /// `kerning: false` shapes without the fonts' kerning, as MapLibre draws labels.
    public func shapeLine(_ text: String, stack: [String], size: Double, kerning: Bool = true) throws(RenderError) -> [ShapedRun] {
        let fonts = resolve(stack)
        guard !fonts.isEmpty else { throw RenderError("no fonts installed for \(stack)") }
        // Faces are opened only as far down the list as the text needs: most labels never reach
        // the script fallbacks, and opening every one of them would cost more than the shaping.
        final class Faces {
            let catalog: FontCatalog, fonts: [Entry]
            var opened: [FontFace?]
            init(_ catalog: FontCatalog, _ fonts: [Entry]) { (self.catalog, self.fonts) = (catalog, fonts); opened = Array(repeating: nil, count: fonts.count) }
            subscript(_ index: Int) -> FontFace? {
                if let face = opened[index] { return face }
                let face = try? catalog.face(fonts[index])
                opened[index] = face
                return face
            }
            func firstIndex(where covers: (FontFace) -> Bool) -> Int? {
                fonts.indices.first { index in self[index].map(covers) ?? false }
            }
        }
        let faces = Faces(self, fonts)
        guard faces[0] != nil else { throw RenderError("cannot open the font \(fonts[0].path)") }
        var runs: [(face: Int, text: String)] = []
        for character in text {
            let scalars = character.unicodeScalars
            // Spaces and punctuation go with the run they are in; other characters pick the first
            // font that has every scalar, or the first font (its missing-glyph box) when none does.
            let isNeutral = scalars.allSatisfy { scalar in
                switch scalar.properties.generalCategory {
                case .spaceSeparator, .otherPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                     .initialPunctuation, .finalPunctuation, .connectorPunctuation: true
                default: false
                }
            }
            if isNeutral, let last = runs.last, let face = faces[last.face], scalars.allSatisfy({ face.covers($0) }) {
                runs[runs.count - 1].text.append(character)
                continue
            }
            let index = faces.firstIndex { face in scalars.allSatisfy { face.covers($0) || $0.properties.isVariationSelector } } ?? 0
            if let last = runs.last, last.face == index {
                runs[runs.count - 1].text.append(character)
            } else {
                runs.append((index, String(character)))
            }
        }
        let shaped = runs.compactMap { faces[$0.face]?.shape($0.text, size: size, kerning: kerning) }
        let firstStrongIsRTL = shaped.first { run in !run.glyphs.isEmpty }?.isRightToLeft ?? false
        return firstStrongIsRTL ? shaped.reversed() : shaped
    }
}
