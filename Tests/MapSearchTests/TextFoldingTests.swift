import XCTest
@testable import MapSearch

final class TextFoldingTests: XCTestCase {
    func testCaseAndDiacriticsFold() {
        XCTAssertEqual(TextFolding.tokens("Sant Julià de Lòria"), ["sant", "julia", "de", "loria"])
        XCTAssertEqual(TextFolding.tokens("ÉGLISE Saint-Dévote"), ["eglise", "saint", "devote"])
        XCTAssertEqual(TextFolding.tokens("Œuvre Ærø Łódź"), ["oeuvre", "aero", "lodz"])
    }

    func testSharpSAndStrasseAbbreviations() {
        XCTAssertEqual(TextFolding.tokens("Äulestraße"), ["aulestrasse"])
        XCTAssertEqual(TextFolding.tokens("Äulestr."), ["aulestrasse"])
        XCTAssertEqual(TextFolding.tokens("Haupt Str. 5"), ["haupt", "strasse", "5"])
    }

    func testStreetTypeAbbreviationsExpand() {
        XCTAssertEqual(TextFolding.tokens("Av. de la Costa"), TextFolding.tokens("Avenue de la Costa"))
        XCTAssertEqual(TextFolding.tokens("Bd des Moulins"), TextFolding.tokens("Boulevard des Moulins"))
        XCTAssertEqual(TextFolding.tokens("Avda. Meritxell"), TextFolding.tokens("Avinguda Meritxell"))
        // "St" is ambiguous: left alone, widened at query time.
        XCTAssertEqual(TextFolding.tokens("St Paul"), ["st", "paul"])
        XCTAssertTrue(TextFolding.alternatives(of: "st").contains("street"))
        XCTAssertTrue(TextFolding.alternatives(of: "st").contains("saint"))
    }

    func testAbbreviationsFromTheDictionaryOfEveryLanguage() {
        // Whole words: "rd" road, "kj" kuja (Finnish), "pl" Platz, plats, place…
        XCTAssertTrue(TextFolding.alternatives(of: "rd").contains("road"))
        XCTAssertTrue(TextFolding.alternatives(of: "kj").contains("kuja"))
        XCTAssertTrue(TextFolding.alternatives(of: "pl").contains("platz"))
        XCTAssertTrue(TextFolding.alternatives(of: "pl").contains("plats"))
        // A word written in full is not widened to its abbreviations.
        XCTAssertEqual(TextFolding.alternatives(of: "costa"), ["costa"])
        // A one-letter abbreviation needs its dot; stop words are words.
        XCTAssertFalse(TextFolding.alternatives(of: "g").contains("gasse"))
        XCTAssertTrue(StreetAbbreviations.alternatives(of: "g", abbreviated: true).contains("gasse"))
        XCTAssertFalse(TextFolding.alternatives(of: "am").contains("amiral"))
        // Ends of compounds: three letters and more bare, shorter ones with the dot.
        XCTAssertTrue(TextFolding.alternatives(of: "bahnhofstr").contains("bahnhofstrasse"))
        XCTAssertFalse(TextFolding.alternatives(of: "drottningg").contains("drottninggata"))
        XCTAssertTrue(StreetAbbreviations.alternatives(of: "drottningg", abbreviated: true).contains("drottninggata"))
        XCTAssertTrue(StreetAbbreviations.alternatives(of: "schulg", abbreviated: true).contains("schulgasse"))
        XCTAssertTrue(StreetAbbreviations.alternatives(of: "aleksanterink", abbreviated: true).contains("aleksanterinkatu"))
    }

    func testDotsMarkAbbreviations() {
        let marked = TextFolding.rawTokensMarkingAbbreviations("Aleksanterink. 8, Hauptstr.5 St.-Martins-Ring Ö.")
        XCTAssertEqual(marked.map(\.word), TextFolding.rawTokens("Aleksanterink. 8, Hauptstr.5 St.-Martins-Ring Ö."))
        XCTAssertEqual(marked.map(\.dotted), [true, false, true, false, true, false, false, true])
    }

    func testControlCharactersAndPunctuationSeparateWords() {
        XCTAssertEqual(TextFolding.tokens("Monte\u{0}Carlo\n\t(casino)*\"OR\""), ["monte", "carlo", "casino", "or"])
        XCTAssertEqual(TextFolding.tokens("  \u{7}  "), [])
        XCTAssertEqual(TextFolding.tokens("l'Église"), ["l", "eglise"])
    }

    func testEditDistanceCountsTranspositionsAsOne() {
        func d(_ a: String, _ b: String, _ limit: Int = 3) -> Int {
            editDistance(a.unicodeScalars.map(\.value), b.unicodeScalars.map(\.value), limit: limit)
        }
        XCTAssertEqual(d("casino", "casino"), 0)
        XCTAssertEqual(d("casnio", "casino"), 1)
        XCTAssertEqual(d("kasino", "casino"), 1)
        XCTAssertEqual(d("casin", "casino"), 1)
        XCTAssertEqual(d("monaco", "vaduz", 2), 3, "capped at limit + 1")
    }
}

final class QueryParserTests: XCTestCase {
    func testNearAndInSplitTheAnchor() throws {
        let near = try XCTUnwrap(ParsedQuery("restaurant near Vaduz"))
        XCTAssertEqual(near.subject, ["restaurant"])
        XCTAssertEqual(near.anchor, ["vaduz"])
        let inClause = try XCTUnwrap(ParsedQuery("Cafés in Monte-Carlo"))
        XCTAssertEqual(inClause.subject, ["cafes"])
        XCTAssertEqual(inClause.anchor, ["monte", "carlo"])
        // "in" at the start or end is not a split.
        XCTAssertNil(try XCTUnwrap(ParsedQuery("in vaduz")).anchor)
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("coffee nearby")).subject, ["coffee"])
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("pharmacy near me")).subject, ["pharmacy"])
    }

    func testHouseNumberFirstOrLast() throws {
        let first = try XCTUnwrap(ParsedQuery("12 Avenue de la Costa"))
        XCTAssertEqual(first.houseNumber, "12")
        let last = try XCTUnwrap(ParsedQuery("Avenue de la Costa 12"))
        XCTAssertEqual(last.houseNumber, "12")
        XCTAssertEqual(last.numberFirstSubject, first.subject)
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("7bis rue Grimaldi")).houseNumber, "7bis")
        XCTAssertNil(try XCTUnwrap(ParsedQuery("98000")).houseNumber, "a lone number is not a house number")
    }

    func testPostcodeFirstAndHouseNumberLast() throws {
        let parsed = try XCTUnwrap(ParsedQuery("95463 Bindlach Hauptstr. 5"))
        XCTAssertEqual(parsed.houseNumber, "5", "a five-digit number before the street is the postcode")
        XCTAssertEqual(parsed.numberFirstSubject, ["5", "95463", "bindlach", "hauptstrasse"])
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("5 Hauptstrasse Bindlach")).houseNumber, "5")
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("00100 Helsinki Aleksanterinkatu 36b")).houseNumber, "36b")
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("1234 Main St 95463")).houseNumber, "1234")
    }

    func testHouseNumberInsideTheQuery() throws {
        // After the street, before the postcode and town ("Street 8, 9492 Eschen").
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("Quellenstrasse 8, 9492 Eschen")).houseNumber, "8")
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("Hauptstraße 5 95463 Bindlach")).houseNumber, "5")
        XCTAssertEqual(try XCTUnwrap(ParsedQuery("Quellenstrasse 8, 9492 Eschen")).numberFirstSubject, ["8", "quellenstrasse", "9492", "eschen"])
        // A long postcode inside is not a house number.
        XCTAssertNil(try XCTUnwrap(ParsedQuery("Bindlach 95463 Oberfranken")).houseNumber)
    }

    func testHouseNumberSpellings() {
        XCTAssertEqual(TextFolding.houseNumberSpellings("36 B"), ["36b"])
        XCTAssertEqual(TextFolding.houseNumberSpellings("36b"), ["36 b"])
        XCTAssertEqual(TextFolding.houseNumberSpellings("32 a-b"), ["32a", "32b"])
        XCTAssertEqual(TextFolding.houseNumberSpellings("12-16"), ["12", "14", "16"])
        XCTAssertEqual(TextFolding.houseNumberSpellings("12–13"), ["12", "13"])
        XCTAssertEqual(TextFolding.houseNumberSpellings("12/3"), [])
        XCTAssertEqual(TextFolding.houseNumberSpellings("12"), [])
        XCTAssertEqual(TextFolding.houseNumberSpellings("1-900"), [], "not a range of houses")
    }

    func testEmptyAndHugeQueries() throws {
        XCTAssertNil(ParsedQuery(""))
        XCTAssertNil(ParsedQuery("   \n\t "))
        XCTAssertNil(ParsedQuery("*** \"\" () :: -- ;"))
        let huge = try XCTUnwrap(ParsedQuery(String(repeating: "casino ", count: 100_000)))
        XCTAssertLessThanOrEqual(huge.subject.count, ParsedQuery.maximumWords)
    }

    func testMatchExpressionQuotesEveryWord() throws {
        let expression = try XCTUnwrap(MatchExpression.make(["casino", "or", "near"], prefixLast: true))
        XCTAssertEqual(expression, "\"casino\" AND \"or\" AND \"near\"*")
        let withStop = try XCTUnwrap(MatchExpression.make(["avenue", "de", "la", "costa"], prefixLast: false))
        // Articles are optional; "avenue" also matches its Catalan and Spanish spellings (Av.).
        XCTAssertEqual(withStop, "(\"avenue\" OR \"avinguda\" OR \"avenida\") AND \"costa\"")
        XCTAssertEqual(MatchExpression.quote("a\"b"), "\"a\"\"b\"")
        let saint = try XCTUnwrap(MatchExpression.make(["st", "devote"], prefixLast: false))
        XCTAssertTrue(saint.hasPrefix("(\"st\" OR \"street\" OR \"saint\""), saint)
    }

    func testCategoryWordsInSeveralLanguages() throws {
        XCTAssertEqual(CategoryWords.meaning(of: ["coffee"])?.categories, ["MKPOICategoryCafe"])
        XCTAssertEqual(CategoryWords.meaning(of: ["coffee", "shops"])?.categories, ["MKPOICategoryCafe"])
        XCTAssertEqual(CategoryWords.meaning(of: ["pharmacie"])?.categories, ["MKPOICategoryPharmacy"])
        XCTAssertEqual(CategoryWords.meaning(of: ["apotheke"])?.categories, ["MKPOICategoryPharmacy"])
        XCTAssertEqual(CategoryWords.meaning(of: ["playground"])?.osmClasses, ["leisure=playground"])
        XCTAssertEqual(CategoryWords.meaning(of: ["restaurants"])?.categories, ["MKPOICategoryRestaurant"])
        XCTAssertNil(CategoryWords.meaning(of: ["casino", "de", "monte", "carlo"]))
        XCTAssertEqual(CategoryWords.suggestions(prefix: "caf").first?.meaning.title, "Cafes")
    }
}
