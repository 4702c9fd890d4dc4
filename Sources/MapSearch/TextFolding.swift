import Foundation

/// The text normalisation shared by the index writer and every query, so that both sides agree
/// on what a "word" is: Unicode case and diacritic folding, a few letters that do not decompose
/// (ß → ss, æ → ae, ø → o, ł → l …), and street-type abbreviations expanded to one spelling.
public enum TextFolding {
    /// Lower-cased, diacritic-free words of `text`, abbreviations expanded; punctuation and
    /// control characters separate words and are otherwise dropped.
    public static func tokens(_ text: String) -> [String] {
        rawTokens(text).map(canonical)
    }

    /// The folded words without abbreviation expansion (for highlighting and prefix checks).
    public static func rawTokens(_ text: String) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiTokens(text) }
        var result: [String] = []
        var current = ""
        for scalar in fold(text).unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                result.append(current)
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// ``rawTokens(_:)`` for ASCII text (most names and queries), without Foundation's Unicode
    /// case mapping and decomposition, which cost more than everything else in building the
    /// index's names. Same result: ASCII letters and digits are the alphabetic and numeric scalars.
    private static func asciiTokens(_ text: String) -> [String] {
        var result: [String] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 32)
            default:
                if !current.isEmpty {
                    result.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
            }
        }
        if !current.isEmpty { result.append(String(decoding: current, as: UTF8.self)) }
        return result
    }

    /// `text` lower-cased with diacritics removed (canonical decomposition, combining marks
    /// dropped) and special letters spelled out; other characters are kept.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        }
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark: continue
            default: break
            }
            if let replacement = special[scalar] {
                out.append(contentsOf: replacement.unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Letters with no canonical decomposition into a base letter and a mark.
    private static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
        "ı": "i", "ŀ": "l", "ħ": "h", "ŧ": "t", "ĸ": "k", "ŉ": "n", "ſ": "s",
        "’": "'", "ʼ": "'",
    ]

    /// A few very common abbreviations folded to one spelling on both sides of the index, so
    /// "Av." and "Avenue" are one indexed word and cost a query no extra terms. Every other
    /// abbreviation, in every language, widens queries through ``StreetAbbreviations`` (from
    /// libpostal's dictionaries); ambiguous ones ("st" = street or saint) are widened there too.
    static let abbreviations: [String: String] = [
        "str": "strasse", "av": "avenue", "ave": "avenue", "avda": "avinguda", "avgda": "avinguda",
        "bd": "boulevard", "bld": "boulevard", "blvd": "boulevard", "bvd": "boulevard", "rd": "road",
        "ctra": "carretera", "crta": "carretera", "pl": "place", "pza": "plaza", "pca": "placa",
        "sq": "square", "ln": "lane", "dr": "drive", "hwy": "highway", "mt": "mount", "pg": "passeig",
        "ave.": "avenue", "ch": "chemin", "rte": "route", "imp": "impasse", "esc": "escales",
    ]

    /// The canonical form of one folded word.
    public static func canonical(_ token: String) -> String {
        if let expanded = abbreviations[token] { return expanded }
        // German compounds: "Hauptstr." is "Hauptstrasse".
        if token.count > 4, token.hasSuffix("str") { return token + "asse" }
        return token
    }

    /// Whether `word` is ASCII digits only (and not empty).
    static func isDigits<S: StringProtocol>(_ word: S) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// A house number as tagged, then the other spellings people type for it
    /// (``houseNumberSpellings(_:)``): every form an address is indexed under.
    public static func houseNumberForms(_ number: String) -> [String] {
        [number] + houseNumberSpellings(number)
    }

    /// Other spellings of a house number that people type for it, besides the tagged one: the
    /// letter joined to or apart from the number ("36 B" ↔ "36b"), and each house of a range of
    /// letters or numbers ("32 a-b" is 32a and 32b, "12-16" is 12, 14 and 16 on one side of the
    /// street, as Nominatim splits them). Empty for anything else ("12/3" stays as written: it means
    /// different things in different countries, and its words match as they are).
    public static func houseNumberSpellings(_ number: String) -> [String] {
        let words = rawTokens(number)
        guard let first = words.first, isDigits(first) else {
            // "36b" folds to one word: the letter apart too.
            if words.count == 1, let word = words.first, let split = splitLetter(word) { return ["\(split.0) \(split.1)"] }
            return []
        }
        func isLetter(_ word: String) -> Bool { word.count == 1 && word.utf8.allSatisfy { (0x61...0x7A).contains($0) } }
        let ranged = number.contains("-") || number.contains("–")
        switch words.count {
        case 1:
            return []
        case 2 where isLetter(words[1]):
            return [first + words[1]]
        case 2 where ranged && isDigits(words[1]):
            guard let low = Int(first), let high = Int(words[1]), low < high, high - low <= 20 else { return [] }
            let step = (high - low) % 2 == 0 ? 2 : 1
            return stride(from: low, through: high, by: step).map(String.init)
        case 3 where ranged && isLetter(words[1]) && isLetter(words[2]):
            guard let low = words[1].unicodeScalars.first?.value, let high = words[2].unicodeScalars.first?.value, low < high, high - low <= 5 else { return [] }
            return (low...high).compactMap { Unicode.Scalar($0).map { first + String(Character($0)) } }
        default:
            return []
        }
    }

    /// "36b" → ("36", "b"): a number followed by one letter.
    static func splitLetter(_ word: String) -> (String, String)? {
        guard word.count >= 2, let last = word.unicodeScalars.last, ("a"..."z").contains(last) else { return nil }
        let digits = word.dropLast()
        guard isDigits(digits) else { return nil }
        return (String(digits), String(last))
    }

    /// The folded words of `text` as ``rawTokens(_:)`` gives them, each with whether a dot
    /// follows it ("Str." , "G.", "Aleksanterink."): how a query marks an abbreviation.
    static func rawTokensMarkingAbbreviations(_ text: String) -> [(word: String, dotted: Bool)] {
        var result: [(String, Bool)] = []
        var current = String.UnicodeScalarView()
        for scalar in fold(text).unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
            } else if !current.isEmpty {
                result.append((String(current), scalar == "."))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { result.append((String(current), false)) }
        return result
    }

    /// Words a query word may stand for besides itself: the other spellings of the street
    /// types and titles it abbreviates or is abbreviated to in some language
    /// (``StreetAbbreviations``), and the equivalents below.
    public static func alternatives(of token: String) -> [String] {
        let equivalents = sameMeaning(token)
        let abbreviations = StreetAbbreviations.alternatives(of: token, abbreviated: false).filter { !equivalents.contains($0) }
        return abbreviations.isEmpty ? equivalents : equivalents + abbreviations
    }

    /// Words that mean the same across languages and spellings without being abbreviations of
    /// each other ("Avenue", "Avinguda", "Avenida"), and "St" for the saints of every language.
    private static func sameMeaning(_ token: String) -> [String] {
        switch token {
        case "st": return ["st", "street", "saint", "sant", "sankt"]
        case "ste": return ["ste", "sainte", "santa"]
        case "street": return ["street", "st"]
        case "saint", "sant", "sankt": return [token, "st"]
        case "dr": return ["dr", "drive", "doctor"]
        // "Av." is Avenue in French and English, Avinguda in Catalan, Avenida in Spanish: all
        // three fold to "avenue" and match each other's spellings.
        case "avenue", "avinguda", "avenida": return ["avenue", "avinguda", "avenida"]
        default: return [token]
        }
    }

    /// Words too common to carry meaning on their own in names of our languages (articles and
    /// prepositions). They still match, but a query made only of them finds nothing special.
    public static let stopWords: Set<String> = [
        "de", "la", "le", "les", "du", "des", "del", "dels", "d", "l", "el", "els", "the", "of", "a", "i",
        "y", "et", "und", "der", "die", "das", "von", "am", "im",
    ]
}

/// Edit distance with transpositions (optimal string alignment), capped: returns `limit + 1`
/// as soon as the distance must exceed `limit`.
func editDistance(_ a: [UInt32], _ b: [UInt32], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        var rowMinimum = current[0]
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                value = min(value, previous2[j - 2] + 1)
            }
            current[j] = value
            rowMinimum = min(rowMinimum, value)
        }
        if rowMinimum > limit { return limit + 1 }
        (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
}
