import Foundation

/// How a country writes a postal address: which of a place's address fields go on which line, in
/// which order and with what between them ("12 Avenue de la Costa / 98000 Monaco", "Städtle 12 /
/// 9490 Vaduz", "1 Apple Park Way / Cupertino, CA 95014", "Avinguda Meritxell, 12" in Spain).
///
/// The customs are facts from OpenCage's address-formatting project
/// (https://github.com/OpenCageData/address-formatting, MIT licence, © OpenCage GmbH), the
/// maintained, tested record of every country's address template. `Scripts/make-address-formats.py`
/// reduces each country's template to the fields a ``PlaceAddress`` has and writes them into
/// `AddressFormats.generated.swift` as line patterns such as `"{S} {N}\n{P} {L|K|A}\n{C}"`:
///
/// - `N` house number, `S` street, `P` postal code, `D` sub-locality, `L` locality,
///   `K` sub-administrative area, `A` administrative area, `C` country;
/// - `a` and `k` are the administrative and sub-administrative area written as their code where
///   the country writes codes and OpenCage lists one ("CA" for California, "TO" for Torino);
/// - `{X|Y}` is a slot holding the first of its alternatives that has a value; an alternative may
///   be several fields with text between them (`{N S|D}`: number and street, else the district);
/// - lines are separated by "\n"; the text between slots is what separates their values, and
///   text ending a line is the last value's suffix (Hungary's `{S} {N}.`: "Kossuth Lajos tér 1.").
///
/// A country OpenCage does not list gets its `default` (the street then the number, the postcode
/// before the city: continental Europe's custom).
public struct AddressFormat: Sendable, Hashable {
    /// The ISO 3166-1 alpha-2 code the format is for, upper-cased; nil when none was given.
    public let countryCode: String?
    /// Whether the country has a pattern of its own in the table; false for the default.
    public let isCountrySpecific: Bool
    private let addressPattern: Int
    private let fallbackPattern: Int

    /// The format of the country with ISO 3166-1 alpha-2 code `countryCode` (any case); OpenCage's
    /// default for a code the table does not list, or for nil.
    public init(countryCode: String?) {
        let code = countryCode?.trimmingCharacters(in: .whitespaces).uppercased()
        self.countryCode = code.flatMap { $0.isEmpty ? nil : $0 }
        if let code, let entry = Self.generatedCountries[code] {
            (addressPattern, fallbackPattern, isCountrySpecific) = (entry.address, entry.fallback, true)
        } else {
            (addressPattern, fallbackPattern, isCountrySpecific) = (Self.generatedDefault.address, Self.generatedDefault.fallback, false)
        }
    }

    /// The ISO codes with a pattern of their own (every country of OpenCage's worldwide.yaml).
    public static var countryCodes: Set<String> { Set(generatedCountries.keys) }

    /// The address as lines, the country's way, with `countryName` on the country's line (the
    /// caller names the country in the reader's language; nil leaves the country out).
    ///
    /// An address with neither street nor postcode (a town, a district, a point of interest known
    /// only by its area) uses the country's fallback pattern, which names the areas around it, as
    /// OpenCage does. Empty lines are dropped, and so is a line equal to an earlier one (a
    /// city-state named as its city and its country: "98000 Monaco / Monaco" stays, "Monaco /
    /// Monaco" would not).
    public func lines(of address: PlaceAddress, countryName: String?) -> [String] {
        var values = Self.values(of: address)
        values[.country] = Self.clean(countryName)
        var lines: [String] = []
        for line in render(pattern(for: values), values) where !line.isEmpty && !lines.contains(line) {
            lines.append(line)
        }
        return lines
    }

    /// The line with the street and house number ("12 Avenue de la Costa", "Städtle 12",
    /// "Avinguda Meritxell, 12"), without the other parts a country writes beside them (Brazil's
    /// district after the number): the name of an address and the first line of its display.
    /// Where a country puts the number on a line of its own, the two lines are joined with ", ".
    /// Nil with neither street nor number.
    public func streetLine(of address: PlaceAddress) -> String? {
        var values: [Field: String] = [:]
        values[.street] = Self.clean(address.street)
        values[.houseNumber] = Self.clean(address.houseNumber)
        guard !values.isEmpty else { return nil }
        let lines = render(Self.patterns[addressPattern], values).filter { !$0.isEmpty }
        return lines.isEmpty ? nil : lines.joined(separator: ", ")
    }

    /// The line that holds the locality ("98000 Monaco", "Cupertino, CA 95014", "London"), without
    /// street, number and country; nil when it is empty.
    public func cityLine(of address: PlaceAddress) -> String? {
        var values = Self.values(of: address)
        values[.street] = nil
        values[.houseNumber] = nil
        let pattern = pattern(for: values)
        guard let index = pattern.localityLine else { return nil }
        let line = render(pattern, values)[index]
        return line.isEmpty ? nil : line
    }

    /// Whether the country writes the administrative area on the locality's line, beside it
    /// ("Cupertino, CA 95014", "Bondi Beach NSW 2026", "São Paulo - SP"), rather than only in its
    /// place when there is no locality (Germany's "10117 Berlin"): where the state is part of how
    /// a town is named.
    public var writesAdministrativeAreaWithLocality: Bool { Self.patterns[addressPattern].administrativeAreaBesideLocality != nil }

    /// The administrative area as the country writes it beside the locality (its code where the
    /// country writes codes: "CA" for "California"); nil when the country does not write it there
    /// (``writesAdministrativeAreaWithLocality``) or the address has none.
    public func administrativeAreaWithLocality(of address: PlaceAddress) -> String? {
        guard let asCode = Self.patterns[addressPattern].administrativeAreaBesideLocality,
              let area = Self.clean(address.administrativeArea) else { return nil }
        return asCode ? abbreviated(area, field: .administrativeArea) : area
    }

    // MARK: - Patterns

    /// An address field, by its letter in the generated patterns.
    enum Field: Character, Sendable {
        case houseNumber = "N", street = "S", postalCode = "P", subLocality = "D", locality = "L",
             subAdministrativeArea = "K", administrativeArea = "A", country = "C"
    }

    /// Part of a slot's alternative: text, or a field (as its code when `asCode`).
    enum Part: Sendable, Equatable {
        case text(String)
        case field(Field, asCode: Bool)
    }

    /// Part of a line: text between slots, or a slot with its alternatives.
    enum Piece: Sendable, Equatable {
        case text(String)
        case slot([[Part]])
    }

    /// A generated pattern, parsed once.
    struct Pattern: Sendable {
        var lines: [[Piece]]
        /// The line of the last slot offering the locality (where ``render(_:_:)`` writes it).
        var localityLine: Int?
        /// Whether another slot on the locality's line offers the administrative area: nil when
        /// none does, else whether it writes the area's code.
        var administrativeAreaBesideLocality: Bool?

        init(_ text: String) {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Self.parse(line: Substring($0)) }
            localityLine = lines.indices.last { index in
                lines[index].contains { if case .slot(let alternatives) = $0 { return Self.offers(.locality, alternatives) }; return false }
            }
            if let index = localityLine {
                for case .slot(let alternatives) in lines[index] where !Self.offers(.locality, alternatives) {
                    for case .field(.administrativeArea, let asCode) in alternatives.joined() {
                        administrativeAreaBesideLocality = asCode
                    }
                }
            }
        }

        static func offers(_ field: Field, _ alternatives: [[Part]]) -> Bool {
            alternatives.joined().contains { if case .field(field, _) = $0 { return true }; return false }
        }

        static func parse(line: Substring) -> [Piece] {
            var pieces: [Piece] = []
            var rest = line
            while !rest.isEmpty {
                if rest.first == "{", let close = rest.firstIndex(of: "}") {
                    let body = rest[rest.index(after: rest.startIndex)..<close]
                    pieces.append(.slot(body.split(separator: "|", omittingEmptySubsequences: false).map(parse(alternative:))))
                    rest = rest[rest.index(after: close)...]
                } else {
                    let end = rest.dropFirst().firstIndex(of: "{") ?? rest.endIndex
                    pieces.append(.text(String(rest[..<end])))
                    rest = rest[end...]
                }
            }
            return pieces
        }

        static func parse(alternative: Substring) -> [Part] {
            var parts: [Part] = []
            for character in alternative {
                if let field = Field(rawValue: character) {
                    parts.append(.field(field, asCode: false))
                } else if character == "a" {
                    parts.append(.field(.administrativeArea, asCode: true))
                } else if character == "k" {
                    parts.append(.field(.subAdministrativeArea, asCode: true))
                } else if case .text(let text)? = parts.last {
                    parts[parts.count - 1] = .text(text + String(character))
                } else {
                    parts.append(.text(String(character)))
                }
            }
            return parts
        }
    }

    static let patterns: [Pattern] = generatedPatterns.map(Pattern.init)

    /// OpenCage's choice: the fallback pattern when the address has neither street nor postcode.
    private func pattern(for values: [Field: String]) -> Pattern {
        Self.patterns[values[.street] == nil && values[.postalCode] == nil ? fallbackPattern : addressPattern]
    }

    private static func clean(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    private static func values(of address: PlaceAddress) -> [Field: String] {
        var values: [Field: String] = [:]
        values[.houseNumber] = clean(address.houseNumber)
        values[.street] = clean(address.street)
        values[.postalCode] = clean(address.postalCode)
        values[.subLocality] = clean(address.subLocality)
        values[.locality] = clean(address.locality)
        values[.subAdministrativeArea] = clean(address.subAdministrativeArea)
        values[.administrativeArea] = clean(address.administrativeArea)
        return values
    }

    /// `value` as the country's code for it: a value that is a code stays (upper-cased), a name the
    /// country's table lists becomes its code, anything else is written as it is.
    private func abbreviated(_ value: String, field: Field) -> String {
        let tables = field == .administrativeArea ? Self.generatedStateCodes : Self.generatedCountyCodes
        guard let code = countryCode, let table = tables[code] else { return value }
        if table.values.contains(value.uppercased()) { return value.uppercased() }
        return table[value.lowercased()] ?? value
    }

    /// Every line of `pattern`, empty ones included (so callers can pick one by index).
    ///
    /// Each field is written once: a template may offer a field in several places (the US offers
    /// the locality on a line of its own for a village, then on the city line; Spain's fallback the
    /// county both in the city's place and in the state's), and the field goes to the last slot
    /// that takes it. So slots choose from the last to the first, each its first alternative with
    /// a field that has a value no later slot took: "Cupertino, CA 95014" rather than "Cupertino /
    /// Cupertino, CA 95014", and in Spain "Costa del Sol / Andalucía" without a town but a lone
    /// county without either. The country's slot is used only with a country name: its other
    /// alternatives (Britain's "country || state") stand in for a country the data lacks, not for
    /// one the caller leaves out.
    private func render(_ pattern: Pattern, _ values: [Field: String]) -> [String] {
        var taken = Set<Field>()
        var chosen: [[Int: [Part]]] = Array(repeating: [:], count: pattern.lines.count)
        for lineIndex in pattern.lines.indices.reversed() {
            for pieceIndex in pattern.lines[lineIndex].indices.reversed() {
                guard case .slot(let alternatives) = pattern.lines[lineIndex][pieceIndex] else { continue }
                if Pattern.offers(.country, alternatives), values[.country] == nil { continue }
                for alternative in alternatives {
                    var fields = Set<Field>()
                    for case .field(let field, _) in alternative where values[field] != nil && !taken.contains(field) {
                        fields.insert(field)
                    }
                    guard !fields.isEmpty else { continue }
                    chosen[lineIndex][pieceIndex] = alternative.filter {
                        if case .field(let field, _) = $0 { return fields.contains(field) }
                        return true
                    }
                    taken.formUnion(fields)
                    break
                }
            }
        }
        return pattern.lines.indices.map { lineIndex in
            let line = pattern.lines[lineIndex].indices.map { pieceIndex -> Joined in
                switch pattern.lines[lineIndex][pieceIndex] {
                case .text(let text): return .separator(text)
                case .slot:
                    let parts = chosen[lineIndex][pieceIndex] ?? []
                    return .value(Self.join(parts.map { part -> Joined in
                        switch part {
                        case .text(let text): return .separator(text)
                        case .field(let field, let asCode):
                            guard let value = values[field] else { return .value(nil) }
                            return .value(asCode ? abbreviated(value, field: field) : value)
                        }
                    }))
                }
            }
            return Self.join(line).trimmingCharacters(in: .whitespaces)
        }
    }

    private enum Joined {
        case separator(String)
        case value(String?)
    }

    /// The values with, between two of them, the text that follows the first: the separator after
    /// the last value written, so a missing value takes its separator with it ("{L}, {A} {P}"
    /// without the state gives "Springfield, 62701", not "Springfield,  62701" or "Springfield
    /// 62701"), and nothing dangles at either end. A value equal to the one before it is not
    /// repeated (a parish named as its town, "Andorra la Vella Andorra la Vella"). Text ending the
    /// items is the last value's suffix, written when that value is (Hungary's "Kossuth tér 1.").
    private static func join(_ items: [Joined]) -> String {
        var out = "", separator = "", previous: String? = nil, afterValue = false, wrote = false
        for item in items {
            switch item {
            case .separator(let text):
                if afterValue { (separator, afterValue) = (text, false) }
            case .value(let value):
                wrote = false
                guard let value, !value.isEmpty, value != previous else { continue }
                if previous != nil { out += separator }
                out += value
                (previous, separator, afterValue, wrote) = (value, "", true, true)
            }
        }
        if case .separator(let suffix)? = items.last, wrote { out += suffix }
        return out
    }
}
