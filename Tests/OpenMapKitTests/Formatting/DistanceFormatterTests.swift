import Foundation
import XCTest
@testable import OpenMapKit

final class DistanceFormatterTests: XCTestCase {
    // Exact conversions, restated here so the tests don't lean on the implementation's table.
    private let foot = 0.3048
    private let yard = 0.9144
    private let mile = 1609.344

    private func formatter(_ locale: String, _ units: MKDistanceFormatter.Units = .default,
                           _ style: MKDistanceFormatter.DistanceUnitStyle = .abbreviated) -> MKDistanceFormatter {
        let formatter = MKDistanceFormatter()
        formatter.locale = Locale(identifier: locale)
        formatter.units = units
        formatter.unitStyle = style
        return formatter
    }

    private struct Row {
        var locale: String
        var units: MKDistanceFormatter.Units
        var style: MKDistanceFormatter.DistanceUnitStyle
        var metres: Double
        var expected: String
        var line: UInt

        init(_ locale: String, _ units: MKDistanceFormatter.Units, _ style: MKDistanceFormatter.DistanceUnitStyle,
             _ metres: Double, _ expected: String, line: UInt = #line) {
            self.locale = locale
            self.units = units
            self.style = style
            self.metres = metres
            self.expected = expected
            self.line = line
        }
    }

    private func check(_ rows: [Row]) {
        for row in rows {
            let actual = formatter(row.locale, row.units, row.style).string(fromDistance: row.metres)
            XCTAssertEqual(actual, row.expected, "\(row.locale) \(row.units) \(row.style) \(row.metres) m", line: row.line)
        }
    }

    // MARK: Rounding table

    func testMetricRoundingSteps() {
        check([
            Row("en_US", .metric, .abbreviated, 0, "0 m"),
            Row("en_US", .metric, .abbreviated, 3.4, "3 m"),
            Row("en_US", .metric, .abbreviated, 3.5, "4 m"),
            Row("en_US", .metric, .abbreviated, 9.6, "10 m"),
            Row("en_US", .metric, .abbreviated, 12.4, "10 m"),
            Row("en_US", .metric, .abbreviated, 12.5, "15 m"),
            Row("en_US", .metric, .abbreviated, 97.5, "100 m"),
            Row("en_US", .metric, .abbreviated, 123, "120 m"),
            Row("en_US", .metric, .abbreviated, 125, "130 m"),
            Row("en_US", .metric, .abbreviated, 499, "500 m"),
            Row("en_US", .metric, .abbreviated, 520, "500 m"),
            Row("en_US", .metric, .abbreviated, 525, "550 m"),
            Row("en_US", .metric, .abbreviated, 974, "950 m"),
            // Rounds up to 1000 m, so it is shown in kilometres.
            Row("en_US", .metric, .abbreviated, 975, "1 km"),
            Row("en_US", .metric, .abbreviated, 1000, "1 km"),
            Row("en_US", .metric, .abbreviated, 1234, "1.2 km"),
            Row("en_US", .metric, .abbreviated, 1250, "1.3 km"),
            Row("en_US", .metric, .abbreviated, 9949, "9.9 km"),
            Row("en_US", .metric, .abbreviated, 9950, "10 km"),
            Row("en_US", .metric, .abbreviated, 12_345, "12 km"),
            Row("en_US", .metric, .abbreviated, 1_234_567, "1,235 km"),
        ])
    }

    func testImperialRoundingSteps() {
        check([
            Row("en_US", .imperial, .abbreviated, 1, "3 ft"),           // 3.28 ft
            Row("en_US", .imperial, .abbreviated, 10, "30 ft"),         // 32.8 ft
            Row("en_US", .imperial, .abbreviated, 30, "100 ft"),        // 98.4 ft
            Row("en_US", .imperial, .abbreviated, 100, "350 ft"),       // 328.1 ft
            Row("en_US", .imperial, .abbreviated, 150, "500 ft"),       // 492.1 ft
            Row("en_US", .imperial, .abbreviated, 160, "500 ft"),       // 524.9 ft
            Row("en_US", .imperial, .abbreviated, 160.7, "0.1 mi"),     // 527.2 ft rounds to 550 ≥ 528
            Row("en_US", .imperial, .abbreviated, 500, "0.3 mi"),       // 0.311 mi
            Row("en_US", .imperial, .abbreviated, mile, "1 mi"),
            Row("en_US", .imperial, .abbreviated, 5000, "3.1 mi"),
            Row("en_US", .imperial, .abbreviated, 10 * mile, "10 mi"),
            Row("en_US", .imperial, .abbreviated, 20_000, "12 mi"),     // 12.43 mi
        ])
    }

    func testImperialWithYardsRoundingSteps() {
        check([
            Row("en_GB", .imperialWithYards, .abbreviated, 5, "5 yd"),     // 5.47 yd
            Row("en_GB", .imperialWithYards, .abbreviated, 50, "50 yd"),   // 54.7 yd
            Row("en_GB", .imperialWithYards, .abbreviated, 100, "110 yd"), // 109.4 yd
            Row("en_GB", .imperialWithYards, .abbreviated, 157, "170 yd"), // 171.7 yd
            Row("en_GB", .imperialWithYards, .abbreviated, 160, "170 yd"), // 174.98 yd
            Row("en_GB", .imperialWithYards, .abbreviated, 160.3, "0.1 mi"), // 175.3 yd rounds to 180 ≥ 176
            Row("en_GB", .imperialWithYards, .abbreviated, 1000, "0.6 mi"),
            Row("en_GB", .imperialWithYards, .abbreviated, 100_000, "62 mi"),
        ])
    }

    // MARK: Locales × units × styles

    func testLocalisedTable() {
        let nnbsp = "\u{202F}"
        check([
            // English: full names with singular/plural; US vs international spelling.
            Row("en_US", .imperial, .full, mile, "1 mile"),
            Row("en_US", .imperial, .full, 2 * mile, "2 miles"),
            Row("en_US", .imperial, .full, 1.5 * mile, "1.5 miles"),
            Row("en_US", .imperial, .full, foot, "1 foot"),
            Row("en_US", .imperial, .full, 2 * foot, "2 feet"),
            Row("en_US", .imperialWithYards, .full, yard, "1 yard"),
            Row("en_US", .imperialWithYards, .full, 7 * yard, "7 yards"),
            Row("en_US", .metric, .full, 1000, "1 kilometer"),
            Row("en_US", .metric, .full, 1500, "1.5 kilometers"),
            Row("en_US", .metric, .full, 1, "1 meter"),
            Row("en_US", .metric, .full, 0, "0 meters"),
            Row("en_GB", .metric, .full, 1000, "1 kilometre"),
            Row("en_GB", .metric, .full, 2, "2 metres"),
            Row("en_AU", .metric, .full, 2, "2 metres"),
            Row("en", .metric, .full, 2, "2 meters"),
            // French: decimal comma, narrow no-break space grouping, "one" for 0 ≤ n < 2.
            Row("fr_FR", .metric, .abbreviated, 1234, "1,2 km"),
            Row("fr_FR", .metric, .abbreviated, 12_345_678, "12\(nnbsp)346 km"),
            Row("fr_FR", .metric, .full, 1500, "1,5 kilomètre"),
            Row("fr_FR", .metric, .full, 2500, "2,5 kilomètres"),
            Row("fr_FR", .metric, .full, 0, "0 mètre"),
            Row("fr_FR", .imperial, .abbreviated, 30 * foot, "30 pi"),
            Row("fr_CA", .imperial, .full, 3 * mile, "3 miles"),
            // German.
            Row("de_DE", .metric, .abbreviated, 1234, "1,2 km"),
            Row("de_DE", .metric, .abbreviated, 1_234_567, "1.235 km"),
            Row("de_DE", .metric, .full, 1, "1 Meter"),
            Row("de_DE", .imperial, .full, mile, "1 Meile"),
            Row("de_DE", .imperial, .full, 2 * mile, "2 Meilen"),
            Row("de_CH", .metric, .abbreviated, 1_234_567, "1\u{2019}235 km"),
            // Spanish (no grouping of four-digit numbers).
            Row("es_ES", .metric, .full, 1000, "1 kilómetro"),
            Row("es_ES", .metric, .full, 2000, "2 kilómetros"),
            Row("es_ES", .metric, .abbreviated, 1500, "1,5 km"),
            Row("es_ES", .metric, .abbreviated, 1_234_567, "1235 km"),
            Row("es_ES", .metric, .abbreviated, 12_345_678, "12.346 km"),
            Row("es_ES", .imperialWithYards, .full, 3 * yard, "3 yardas"),
            // Italian.
            Row("it_IT", .imperial, .full, 2 * mile, "2 miglia"),
            Row("it_IT", .imperial, .full, mile, "1 miglio"),
            Row("it_IT", .metric, .full, 1, "1 metro"),
            Row("it_IT", .metric, .full, 5, "5 metri"),
            // Portuguese: Brazil ("one" below 2) and Portugal ("one" only for 1).
            Row("pt_BR", .metric, .full, 1500, "1,5 quilômetro"),
            Row("pt_BR", .metric, .full, 2500, "2,5 quilômetros"),
            Row("pt_PT", .metric, .full, 1500, "1,5 quilómetros"),
            Row("pt_PT", .metric, .full, 1000, "1 quilómetro"),
            Row("pt_BR", .imperial, .full, 2 * foot, "2 pés"),
            // Dutch: no plural forms for these units.
            Row("nl_NL", .metric, .full, 2000, "2 kilometer"),
            Row("nl_NL", .imperial, .full, 3 * mile, "3 mijl"),
            Row("nl_NL", .metric, .abbreviated, 1234, "1,2 km"),
            // Japanese: symbols abbreviated, katakana in full.
            Row("ja_JP", .metric, .abbreviated, 1234, "1.2 km"),
            Row("ja_JP", .metric, .full, 1234, "1.2 キロメートル"),
            Row("ja_JP", .metric, .full, 1000, "1 キロメートル"),
            Row("ja_JP", .imperialWithYards, .full, 50 * yard, "50 ヤード"),
            // Outside the table: English words, the locale's digits and separators.
            Row("ar_EG", .metric, .abbreviated, 1234, "\u{661}\u{66B}\u{662} km"),
            Row("ru_RU", .metric, .full, 2000, "2 kilometers"),
            Row("en_IN", .metric, .abbreviated, 1_234_567_000, "12,34,567 km"),
        ])
    }

    func testDefaultUnitsFollowTheLocaleMeasurementSystem() {
        XCTAssertEqual(formatter("en_US").effectiveUnits, .imperial)
        XCTAssertEqual(formatter("en_GB").effectiveUnits, .imperialWithYards)
        XCTAssertEqual(formatter("fr_FR").effectiveUnits, .metric)
        XCTAssertEqual(formatter("en_US@measure=metric").effectiveUnits, .metric)
        XCTAssertEqual(formatter("en_US", .metric).effectiveUnits, .metric)
        check([
            Row("en_US", .default, .abbreviated, 100, "350 ft"),
            Row("en_GB", .default, .abbreviated, 100, "110 yd"),
            Row("fr_FR", .default, .abbreviated, 100, "100 m"),
            Row("en_US", .default, .abbreviated, 1000, "0.6 mi"),
            Row("en_GB", .default, .abbreviated, 1000, "0.6 mi"),
            Row("de_DE", .default, .abbreviated, 1000, "1 km"),
        ])
    }

    func testDefaultStyleIsAbbreviated() {
        for distance in [0.0, 7, 350, 1234, 55_555] {
            for locale in ["en_US", "fr_FR", "ja_JP"] {
                XCTAssertEqual(formatter(locale, .metric, .default).string(fromDistance: distance),
                               formatter(locale, .metric, .abbreviated).string(fromDistance: distance))
            }
        }
    }

    func testDefaults() {
        let formatter = MKDistanceFormatter()
        XCTAssertEqual(formatter.units, .default)
        XCTAssertEqual(formatter.unitStyle, .default)
        XCTAssertEqual(formatter.locale.identifier, Locale.current.identifier)
        formatter.locale = Locale(identifier: "de_DE")
        XCTAssertEqual(formatter.locale.identifier, "de_DE")
        formatter.locale = nil
        XCTAssertEqual(formatter.locale.identifier, Locale.current.identifier)
        XCTAssertEqual(MKDistanceFormatter.Units.allCases.map(\.rawValue), [0, 1, 2, 3])
        XCTAssertEqual(MKDistanceFormatter.DistanceUnitStyle.allCases.map(\.rawValue), [0, 1, 2])
    }

    func testNegativeAndNonFiniteDistances() {
        check([
            Row("en_US", .metric, .abbreviated, -1234, "-1.2 km"),
            Row("en_US", .metric, .abbreviated, -2, "-2 m"),
            Row("en_US", .metric, .abbreviated, -0.4, "0 m"),
            Row("en_US", .metric, .abbreviated, -0.0, "0 m"),
            Row("en_US", .imperial, .full, -mile, "-1 mile"),
            Row("fr_FR", .metric, .abbreviated, -1234, "-1,2 km"),
        ])
        let formatter = formatter("en_US", .metric)
        XCTAssertEqual(formatter.string(fromDistance: .nan), "")
        XCTAssertEqual(formatter.string(fromDistance: .infinity), "")
        XCTAssertEqual(formatter.string(fromDistance: -.infinity), "")
        let huge = formatter.string(fromDistance: .greatestFiniteMagnitude)
        XCTAssertTrue(huge.hasSuffix(" km") && huge.hasPrefix("179,769,313"), huge)
        XCTAssertEqual(formatter.string(fromDistance: .leastNonzeroMagnitude), "0 m")
    }

    func testFormatterOverrideAcceptsNumbersOnly() {
        let formatter = formatter("en_US", .metric)
        XCTAssertEqual(formatter.string(for: 1234.0), "1.2 km")
        XCTAssertEqual(formatter.string(for: 1234), "1.2 km")
        XCTAssertEqual(formatter.string(for: Float(50)), "50 m")
        XCTAssertEqual(formatter.string(for: UInt8(7)), "7 m")
        XCTAssertEqual(formatter.string(for: NSNumber(value: 2000)), "2 km")
        XCTAssertNil(formatter.string(for: "1234"))
        XCTAssertNil(formatter.string(for: nil))
        XCTAssertEqual(formatter.editingString(for: 1234.0), "1.2 km")
    }

    func testCopyAndArchiveKeepSettings() throws {
        let original = formatter("de_DE", .imperialWithYards, .full)
        let copy = try XCTUnwrap(original.copy() as? MKDistanceFormatter)
        XCTAssertFalse(copy === original)
        XCTAssertEqual(copy.string(fromDistance: 2 * mile), "2 Meilen")
        copy.units = .metric
        XCTAssertEqual(original.units, .imperialWithYards)

        let data = try NSKeyedArchiver.archivedData(withRootObject: original, requiringSecureCoding: false)
        let restored = try XCTUnwrap(NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(data) as? MKDistanceFormatter)
        XCTAssertEqual(restored.locale.identifier, "de_DE")
        XCTAssertEqual(restored.units, .imperialWithYards)
        XCTAssertEqual(restored.unitStyle, .full)
    }

    // MARK: Parsing

    func testParsesLocalisedAndPlainNumbersWithAnyUnitWord() throws {
        let cases: [(locale: String, text: String, metres: Double, line: UInt)] = [
            ("fr_FR", "1,2 km", 1200, #line),
            ("fr_FR", "500 ft", 152.4, #line),
            ("fr_FR", "3 miles", 4828.032, #line),
            ("en_US", "1.5 km", 1500, #line),
            ("en_US", "1.5km", 1500, #line),
            ("en_US", "  2 KM \n", 2000, #line),
            ("en_US", "1,234 km", 1_234_000, #line),
            ("en_US", ".5 mi", 804.672, #line),
            ("en_US", "5 km.", 5000, #line),
            ("en_US", "3 yds", 3 * 0.9144, #line),
            ("en_US", "7 feet", 7 * 0.3048, #line),
            ("en_US", "1 foot", 0.3048, #line),
            ("en_US", "2 kilometres", 2000, #line),
            ("en_US", "2 Kilomètres", 2000, #line),
            ("en_US", "10 Meilen", 16_093.44, #line),
            ("en_US", "1 Fuß", 0.3048, #line),
            ("en_US", "4 pieds", 4 * 0.3048, #line),
            ("en_US", "2 quilômetros", 2000, #line),
            ("en_US", "2 chilometri", 2000, #line),
            ("en_US", "3 ヤード", 3 * 0.9144, #line),
            ("en_US", "１２ ｋｍ", 12_000, #line),
            ("en_US", "-2 km", -2000, #line),
            ("en_US", "\u{2212}2 km", -2000, #line),
            ("en_US", "+2 km", 2000, #line),
            ("fr_FR", "1\u{202F}234,5 m", 1234.5, #line),
            ("fr_FR", "1\u{00A0}234,5 m", 1234.5, #line),
            ("fr_FR", "1 234,5 m", 1234.5, #line),
            ("fr_FR", "1.5 km", 1500, #line),
            ("de_DE", "1.234,5 m", 1234.5, #line),
            ("de_DE", "1.5 km", 1500, #line),
            // The locale's format wins: in German "1.234" is one thousand two hundred and thirty-four.
            ("de_DE", "1.234 km", 1_234_000, #line),
            ("de_CH", "1'234 m", 1234, #line),
            ("en_IN", "12,34,567 m", 1_234_567, #line),
            ("ar_EG", "\u{61C}-\u{661}\u{66B}\u{665} km", -1500, #line),
        ]
        for testCase in cases {
            let parsed = try formatter(testCase.locale).parse(testCase.text)
            XCTAssertEqual(parsed, testCase.metres, accuracy: 1e-9 * max(1, abs(testCase.metres)),
                           "\(testCase.locale) \(testCase.text)", line: testCase.line)
        }
    }

    func testParseErrors() {
        let english = formatter("en_US")
        let cases: [(text: String, error: MKDistanceFormatter.ParseError, line: UInt)] = [
            ("", .empty, #line),
            ("  \t ", .empty, #line),
            ("km", .missingNumber("km"), #line),
            ("about 5 km", .missingNumber("about 5 km"), #line),
            ("-", .missingNumber("-"), #line),
            ("5", .missingUnit("5"), #line),
            ("5 parsecs", .unknownUnit("parsecs"), #line),
            ("5 km away", .unknownUnit("km away"), #line),
            ("1,2 km", .invalidNumber("1,2"), #line),
            ("1,23 km", .invalidNumber("1,23"), #line),
            ("1.2.3 km", .invalidNumber("1.2.3"), #line),
            ("5. km", .invalidNumber("5."), #line),
            ("1.234,5 km", .invalidNumber("1.234,5"), #line),
        ]
        for testCase in cases {
            XCTAssertThrowsError(try english.parse(testCase.text), testCase.text, line: testCase.line) { error in
                XCTAssertEqual(error as? MKDistanceFormatter.ParseError, testCase.error, line: testCase.line)
            }
            XCTAssertEqual(english.distance(from: testCase.text), -1, testCase.text, line: testCase.line)
        }
        let long = String(repeating: "9", count: 300) + " km"
        XCTAssertThrowsError(try english.parse(long)) { error in
            XCTAssertEqual(error as? MKDistanceFormatter.ParseError, .tooLong(length: 303))
        }
        XCTAssertEqual(english.distance(from: "2 km"), 2000)
        // Messages say what went wrong.
        XCTAssertTrue(MKDistanceFormatter.ParseError.unknownUnit("parsecs").description.contains("parsecs"))
        XCTAssertTrue(MKDistanceFormatter.ParseError.missingUnit("5").description.contains("no unit"))
    }

    func testHostileInputDoesNotCrash() {
        let english = formatter("en_US")
        for text in ["\u{0}", "1\u{0}km", String(repeating: ",", count: 200), "9" + String(repeating: "0", count: 250) + "km",
                     "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦٧٨٩٠ km", "🚗 5 km", "5 🚗", "\u{200F}\u{200F}", "1e3 km", "0x10 km", "nan km", "inf km"] {
            _ = english.distance(from: text)
        }
        XCTAssertEqual(english.distance(from: "1e3 km"), -1)
        XCTAssertEqual(english.distance(from: "nan km"), -1)
    }

    /// Half the rounding step at `metres`, per the documented table.
    private func tolerance(_ metres: Double, _ units: MKDistanceFormatter.Units) -> Double {
        let d = abs(metres)
        switch units {
        case .metric, .default:
            if d < 9.5 { return 0.5 }
            if d < 97.5 { return 2.5 }
            if d < 495 { return 5 }
            if d < 1000 { return 25 }
            if d < 9950 { return 50 }
            return 500
        case .imperial:
            let ft = d / foot
            if ft < 9.5 { return 0.5 * foot }
            if ft < 95 { return 5 * foot }
            if ft < 528 { return 25 * foot }
            if d < 9.95 * mile { return 0.05 * mile }
            return 0.5 * mile
        case .imperialWithYards:
            let yd = d / yard
            if yd < 9.5 { return 0.5 * yard }
            if yd < 176 { return 5 * yard }
            if d < 9.95 * mile { return 0.05 * mile }
            return 0.5 * mile
        }
    }

    func testRoundTripWithinRounding() throws {
        let locales = ["en_US", "en_GB", "fr_FR", "de_DE", "es_ES", "it_IT", "pt_BR", "pt_PT", "nl_NL", "ja_JP",
                       "de_CH", "ar_EG", "ru_RU", "en_IN"]
        let units: [MKDistanceFormatter.Units] = [.metric, .imperial, .imperialWithYards]
        let styles: [MKDistanceFormatter.DistanceUnitStyle] = [.abbreviated, .full]
        let distances: [Double] = [0, 1, 7.3, 42, 99, 160, 333, 777, 1609.344, 4321, 12_345, 987_654, -2500]
        for locale in locales {
            for unit in units {
                for style in styles {
                    let formatter = formatter(locale, unit, style)
                    for distance in distances {
                        let text = formatter.string(fromDistance: distance)
                        let parsed = try formatter.parse(text)
                        XCTAssertLessThanOrEqual(abs(parsed - distance), tolerance(distance, unit) + 1e-6,
                                                 "\(locale) \(unit) \(style) \(distance) → \(text) → \(parsed)")
                        // Formatting the parsed value gives the same text: the rounding is stable.
                        XCTAssertEqual(formatter.string(fromDistance: parsed), text, "\(locale) \(unit) \(style) \(distance)")
                    }
                }
            }
        }
    }
}
