import Foundation

/// A query's text taken apart: what is looked for, where ("near Vaduz", "in Monaco"), a house
/// number, and whether it names a category rather than a place.
struct ParsedQuery: Equatable {
    /// Canonical folded words of what is looked for (abbreviations expanded).
    var subject: [String]
    /// The same words before abbreviation expansion, for highlighting.
    var rawSubject: [String]
    /// Canonical words of the place after "near"/"in", if any.
    var anchor: [String]?
    /// "12" in "12 Avenue de la Costa" or "Avenue de la Costa 12".
    var houseNumber: String?
    /// For subject words written as abbreviations with a dot ("G.", "Aleksanterink."), every
    /// spelling they may stand for, itself included; other words take
    /// ``TextFolding/alternatives(of:)``.
    var abbreviationAlternatives: [String: [String]] = [:]

    /// The longest query we look at: more text than this is not a place name, and capping it
    /// bounds the work a hostile query can cause.
    static let maximumScalars = 512
    static let maximumWords = 16

    static let nearWords: [[String]] = [
        ["near"], ["in"], ["around"], ["close", "to"], ["nearby"], ["pres", "de"], ["a", "cote", "de"], ["bei"],
        ["nahe"], ["prop", "de"], ["a", "prop", "de"], ["cerca", "de"], ["en"], ["dans"], ["at"],
    ]

    init(subject: [String], rawSubject: [String], anchor: [String]? = nil, houseNumber: String? = nil) {
        self.subject = subject
        self.rawSubject = rawSubject
        self.anchor = anchor
        self.houseNumber = houseNumber
    }

    /// Parses `text`; nil when it has no words at all.
    init?(_ text: String, splitAnchor: Bool = true) {
        let capped = String(String.UnicodeScalarView(text.unicodeScalars.prefix(Self.maximumScalars)))
        let marked = Array(TextFolding.rawTokensMarkingAbbreviations(capped).prefix(Self.maximumWords))
        var raw = marked.map(\.word)
        guard !raw.isEmpty else { return nil }
        var anchorRaw: [String]? = nil
        if splitAnchor, raw.count >= 3 {
            // The last "near"/"in" with words on both sides splits subject from anchor.
            search: for start in stride(from: raw.count - 2, through: 1, by: -1) {
                for words in Self.nearWords where start + words.count < raw.count {
                    if Array(raw[start..<(start + words.count)]) == words {
                        anchorRaw = Array(raw[(start + words.count)...])
                        raw = Array(raw[..<start])
                        break search
                    }
                }
            }
        }
        // A trailing "nearby" / "near me" only says "use the region".
        if raw.count > 1, raw.last == "nearby" { raw.removeLast() }
        if raw.count > 2, Array(raw.suffix(2)) == ["near", "me"] { raw.removeLast(2) }
        self.init(subject: raw.map(TextFolding.canonical), rawSubject: raw,
                  anchor: anchorRaw.map { $0.map(TextFolding.canonical) }, houseNumber: Self.houseNumber(in: raw))
        // The subject is the start of `marked` (the anchor and "nearby" come off its end).
        for (offset, word) in raw.enumerated() where marked[offset].dotted {
            let canonical = subject[offset]
            let known = TextFolding.alternatives(of: canonical)
            let more = StreetAbbreviations.alternatives(of: word, abbreviated: true).filter { !known.contains($0) }
            if !more.isEmpty { abbreviationAlternatives[canonical] = known + more }
        }
    }

    /// The word of `words` that is the house number, if one is: the first or the last word
    /// ("12 Avenue de la Costa", "Städtle 12"), the last when a postcode leads ("95463 Bindlach
    /// Hauptstr. 5"), else a number inside that follows a word and is not a long postcode
    /// ("Quellenstrasse 8 9492 Eschen": 8 follows the street, 9492 follows the number).
    static func houseNumber(in words: [String]) -> String? {
        guard words.count >= 2, words.contains(where: { !isHouseNumber($0) }) else { return nil }
        let first = words[0], last = words[words.count - 1]
        if isHouseNumber(first), isHouseNumber(last), isPostcodeLike(first), !isPostcodeLike(last) { return last }
        if isHouseNumber(first) { return first }
        if isHouseNumber(last) { return last }
        for offset in 1..<(words.count - 1) where isHouseNumber(words[offset]) && !isPostcodeLike(words[offset]) {
            if !isHouseNumber(words[offset - 1]) { return words[offset] }
        }
        return nil
    }

    /// "12", "12a", "12bis", "3-5" (already split at the hyphen by folding).
    static func isHouseNumber(_ token: String) -> Bool {
        guard let first = token.unicodeScalars.first, ("0"..."9").contains(first), token.count <= 6 else { return false }
        let digits = token.unicodeScalars.prefix { ("0"..."9").contains($0) }.count
        let rest = token.dropFirst(digits)
        return rest.isEmpty || ["a", "b", "c", "d", "bis", "ter"].contains(String(rest))
    }

    /// Five or more digits and nothing else: a postcode (DE, FR, FI, US…) rather than a house
    /// number when the query also has a shorter number. Four-digit postcodes (AT, CH, LI) are
    /// told apart only by position, as house numbers of four digits are common.
    static func isPostcodeLike(_ token: String) -> Bool {
        token.count >= 5 && TextFolding.isDigits(token)
    }

    /// The subject's words with the house number moved to the front, as addresses are indexed.
    var numberFirstSubject: [String] {
        guard let houseNumber, let index = subject.firstIndex(of: houseNumber) else { return subject }
        var words = subject
        words.remove(at: index)
        return [houseNumber] + words
    }
}

/// Builds FTS5 MATCH expressions from folded words. Every word is quoted, so nothing a user
/// types can be FTS5 syntax.
enum MatchExpression {
    static func quote(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// All `words` must match (stop words are optional unless they are all there is);
    /// `prefixLast` lets the last word match as a prefix. `alternatives` overrides the
    /// spellings a word may match (typo corrections).
    ///
    /// `expansions` gives, for a spelling of the last word, the indexed words it begins (see
    /// ``PlaceIndex/prefixExpansions(_:words:prefixLast:alternatives:)``): they are matched as
    /// whole words instead of as a prefix, which FTS5 answers by merging the document lists of
    /// every word the prefix begins, in full, before the first row.
    static func make(_ words: [String], prefixLast: Bool, alternatives: [String: [String]] = [:],
                     expansions: [String: [String]] = [:]) -> String? {
        var kept = words.enumerated().filter { !TextFolding.stopWords.contains($0.element) || $0.offset == words.count - 1 && prefixLast }
        if kept.isEmpty { kept = Array(words.enumerated()) }
        var parts: [String] = []
        for (offset, word) in kept {
            let prefix = prefixLast && offset == words.count - 1
            var options = alternatives[word] ?? TextFolding.alternatives(of: word)
            if options.isEmpty { options = [word] }
            let terms = options.flatMap { option in
                prefix ? expansions[option].map { $0.map(quote) } ?? [quote(option) + "*"] : [quote(option)]
            }
            parts.append(terms.count == 1 ? terms[0] : "(" + terms.joined(separator: " OR ") + ")")
        }
        return parts.isEmpty ? nil : parts.joined(separator: " AND ")
    }
}
