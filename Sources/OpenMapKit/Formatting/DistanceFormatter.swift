import Foundation

/// Converts between a distance in metres and a user-facing string such as "1.2 km", "500 ft"
/// or "3 miles", and back.
///
/// As in MapKit, the formatter follows its ``locale``: numbers use the locale's digits and
/// separators, ``Units/default`` picks the locale's measurement system, and the unit words are
/// in the locale's language. Foundation's `MeasurementFormatter` is not available in
/// swift-corelibs-foundation, so the unit words come from a small built-in table covering
/// English, French, German, Spanish, Italian, Portuguese, Dutch and Japanese; other languages
/// get English unit words with the locale's own number format.
///
/// ## Rounding
/// Distances are rounded the way a navigation app shows a distance along a road: precise when
/// close, coarse when far. The step depends on the magnitude of the distance.
///
/// | Units | Distance | Shown as | Step |
/// |---|---|---|---|
/// | metric | < 10 m | metres | 1 m |
/// | metric | 10 m ..< 100 m | metres | 5 m |
/// | metric | 100 m ..< 500 m | metres | 10 m |
/// | metric | 500 m ..< 1 km | metres | 50 m |
/// | metric | 1 km ..< 10 km | kilometres | 0.1 km |
/// | metric | ≥ 10 km | kilometres | 1 km |
/// | imperial | < 10 ft | feet | 1 ft |
/// | imperial | 10 ft ..< 100 ft | feet | 10 ft |
/// | imperial | 100 ft ..< 0.1 mi (528 ft) | feet | 50 ft |
/// | imperial, imperialWithYards | 0.1 mi ..< 10 mi | miles | 0.1 mi |
/// | imperial, imperialWithYards | ≥ 10 mi | miles | 1 mi |
/// | imperialWithYards | < 10 yd | yards | 1 yd |
/// | imperialWithYards | 10 yd ..< 0.1 mi (176 yd) | yards | 10 yd |
///
/// Halves round away from zero. When rounding carries a small unit up to its threshold
/// (975 m → 1000 m, 527 ft → 550 ft) the larger unit is used instead ("1 km", "0.1 mi").
/// A whole number is shown without a fraction ("1 km", not "1.0 km").
///
/// ## Other decisions
/// - ``DistanceUnitStyle/default`` is ``DistanceUnitStyle/abbreviated``.‡
/// - Negative distances keep their sign ("-1.2 km"); a value that rounds to zero is shown
///   unsigned ("0 m"). NaN and infinite distances give an empty string.
/// - The number and the unit are separated by an ordinary space (U+0020).
/// - ``distance(from:)`` returns −1 when the text can't be parsed (Apple's header documents a
///   negative result for that case‡); ``parse(_:)`` throws a ``ParseError`` naming the problem.
///
/// ‡ not stated in Apple's documentation; chosen to match observed MapKit behaviour.
public final class MKDistanceFormatter: Formatter {
    /// The measuring system used for the units in the string.
    public enum Units: UInt, Sendable, CaseIterable {
        /// The measurement system of the formatter's locale: metric, US (feet and miles) or
        /// UK (yards and miles).
        case `default` = 0
        /// Metres and kilometres.
        case metric = 1
        /// Feet and miles.
        case imperial = 2
        /// Yards and miles.
        case imperialWithYards = 3
    }

    /// How unit names are written.
    public enum DistanceUnitStyle: UInt, Sendable, CaseIterable {
        /// The formatter's default style, ``abbreviated``.
        case `default` = 0
        /// Unit symbols: "km", "m", "mi", "ft", "yd".
        case abbreviated = 1
        /// Unit names in the locale's language, singular or plural as the number requires:
        /// "1 mile", "2.5 kilometers".
        case full = 2
    }

    /// Why a string could not be read as a distance.
    /// (An OpenMapKit addition, thrown by ``MKDistanceFormatter/parse(_:)``.)
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The string is empty or only whitespace.
        case empty
        /// The string is longer than ``MKDistanceFormatter/maximumParsedLength`` characters.
        case tooLong(length: Int)
        /// The string does not start with a number (for example "km" or "about 5 km").
        case missingNumber(String)
        /// The leading number is not valid in the locale's format or in plain "1234.5" form.
        case invalidNumber(String)
        /// A number with no unit after it; a bare number is ambiguous between systems.
        case missingUnit(String)
        /// The text after the number is not a known unit in any supported language.
        case unknownUnit(String)

        public var description: String {
            switch self {
            case .empty:
                return "The distance text is empty."
            case .tooLong(let length):
                return "The distance text is \(length) characters long; at most \(MKDistanceFormatter.maximumParsedLength) are accepted."
            case .missingNumber(let text):
                return "The distance text \"\(text)\" does not start with a number."
            case .invalidNumber(let number):
                return "\"\(number)\" is not a number in the formatter's locale format or in plain 1234.5 form."
            case .missingUnit(let text):
                return "The distance \"\(text)\" has no unit; add one such as m, km, ft, yd or mi."
            case .unknownUnit(let unit):
                return "\"\(unit)\" is not a known distance unit; use m, km, ft, yd or mi (or their full names)."
            }
        }
    }

    /// The longest string, in Unicode scalars, that ``parse(_:)`` reads.
    public static let maximumParsedLength = 256

    private var storedLocale: Locale = .autoupdatingCurrent

    /// The locale for numbers, unit words and the ``Units/default`` measurement system.
    /// Defaults to the current locale; assigning `nil` restores it.
    public var locale: Locale! {
        get { storedLocale }
        set { storedLocale = newValue ?? .autoupdatingCurrent }
    }

    /// The measuring system to use. ``Units/default`` follows ``locale``.
    public var units: Units = .default

    /// How unit names are written.
    public var unitStyle: DistanceUnitStyle = .default

    /// A formatter for the current locale, with default units and style.
    public override init() {
        super.init()
    }

    private enum CodingKey {
        static let locale = "OMKDistanceFormatterLocale"
        static let units = "OMKDistanceFormatterUnits"
        static let unitStyle = "OMKDistanceFormatterUnitStyle"
    }

    /// Restores a formatter archived with ``encode(with:)``; unknown or missing values fall
    /// back to the defaults.
    public required init?(coder: NSCoder) {
        super.init()
        guard coder.allowsKeyedCoding else { return }
        if let identifier = coder.decodeObject(of: NSString.self, forKey: CodingKey.locale) {
            storedLocale = Locale(identifier: String(describing: identifier))
        }
        units = Units(rawValue: UInt(clamping: coder.decodeInteger(forKey: CodingKey.units))) ?? .default
        unitStyle = DistanceUnitStyle(rawValue: UInt(clamping: coder.decodeInteger(forKey: CodingKey.unitStyle))) ?? .default
    }

    /// Archives the locale identifier, units and unit style (keyed coders only).
    public override func encode(with coder: NSCoder) {
        guard coder.allowsKeyedCoding else { return }
        coder.encode(NSString(string: storedLocale.identifier), forKey: CodingKey.locale)
        coder.encode(Int(units.rawValue), forKey: CodingKey.units)
        coder.encode(Int(unitStyle.rawValue), forKey: CodingKey.unitStyle)
    }

    /// An independent formatter with the same settings (NSCopying).
    public override func copy(with zone: NSZone? = nil) -> Any {
        let copy = MKDistanceFormatter()
        copy.storedLocale = storedLocale
        copy.units = units
        copy.unitStyle = unitStyle
        return copy
    }

    /// The units actually used: ``units``, or for ``Units/default`` the locale's measurement
    /// system (metric → `.metric`, US → `.imperial`, UK → `.imperialWithYards`).
    public var effectiveUnits: Units {
        if units != .default { return units }
        switch storedLocale.measurementSystem {
        case .us: return .imperial
        case .uk: return .imperialWithYards
        default: return .metric
        }
    }

    // MARK: Formatting

    /// The distance as a rounded, localised string such as "1.2 km" or "500 ft".
    ///
    /// See the type's documentation for the rounding table. Returns an empty string for NaN or
    /// infinite distances.
    public func string(fromDistance distance: CLLocationDistance) -> String {
        guard distance.isFinite else { return "" }
        let quantity = Self.roundedQuantity(metres: distance, units: effectiveUnits)
        let language = UnitLanguage(locale: storedLocale)
        let number = quantity.value.formatted(
            .number.precision(.fractionLength(0...quantity.maximumFractionDigits)).locale(storedLocale))
        let word: String
        switch unitStyle {
        case .default, .abbreviated:
            word = language.symbol(for: quantity.unit)
        case .full:
            word = language.name(for: quantity.unit, plural: !language.isSingular(quantity.value.magnitude))
        }
        return number + " " + word
    }

    /// Formats a number (`Double`, `Float`, any integer, or `NSNumber`) as a distance in metres;
    /// `nil` for anything else.
    public override func string(for obj: Any?) -> String? {
        guard let obj else { return nil }
        let metres: Double
        switch obj {
        case let value as Double: metres = value
        case let value as Float: metres = Double(value)
        case let value as NSNumber: metres = value.doubleValue
        case let value as any BinaryInteger: metres = Double(value)
        case let value as any BinaryFloatingPoint: metres = Double(value)
        default: return nil
        }
        return string(fromDistance: metres)
    }

    struct Quantity: Equatable {
        var value: Double
        var unit: LengthUnit
        var maximumFractionDigits: Int
    }

    /// Rounds `metres` to the unit and step of the rounding table, keeping the sign (but never
    /// producing −0).
    static func roundedQuantity(metres: Double, units: Units) -> Quantity {
        var quantity = roundedMagnitude(metres.magnitude, units: units)
        if metres < 0, quantity.value != 0 { quantity.value = -quantity.value }
        return quantity
    }

    private static func roundedMagnitude(_ metres: Double, units: Units) -> Quantity {
        switch units {
        case .default, .metric:
            if let small = roundedSmallUnit(metres / LengthUnit.meter.metres, unit: .meter,
                                            steps: [(10, 1), (100, 5), (500, 10), (1000, 50)]) {
                return small
            }
            return roundedLargeUnit(metres / LengthUnit.kilometer.metres, unit: .kilometer)
        case .imperial:
            if let small = roundedSmallUnit(metres / LengthUnit.foot.metres, unit: .foot,
                                            steps: [(10, 1), (100, 10), (528, 50)]) {
                return small
            }
            return roundedLargeUnit(metres / LengthUnit.mile.metres, unit: .mile)
        case .imperialWithYards:
            if let small = roundedSmallUnit(metres / LengthUnit.yard.metres, unit: .yard,
                                            steps: [(10, 1), (176, 10)]) {
                return small
            }
            return roundedLargeUnit(metres / LengthUnit.mile.metres, unit: .mile)
        }
    }

    /// `steps` lists (upper bound, step) pairs; the last bound is where the large unit takes
    /// over. `nil` when the value, before or after rounding, reaches that bound.
    private static func roundedSmallUnit(_ value: Double, unit: LengthUnit, steps: [(below: Double, step: Double)]) -> Quantity? {
        guard let threshold = steps.last?.below,
              let step = steps.first(where: { value < $0.below })?.step else { return nil }
        let rounded = (value / step).rounded(.toNearestOrAwayFromZero) * step
        return rounded < threshold ? Quantity(value: rounded, unit: unit, maximumFractionDigits: 0) : nil
    }

    private static func roundedLargeUnit(_ value: Double, unit: LengthUnit) -> Quantity {
        if value < 10 {
            return Quantity(value: (value * 10).rounded(.toNearestOrAwayFromZero) / 10, unit: unit, maximumFractionDigits: 1)
        }
        return Quantity(value: value.rounded(.toNearestOrAwayFromZero), unit: unit, maximumFractionDigits: 0)
    }

    // MARK: Parsing

    /// The distance in metres described by `string`, or −1 when it can't be parsed.
    ///
    /// A negative distance written in the string ("-2 km") also gives a negative result; use
    /// ``parse(_:)`` when the two must be told apart.
    public func distance(from string: String) -> CLLocationDistance {
        (try? parse(string)) ?? -1
    }

    /// The distance in metres described by `string`.
    ///
    /// Accepts a number followed by a unit, with or without a space between them:
    /// - the number in the locale's format ("1.234,5" in German, "1 234,5" in French) or in plain
    ///   form with a full stop and no grouping ("1.5"); the locale's format is tried first, so
    ///   "1.234 km" in German is 1234 km while "1.5 km" is 1.5 km. Any Unicode decimal digits
    ///   are accepted, as are a leading "+", "-" or "−".
    /// - the unit as a symbol or a singular or plural name in any language of the built-in table,
    ///   ignoring case, accents and character width ("KM", "kilomètres", "Meilen", "ヤード").
    ///
    /// - Throws: ``ParseError`` when the text is empty, too long, has no number, an invalid
    ///   number, no unit or an unknown unit.
    public func parse(_ string: String) throws(ParseError) -> CLLocationDistance {
        let scalars = string.unicodeScalars.filter { !Self.invisibleMarks.contains($0.value) }
        guard scalars.count <= Self.maximumParsedLength else { throw .tooLong(length: scalars.count) }
        var text = Array(scalars)
        while let first = text.first, Self.isSpace(first) { text.removeFirst() }
        while let last = text.last, Self.isSpace(last) { text.removeLast() }
        guard !text.isEmpty else { throw .empty }

        var index = 0
        var sign = 1.0
        if Self.minusSigns.contains(text[0].value) {
            sign = -1
            index = 1
        } else if text[0] == "+" {
            index = 1
        }
        let numberStart = index
        while index < text.count {
            let scalar = text[index]
            if Self.isDecimalDigit(scalar) || Self.numberPunctuation.contains(scalar.value) {
                index += 1
            } else if Self.isSpace(scalar), index > numberStart, Self.isDecimalDigit(text[index - 1]),
                      index + 1 < text.count, Self.isDecimalDigit(text[index + 1]) {
                // A space between digits is a group separator ("1 234" in French); a space
                // before the unit is not.
                index += 1
            } else {
                break
            }
        }
        let numberScalars = Array(text[numberStart..<index])
        var unitScalars = Array(text[index...])
        while let first = unitScalars.first, Self.isSpace(first) { unitScalars.removeFirst() }
        let original = Self.string(text)

        guard numberScalars.contains(where: Self.isDecimalDigit) else { throw .missingNumber(original) }
        guard let number = parseNumber(numberScalars) else { throw .invalidNumber(Self.string(numberScalars)) }
        guard !unitScalars.isEmpty else { throw .missingUnit(original) }
        let unitText = Self.string(unitScalars)
        guard let unit = Self.unit(named: unitText) else { throw .unknownUnit(unitText) }
        return sign * number * unit.metres
    }

    private func parseNumber(_ scalars: [Unicode.Scalar]) -> Double? {
        let decimal = storedLocale.decimalSeparator.flatMap { $0.unicodeScalars.count == 1 ? $0.unicodeScalars.first : nil } ?? "."
        var groups: Set<UInt32> = []
        if let separator = storedLocale.groupingSeparator, separator.unicodeScalars.count == 1,
           let scalar = separator.unicodeScalars.first {
            if Self.isSpace(scalar) {
                groups = Self.spaceSeparators
            } else if scalar == "\u{2019}" || scalar == "'" {
                groups = [0x2019, 0x27]
            } else {
                groups = [scalar.value]
            }
        }
        groups.remove(decimal.value)
        if let value = Self.number(scalars, decimal: decimal.value, groupSeparators: groups) { return value }
        return Self.number(scalars, decimal: 0x2E, groupSeparators: [])
    }

    /// Reads `[digits with group separators][decimal separator digits]`. Grouping must be
    /// plausible: groups of one to three digits first, then two or three, then exactly three
    /// last (which admits both 1,234,567 and the Indian 12,34,567).
    private static func number(_ scalars: [Unicode.Scalar], decimal: UInt32, groupSeparators: Set<UInt32>) -> Double? {
        var integerGroups: [String] = [""]
        var fraction: String?
        for scalar in scalars {
            if scalar.value == decimal {
                guard fraction == nil else { return nil }
                fraction = ""
            } else if let digit = decimalDigitValue(scalar) {
                let character = Character(Unicode.Scalar(UInt8(48 + digit)))
                if fraction != nil {
                    fraction?.append(character)
                } else {
                    integerGroups[integerGroups.count - 1].append(character)
                }
            } else if groupSeparators.contains(scalar.value), fraction == nil {
                integerGroups.append("")
            } else {
                return nil
            }
        }
        if integerGroups.count > 1 {
            for (position, group) in integerGroups.enumerated() {
                let allowed: ClosedRange<Int>
                if position == 0 { allowed = 1...3 } else if position == integerGroups.count - 1 { allowed = 3...3 } else { allowed = 2...3 }
                guard allowed.contains(group.count) else { return nil }
            }
        }
        let integer = integerGroups.joined()
        if let fraction, fraction.isEmpty { return nil }
        guard !integer.isEmpty || fraction != nil else { return nil }
        let literal = (integer.isEmpty ? "0" : integer) + (fraction.map { "." + $0 } ?? "")
        guard let value = Double(literal), value.isFinite else { return nil }
        return value
    }

    private static func unit(named text: String) -> LengthUnit? {
        var key = fold(text)
        if key.hasSuffix(".") { key.removeLast() }
        return unitAliases[key]
    }

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Every symbol and name in the table, folded, plus a few common spellings.
    private static let unitAliases: [String: LengthUnit] = {
        var aliases: [String: LengthUnit] = [:]
        for language in UnitLanguage.all {
            for unit in LengthUnit.allCases {
                for word in [language.symbol(for: unit), language.name(for: unit, plural: false),
                             language.name(for: unit, plural: true)] {
                    aliases[fold(word)] = unit
                }
            }
        }
        let extras: [(String, LengthUnit)] = [
            ("kms", .kilometer), ("mts", .meter), ("mtr", .meter), ("yds", .yard),
            ("fuss", .foot), ("mls", .mile), ("キロ", .kilometer),
        ]
        for (word, unit) in extras { aliases[fold(word)] = unit }
        return aliases
    }()

    // Bidirectional formatting marks that number formatting adds for right-to-left locales.
    private static let invisibleMarks: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
                                                      0x2066, 0x2067, 0x2068, 0x2069]
    private static let minusSigns: Set<UInt32> = [0x2D, 0x2212]
    private static let spaceSeparators: Set<UInt32> = [0x20, 0xA0, 0x2009, 0x202F]
    // Characters that may appear inside a number in some locale: . , ' ’ and the Arabic
    // decimal and group separators.
    private static let numberPunctuation: Set<UInt32> = [0x2E, 0x2C, 0x27, 0x2019, 0x066B, 0x066C]

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    private static func isDecimalDigit(_ scalar: Unicode.Scalar) -> Bool {
        decimalDigitValue(scalar) != nil
    }

    private static func decimalDigitValue(_ scalar: Unicode.Scalar) -> Int? {
        guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue,
              value >= 0, value <= 9 else { return nil }
        return Int(value)
    }

    private static func string(_ scalars: [Unicode.Scalar]) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }
}

/// The units the formatter writes and reads.
enum LengthUnit: CaseIterable, Sendable {
    case meter, kilometer, foot, yard, mile

    /// Exact by definition (the international yard and pound agreement, 1959).
    var metres: Double {
        switch self {
        case .meter: return 1
        case .kilometer: return 1000
        case .foot: return 0.3048
        case .yard: return 0.9144
        case .mile: return 1609.344
        }
    }
}

/// Unit words for one language and its singular/plural rule (CLDR's "one" category, reduced to
/// the numbers this formatter can produce: whole numbers and one decimal place).
struct UnitLanguage: Sendable {
    enum PluralRule: Sendable {
        /// "one" only for exactly 1 (English, German, Spanish, Italian, Dutch, European Portuguese).
        case exactlyOne
        /// "one" when the integer part is 0 or 1 (French, Brazilian Portuguese): "1,5 kilomètre".
        case integerPartZeroOrOne
        /// No plural forms (Japanese).
        case none
    }

    /// Symbols in `LengthUnit.allCases` order: metre, kilometre, foot, yard, mile.
    var symbols: [String]
    var singular: [String]
    var plural: [String]
    var pluralRule: PluralRule

    func symbol(for unit: LengthUnit) -> String { symbols[Self.index(unit)] }

    func name(for unit: LengthUnit, plural isPlural: Bool) -> String {
        isPlural ? plural[Self.index(unit)] : singular[Self.index(unit)]
    }

    func isSingular(_ magnitude: Double) -> Bool {
        switch pluralRule {
        case .exactlyOne: return magnitude == 1
        case .integerPartZeroOrOne: return magnitude < 2
        case .none: return false
        }
    }

    private static func index(_ unit: LengthUnit) -> Int {
        switch unit {
        case .meter: return 0
        case .kilometer: return 1
        case .foot: return 2
        case .yard: return 3
        case .mile: return 4
        }
    }

    private static let standardSymbols = ["m", "km", "ft", "yd", "mi"]

    static let englishUS = UnitLanguage(
        symbols: standardSymbols,
        singular: ["meter", "kilometer", "foot", "yard", "mile"],
        plural: ["meters", "kilometers", "feet", "yards", "miles"], pluralRule: .exactlyOne)
    static let englishInternational = UnitLanguage(
        symbols: standardSymbols,
        singular: ["metre", "kilometre", "foot", "yard", "mile"],
        plural: ["metres", "kilometres", "feet", "yards", "miles"], pluralRule: .exactlyOne)
    static let french = UnitLanguage(
        symbols: ["m", "km", "pi", "yd", "mi"],
        singular: ["mètre", "kilomètre", "pied", "yard", "mile"],
        plural: ["mètres", "kilomètres", "pieds", "yards", "miles"], pluralRule: .integerPartZeroOrOne)
    static let german = UnitLanguage(
        symbols: standardSymbols,
        singular: ["Meter", "Kilometer", "Fuß", "Yard", "Meile"],
        plural: ["Meter", "Kilometer", "Fuß", "Yards", "Meilen"], pluralRule: .exactlyOne)
    static let spanish = UnitLanguage(
        symbols: standardSymbols,
        singular: ["metro", "kilómetro", "pie", "yarda", "milla"],
        plural: ["metros", "kilómetros", "pies", "yardas", "millas"], pluralRule: .exactlyOne)
    static let italian = UnitLanguage(
        symbols: standardSymbols,
        singular: ["metro", "chilometro", "piede", "iarda", "miglio"],
        plural: ["metri", "chilometri", "piedi", "iarde", "miglia"], pluralRule: .exactlyOne)
    static let portugueseBrazil = UnitLanguage(
        symbols: standardSymbols,
        singular: ["metro", "quilômetro", "pé", "jarda", "milha"],
        plural: ["metros", "quilômetros", "pés", "jardas", "milhas"], pluralRule: .integerPartZeroOrOne)
    static let portuguesePortugal = UnitLanguage(
        symbols: standardSymbols,
        singular: ["metro", "quilómetro", "pé", "jarda", "milha"],
        plural: ["metros", "quilómetros", "pés", "jardas", "milhas"], pluralRule: .exactlyOne)
    static let dutch = UnitLanguage(
        symbols: standardSymbols,
        singular: ["meter", "kilometer", "voet", "yard", "mijl"],
        plural: ["meter", "kilometer", "voet", "yard", "mijl"], pluralRule: .exactlyOne)
    static let japanese = UnitLanguage(
        symbols: standardSymbols,
        singular: ["メートル", "キロメートル", "フィート", "ヤード", "マイル"],
        plural: ["メートル", "キロメートル", "フィート", "ヤード", "マイル"], pluralRule: .none)

    static let all: [UnitLanguage] = [englishUS, englishInternational, french, german, spanish, italian,
                                      portugueseBrazil, portuguesePortugal, dutch, japanese]

    // English regions that spell "meter"; the rest of the English-speaking world (and CLDR's
    // en_001) writes "metre".
    private static let americanSpellingRegions: Set<String> = ["US", "PR", "VI", "UM", "AS", "GU", "MP"]

    init(symbols: [String], singular: [String], plural: [String], pluralRule: PluralRule) {
        self.symbols = symbols
        self.singular = singular
        self.plural = plural
        self.pluralRule = pluralRule
    }

    /// The table entry for `locale`'s language; English for languages outside the table.
    init(locale: Locale) {
        let region = locale.region?.identifier
        switch locale.language.languageCode?.identifier {
        case "fr": self = .french
        case "de": self = .german
        case "es": self = .spanish
        case "it": self = .italian
        case "pt": self = region == nil || region == "BR" ? .portugueseBrazil : .portuguesePortugal
        case "nl": self = .dutch
        case "ja": self = .japanese
        case "en":
            self = (region.map { Self.americanSpellingRegions.contains($0) } ?? true) ? .englishUS : .englishInternational
        default: self = .englishUS
        }
    }
}
