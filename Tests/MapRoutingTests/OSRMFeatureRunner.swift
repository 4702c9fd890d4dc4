import Foundation
import MapFormats
import MapGeometry
import MapImport
@testable import MapRouting
import OpenMapKit
import TestSupport

/// Runs OSRM's cucumber scenarios (`../shared/conformance/osrm-features`) against our profiles.
///
/// A scenario's node map becomes coordinates on OSRM's grid (one line or two characters = one
/// grid step, 100 m unless the feature says otherwise), its way table OSM ways with tags (the name defaults
/// to the node string, the highway to primary, as in OSRM's harness), its relation table
/// restrictions; they go through MapImport's ``RoadNetworkCollector`` — the import's own code — and
/// the graph builder. Each route row is checked on every column we produce (route, turns, modes,
/// distance, time, speed) with OSRM's own fuzzy matching (`~5%`, `+-1`, `/regex/`); columns we
/// have no counterpart for are listed as not compared, never silently passed.
struct OSRMFeatureRunner {
    struct Table {
        var header: [String]
        var rows: [[String]]
        func value(_ row: [String], _ column: String) -> String? {
            guard let i = header.firstIndex(of: column), i < row.count else { return nil }
            return row[i].isEmpty ? nil : row[i]
        }
    }

    enum Step {
        case profile(String), gridSize(Double), origin(longitude: Double, latitude: Double), nodeMap([String])
        case nodeLocations(Table), ways(Table), relations(Table), nodes(Table), shortcuts(Table)
        case route(Table), routability(Table), unsupported(String)
        /// A step that changes nothing we compare (response-format query options, OSRM's own
        /// preprocessing).
        case ignored
    }

    struct Scenario {
        var file: String
        var title: String
        var steps: [Step]
    }

    /// A scenario's result. A failure names the failing rows (part of the known-failure key, so a
    /// row that starts or stops failing inside an already failing scenario is noticed) and a
    /// short reason from the first of them.
    enum Outcome { case passed, failed(rows: [String], reason: String), skipped(String) }

    // MARK: - Parsing

    /// Query options that change only what the response carries, not the route.
    static let harmlessQueryOptions: Set<String> = ["annotations", "geometries", "overview", "steps", "generate_hints", "hints"]

    static func parse(_ url: URL) -> [Scenario] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var background: [Step] = []
        var scenarios: [Scenario] = []
        var current: Scenario? = nil
        var inBackground = false
        var pendingTags: [String] = []
        var featureTags: [String] = []
        var i = 0
        func append(_ step: Step) {
            if inBackground { background.append(step) } else { current?.steps.append(step) }
        }
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            i += 1
            if line.hasPrefix("@") { pendingTags += line.split(separator: " ").map(String.init); continue }
            if line.hasPrefix("Feature:") { featureTags = pendingTags; pendingTags = []; continue }
            if line.isEmpty || line.hasPrefix("#") { continue }
            // A "Background:" line inside a scenario (car/classes.feature has some) changes
            // nothing: the steps after it are still the scenario's.
            if line.hasPrefix("Background") { inBackground = current == nil; pendingTags = []; continue }
            if line.hasPrefix("Scenario") {
                if let c = current { scenarios.append(c) }
                inBackground = false
                let title = line.replacingOccurrences(of: "Scenario Outline:", with: "").replacingOccurrences(of: "Scenario:", with: "")
                    .trimmingCharacters(in: .whitespaces)
                current = Scenario(file: url.deletingPathExtension().lastPathComponent, title: title, steps: background)
                if line.hasPrefix("Scenario Outline") { current?.steps.insert(.unsupported("scenario outline"), at: 0) }
                if (pendingTags + featureTags).contains("@todo") {
                    current?.steps.insert(.unsupported("tagged @todo: OSRM's own profile does not pass it"), at: 0)
                }
                pendingTags = []
                continue
            }
            // A step, with an optional doc string or table after it.
            var docString: [String]? = nil
            var table: Table? = nil
            if i < lines.count, lines[i].trimmingCharacters(in: .whitespaces).hasPrefix("\"\"\"") {
                var body: [String] = []
                let indent = lines[i].prefix { $0 == " " }.count
                i += 1
                while i < lines.count, !lines[i].trimmingCharacters(in: .whitespaces).hasPrefix("\"\"\"") {
                    body.append(String(lines[i].dropFirst(min(indent, lines[i].prefix { $0 == " " }.count))))
                    i += 1
                }
                i += 1
                docString = body
            } else {
                var rows: [[String]] = []
                // Blank lines and comments may stand before or inside a table (Cucumber's parser
                // skips them); a blank line ends the step only when no table row follows.
                func rowFollows(_ from: Int) -> Bool {
                    var k = from
                    while k < lines.count {
                        let t = lines[k].trimmingCharacters(in: .whitespaces)
                        if t.isEmpty || t.hasPrefix("#") { k += 1; continue }
                        return t.hasPrefix("|")
                    }
                    return false
                }
                while i < lines.count {
                    let t = lines[i].trimmingCharacters(in: .whitespaces)
                    if t.hasPrefix("#") || (t.isEmpty && rowFollows(i)) { i += 1; continue }
                    guard t.hasPrefix("|") else { break }
                    // Gherkin escapes a pipe inside a cell as `\|` (turn:lanes values) and a backslash as `\\`.
                    let escaped = t.replacingOccurrences(of: "\\\\", with: "\u{1}").replacingOccurrences(of: "\\|", with: "\u{2}")
                    var cells = escaped.split(separator: "|", omittingEmptySubsequences: false).map {
                        $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{2}", with: "|").replacingOccurrences(of: "\u{1}", with: "\\")
                    }
                    cells.removeFirst()
                    if cells.last == "" { cells.removeLast() }
                    rows.append(cells)
                    i += 1
                }
                if let header = rows.first { table = Table(header: header, rows: Array(rows.dropFirst())) }
            }
            var body = line
            for keyword in ["Given ", "And ", "When ", "Then ", "But "] where body.hasPrefix(keyword) { body = String(body.dropFirst(keyword.count)) }
            append(step(body, docString: docString, table: table))
        }
        if let c = current { scenarios.append(c) }
        return scenarios
    }

    /// One step's meaning, or why we cannot express it.
    static func step(_ body: String, docString: [String]?, table: Table?) -> Step {
        if body.hasPrefix("the profile file") { return .unsupported("custom Lua profile (`the profile file`)") }
        if body.hasPrefix("the profile \"") { return .profile(body.components(separatedBy: "\"")[1]) }
        if body.hasPrefix("a grid size of "), let size = Double(body.split(separator: " ")[4]) { return .gridSize(size) }
        if body.hasPrefix("the origin ") {
            let parts = body.dropFirst("the origin ".count).split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if parts.count == 2 { return .origin(longitude: parts[0], latitude: parts[1]) }
        }
        switch body {
        case "the node map": if let docString { return .nodeMap(docString) }
        case "the node locations": if let table { return .nodeLocations(table) }
        case "the ways": if let table { return .ways(table) }
        case "the relations": if let table { return .relations(table) }
        case "the nodes": if let table { return .nodes(table) }
        case "the shortcuts": if let table { return .shortcuts(table) }
        case "I route I should get": if let table { return .route(table) }
        case "routability should be": if let table { return .routability(table) }
        case "the query options":
            // A two-column key/value table: its "header" is the first option.
            guard let table else { break }
            let options = ([table.header] + table.rows).compactMap { $0.first }
            if let option = options.first(where: { !harmlessQueryOptions.contains($0) }) {
                return .unsupported("query option '\(option)' (changes the request; our API has no such option)")
            }
            return .ignored
        default: break
        }
        if body.hasPrefix("the data has been") { return .ignored }
        if body.contains("extra arguments") {
            // Logging and the data version label change nothing we compare; the others (traffic
            // files, time zones, component sizes, conditional restrictions) change the graph.
            if body.contains("--verbosity") || body.contains("--data_version") { return .ignored }
            return .unsupported("OSRM command-line option (\(body.replacingOccurrences(of: " extra arguments", with: "")))")
        }
        if body.hasPrefix("the speed file") || body.hasPrefix("the turn penalty file") { return .unsupported("traffic updates (speed or turn penalty files)") }
        if body.contains("travel time matrix") || body.contains("travel distance matrix") { return .unsupported("table (matrix) service") }
        if body.hasPrefix("I match") { return .unsupported("map matching service") }
        if body.hasPrefix("I plan a trip") { return .unsupported("trip service") }
        if body.hasPrefix("I POST") || body.hasPrefix("status code") || body.hasPrefix("response should") {
            return .unsupported("osrm-routed HTTP API")
        }
        if body.hasPrefix("I try to run") || body.hasPrefix("it should exit") || body.hasPrefix("stderr") {
            return .unsupported("OSRM command-line tools")
        }
        return .unsupported(body)
    }

    // MARK: - Running

    static func mode(forProfile profile: String) -> TravelMode? {
        switch profile {
        // testbot is OSRM's minimal test profile; its rules (access, oneways, barriers) are a
        // car's, its speeds are not, so its times are expected to differ.
        case "car", "testbot": .automobile
        case "foot": .walking
        case "bicycle": .cycling
        default: nil
        }
    }

    /// OSRM's step `mode` for a stretch of route.
    static func modeName(_ mode: TravelMode, ferry: Bool) -> String {
        if ferry { return "ferry" }
        switch mode {
        case .automobile: return "driving"
        case .walking: return "walking"
        case .cycling: return "cycling"
        }
    }

    /// Metres per degree of latitude (and of longitude at the equator) on the sphere our router
    /// measures with (`metresE7`'s radius), so that a drawn grid step is exactly its metres by
    /// our own measure, as OSRM's harness places its nodes with a ruler in metres.
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    let scratch: URL

    /// Columns of a route table that choose the request: rows that set them are skipped.
    static let requestColumns: Set<String> = ["bearings", "approaches", "request"]
    static let comparedColumns: Set<String> = ["route", "turns", "modes", "distance", "time", "speed"]

    func run(_ scenario: Scenario, notes: inout [String]) -> Outcome {
        // OSRM's harness routes with the bicycle profile unless the scenario names another.
        var profile: String? = "bicycle"
        var grid = 100.0
        var origin = (longitude: 1.0, latitude: 1.0)
        var nodeMap: [String] = []
        var ways: Table? = nil, relations: Table? = nil, nodes: Table? = nil, locations: Table? = nil
        var shortcuts: [String: String] = [:]
        var checks: [Step] = []
        for step in scenario.steps {
            switch step {
            case .profile(let p): profile = p
            case .gridSize(let g): grid = g
            case .origin(let lon, let lat): origin = (lon, lat)
            case .nodeMap(let m): nodeMap = m
            case .nodeLocations(let t): locations = t
            case .ways(let t): ways = t
            case .relations(let t):
                // Several relation tables add up; their columns may differ, so rows are re-keyed.
                if let existing = relations {
                    let header = existing.header + t.header.filter { !existing.header.contains($0) }
                    relations = Table(header: header, rows: existing.rows.map { row in header.map { existing.value(row, $0) ?? "" } }
                                      + t.rows.map { row in header.map { t.value(row, $0) ?? "" } })
                } else {
                    relations = t
                }
            case .nodes(let t): nodes = t
            case .shortcuts(let t): for row in t.rows { if let k = t.value(row, "key"), let v = t.value(row, "value") { shortcuts[k] = v } }
            case .route, .routability: checks.append(step)
            case .unsupported(let s): return .skipped("unsupported step: \(s)")
            case .ignored: continue
            }
        }
        guard let profile, let mode = Self.mode(forProfile: profile) else { return .skipped("profile \(profile ?? "none") has no counterpart") }
        guard !checks.isEmpty else { return .skipped("no route or routability check") }
        var failedRows: [String] = []
        var firstReason: String? = nil
        var comparedAnything = false
        for (index, check) in checks.enumerated() {
            let prefix = checks.count > 1 ? "\(index + 1):" : ""
            switch check {
            case .route(let table):
                guard let ways else { return .skipped("routes without ways") }
                guard table.header.contains("waypoints") || (table.header.contains("from") && table.header.contains("to")) else {
                    return .skipped("route table without waypoints or from/to (\(table.header.joined(separator: ",")))")
                }
                let ignored = table.header.filter {
                    !Self.comparedColumns.contains($0) && !["from", "to", "waypoints", "#"].contains($0) && !Self.requestColumns.contains($0)
                }
                if !ignored.isEmpty { notes.append("\(scenario.file).feature — \(scenario.title): columns not compared (no counterpart): \(ignored.joined(separator: ", "))") }
                let compared = table.header.filter { Self.comparedColumns.contains($0) }
                guard !compared.isEmpty else { continue }
                let world: World
                do {
                    world = try World(nodeMap: nodeMap, grid: grid, origin: origin, locations: locations, ways: ways,
                                      relations: relations, nodes: nodes, mode: mode, scratch: scratch)
                } catch {
                    return .failed(rows: ["build"], reason: "build failed: \(error)")
                }
                for row in table.rows {
                    let waypoints = table.value(row, "waypoints").map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
                        ?? [table.value(row, "from") ?? "", table.value(row, "to") ?? ""]
                    let label = prefix + waypoints.joined(separator: ",")
                    if let column = Self.requestColumns.first(where: { table.value(row, $0) != nil }) {
                        notes.append("\(scenario.file).feature — \(scenario.title): row \(label) sets '\(column)' (no counterpart in our query)")
                        continue
                    }
                    comparedAnything = true
                    let got = world.route(waypoints)
                    if let mismatch = compare(table, row, got) {
                        failedRows.append(label)
                        if firstReason == nil { firstReason = "\(label) \(mismatch)" }
                    }
                }
            case .routability(let table):
                for (index, row) in table.rows.enumerated() {
                    comparedAnything = true
                    let label = prefix + "r\(index + 1)"
                    do {
                        if let mismatch = try routability(table, row, mode: mode, shortcuts: shortcuts) {
                            // Private roads are left out of the car graph on purpose (the issue asks
                            // for them to be unroutable; OSRM routes them with a penalty).
                            if mode == .automobile, row.contains(where: { $0.hasSuffix("private") }) {
                                notes.append("\(scenario.file).feature — \(scenario.title): row \(index + 1) (\(describe(table, row))): private roads are left out of the car graph on purpose")
                                continue
                            }
                            failedRows.append(label)
                            if firstReason == nil { firstReason = "\(label) (\(describe(table, row))): \(mismatch)" }
                        }
                    } catch {
                        failedRows.append(label)
                        if firstReason == nil { firstReason = "\(label): \(error)" }
                    }
                }
            default: break
            }
        }
        guard comparedAnything else { return .skipped("every row sets a request column we have no counterpart for, or no column we produce") }
        return failedRows.isEmpty ? .passed : .failed(rows: failedRows, reason: firstReason ?? "")
    }

    // MARK: - Route rows

    /// What we produce for one route row, in the form OSRM's harness prints it.
    struct Got {
        var route: [String]
        var modes: [String]
        var turns: [String]
        var instructions: [String]
        var distance: Double
        var time: Double
    }

    /// The first column of the row that does not match, described; nil when all match.
    func compare(_ table: Table, _ row: [String], _ got: Got?) -> String? {
        let wantRoute = table.value(row, "route")
        if table.header.contains("route") {
            // Way names, one per step (the way each step sets off along), compare as a sequence
            // with consecutive repeats collapsed: the arrive step repeats the last name, and a
            // difference in steps is the turns column's to report.
            let want = collapse(wantRoute ?? "")
            if want != (got?.route ?? []) {
                return "route: want [\(want.joined(separator: ","))] got " + (got.map { "[\($0.route.joined(separator: ","))]" } ?? "no route")
            }
        }
        // An empty route cell means "no route"; the other columns are then empty too.
        if table.header.contains("route") && wantRoute == nil { return nil }
        if let want = table.value(row, "turns") {
            let wantTokens = want.split(separator: ",").map { Self.turnToken(osrm: $0.trimmingCharacters(in: .whitespaces)) }
            guard let got else { return "turns: want \(want), got no route" }
            // Our "Take the ferry"/"Leave the ferry" steps name the change of mode, not a
            // direction: they stand for whatever manoeuvre OSRM gives at that point.
            let matches = wantTokens.count == got.turns.count
                && zip(wantTokens, got.turns).allSatisfy { $0 == $1 || ($1 == "ferry" && $0 != "depart" && $0 != "arrive") }
            if !matches {
                return "turns: want [\(wantTokens.joined(separator: ","))] got [\(got.turns.joined(separator: ","))] (\(got.instructions.joined(separator: " / ")))"
            }
        }
        if let want = table.value(row, "modes") {
            let wantModes = collapse(want)
            if wantModes != (got?.modes ?? []) { return "modes: want [\(wantModes.joined(separator: ","))] got [\((got?.modes ?? []).joined(separator: ","))]" }
        }
        // OSRM rounds distances and durations to 0.1 and prints them as JavaScript numbers.
        let distance = got.map { ($0.distance * 10).rounded() / 10 }, time = got.map { ($0.time * 10).rounded() / 10 }
        if let want = table.value(row, "distance") {
            let have = distance.map { Self.js($0) + "m" } ?? ""
            if !Self.fuzzyMatch(have, want) { return "distance: want \(want) got \(have)" }
        }
        if let want = table.value(row, "time") {
            let have = time.map { Self.js($0) + "s" } ?? ""
            if !Self.fuzzyMatch(have, want) { return "time: want \(want) got \(have)" }
        }
        if let want = table.value(row, "speed") {
            var have = ""
            if let distance, let time, time > 0 { have = "\(Int((3.6 * distance / time).rounded())) km/h" }
            if !Self.fuzzyMatch(have, want) { return "speed: want \(want) got \(have)" }
        }
        return nil
    }

    static let osrmModifiers = ["sharp right", "slight right", "sharp left", "slight left", "right", "left", "straight", "uturn"]

    /// OSRM's `turns` cell entry ("turn left", "new name straight", "roundabout-exit-2") as the
    /// manoeuvre our instructions can express. Our wording has no end-of-road, new-name or
    /// on-ramp distinction, so those become the bare direction, as our "Turn left" or
    /// "Continue" (straight) would say them. The full mapping is in the header of
    /// OSRMFeatures-known-failures.md.
    static func turnToken(osrm: String) -> String {
        if osrm == "depart" || osrm == "arrive" { return osrm }
        if let range = osrm.range(of: #"exit-(\d+)$"#, options: .regularExpression) {
            return "roundabout-exit-" + osrm[range].dropFirst("exit-".count)
        }
        // Arriving inside the roundabout: OSRM has no exit number, we say "Enter the roundabout".
        if osrm.hasSuffix("-exit-undefined") { return "roundabout" }
        guard let modifier = osrmModifiers.first(where: { osrm.hasSuffix(" " + $0) }) else {
            return ["roundabout", "rotary"].contains(osrm) ? "roundabout" : osrm
        }
        let type = String(osrm.dropLast(modifier.count + 1))
        if modifier == "uturn" { return "uturn" }
        switch type {
        case "fork": return "fork " + (modifier.hasSuffix("left") ? "left" : modifier.hasSuffix("right") ? "right" : modifier)
        case "merge": return "merge"
        case "off ramp": return "off ramp"
        case "exit roundabout", "exit rotary": return "exit roundabout"
        case "roundabout", "rotary": return "roundabout"
        default: return modifier
        }
    }

    /// One of our step instructions as the same token.
    static func turnToken(ours instruction: String, first: Bool) -> String {
        if first && (instruction.hasPrefix("Head") || instruction.hasPrefix("Take the ferry")) { return "depart" }
        if instruction.hasPrefix("Arrive") { return "arrive" }
        if instruction.hasPrefix("Make a U-turn") { return "uturn" }
        for (phrase, token) in [("Turn slightly left", "slight left"), ("Turn slightly right", "slight right"),
                                ("Turn sharp left", "sharp left"), ("Turn sharp right", "sharp right"),
                                ("Turn left", "left"), ("Turn right", "right"), ("Keep left", "fork left"),
                                ("Keep right", "fork right"), ("Continue", "straight"), ("Take the exit", "off ramp"),
                                ("Merge", "merge"), ("Enter the roundabout", "roundabout"), ("Exit the roundabout", "exit roundabout"),
                                ("Take the ferry", "ferry"), ("Leave the ferry", "ferry")] where instruction.hasPrefix(phrase) {
            return token
        }
        if instruction.hasPrefix("At the roundabout, take the "),
           let n = instruction.dropFirst("At the roundabout, take the ".count).prefix(while: \.isNumber).nilIfEmpty {
            return "roundabout-exit-\(n)"
        }
        return instruction
    }

    /// OSRM's `FuzzyMatch.match` (features/support/data_classes.js): exact, `x ~p%`, `x +-m`,
    /// `/regex/`, each comparing JavaScript `parseFloat` of both sides.
    static func fuzzyMatch(_ got: String, _ want: String) -> Bool {
        if got == want { return true }
        func groups(_ pattern: String) -> [String]? {
            guard let regex = try? NSRegularExpression(pattern: pattern),
                  let m = regex.firstMatch(in: want, range: NSRange(want.startIndex..., in: want)) else { return nil }
            return (0..<m.numberOfRanges).map { Range(m.range(at: $0), in: want).map { String(want[$0]) } ?? "" }
        }
        if let g = groups(#"(.*)\s+~(.+)%$"#) {
            guard let target = parseFloat(g[1]), let percentage = parseFloat(g[2]) else { return false }
            if target == 0 { return true }
            guard let have = parseFloat(got) else { return false }
            return 100 * abs(1 - have / target) < percentage
        }
        if let g = groups(#"(.*)\s+\+-(.+)$"#) {
            guard let target = parseFloat(g[1]), let margin = parseFloat(g[2]), let have = parseFloat(got) else { return false }
            return have >= target - margin && have <= target + margin
        }
        if let g = groups(#"^/(.*)/$"#) { return got.range(of: g[1], options: .regularExpression) != nil }
        if groups(#"\d+\+-\d+"#) != nil {
            let parts = want.components(separatedBy: "+-")
            guard let target = parseFloat(parts[0]), let margin = parseFloat(parts[1]), let have = parseFloat(got) else { return false }
            return have >= target - margin && have <= target + margin
        }
        return false
    }

    /// JavaScript's `parseFloat`: the leading number of a string ("200m" → 200), nil for none.
    static func parseFloat(_ s: String) -> Double? {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard let range = t.range(of: #"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?"#, options: .regularExpression) else { return nil }
        return Double(t[range])
    }

    /// A number as JavaScript prints it (200, 199.9).
    static func js(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }

    func describe(_ table: Table, _ row: [String]) -> String {
        zip(table.header, row).filter { !$0.1.isEmpty }.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }

    func collapse(_ list: String) -> [String] {
        guard !list.isEmpty else { return [] }
        return collapse(list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) })
    }

    func collapse(_ list: [String]) -> [String] {
        var result: [String] = []
        for item in list where result.last != item { result.append(item) }
        return result
    }

    // MARK: - Routability rows

    /// One routability row: a way a–m–b 200 m long (m carries the node/ tags), routed both ways,
    /// as OSRM's harness does. Each direction's cell is `x` (routable), empty (not), a speed
    /// (`36 km/h`, maybe `+-1`), a time (`20 s ~10%`) or a mode name (`cycling`); `bothw`
    /// wants both directions to give the same answer. (OSRM's harness marks a forward/backward
    /// disagreement "diff" and then treats it as routable for `bothw=x`; we do not.)
    func routability(_ table: Table, _ row: [String], mode: TravelMode, shortcuts: [String: String]) throws -> String? {
        var wayTags: [(key: String, value: String)] = []
        var nodeTags: [(key: String, value: String)] = []
        for (column, value) in zip(table.header, row) {
            switch column {
            case "forw", "backw", "bothw", "#": continue
            default:
                if column.hasPrefix("node/") {
                    if !value.isEmpty { nodeTags.append((String(column.dropFirst(5)), value)) }
                } else if column.hasSuffix("_rate") {
                    continue // OSRM's weight per metre: we have no weights
                } else if !value.isEmpty && value != "(nil)" {
                    wayTags.append((column, value))
                }
            }
        }
        // The highway defaults to primary; `(nil)` means no highway tag at all.
        if !wayTags.contains(where: { $0.key == "highway" }) && table.value(row, "highway") != "(nil)" { wayTags.append(("highway", "primary")) }
        wayTags.append(("name", "w"))
        let collector = RoadNetworkCollector()
        collector.add(way: OSMWay(id: 1, nodeRefs: [1, 2, 3], tags: wayTags))
        if !nodeTags.isEmpty { collector.add(node: 2, tags: nodeTags) }
        let step = 100 / Self.metresPerDegree / cos(1 * .pi / 180)
        let positions: [Int64: (Double, Double)] = [1: (1, 1), 2: (1, 1 + step), 3: (1, 1 + 2 * step)]
        collector.resolveLocations { id in positions[id].flatMap { OSMLocation(latitude: $0.0, longitude: $0.1) } }
        let a = CLLocationCoordinate2D(latitude: 1, longitude: 1), b = CLLocationCoordinate2D(latitude: 1, longitude: 1 + 2 * step)
        var graph: RoadGraph? = nil
        if collector.network.wayCount > 0 {
            let url = scratch.appendingPathComponent("routability-\(UUID().uuidString).graph")
            defer { try? FileManager.default.removeItem(at: url) }
            if (try? RoadGraphBuilder(mode: mode).build(collector.network, to: url)) != nil { graph = try RoadGraph(url: url) }
        }
        func path(_ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D) -> RoutePath? {
            // A route that does not run the way's length (both ends snapped to one point) is no route.
            guard let graph, let best = try? graph.route(from: from, to: to).first, best.distance > 150 else { return nil }
            return best
        }
        let paths = ["forw": path(a, b), "backw": path(b, a)]
        func cell(_ path: RoutePath?, _ want: String) -> String {
            guard let path else { return "" }
            let modeName = Self.modeName(mode, ferry: path.segments.first?.isFerry ?? false)
            if want == "x" { return "x" }
            if want.range(of: #"^[\d.]+ ?s"#, options: .regularExpression) != nil {
                return path.travelTime > 0 ? Self.js((path.travelTime * 10).rounded() / 10) + (want.contains(" s") ? " s" : "s") : ""
            }
            if want.range(of: #"^\d+ km/h"#, options: .regularExpression) != nil {
                // parseInt(3.6 * distance / time), as OSRM's harness.
                let d = (path.distance * 10).rounded() / 10, t = (path.travelTime * 10).rounded() / 10
                return t > 0 ? "\(Int(3.6 * d / t)) km/h" : ""
            }
            return modeName
        }
        var problems: [String] = []
        for direction in ["forw", "backw", "bothw"] {
            guard let raw = table.value(row, direction) ?? (table.header.contains(direction) ? "" : nil) else { continue }
            let want = shortcuts[raw] ?? raw
            let have: String
            if direction == "bothw" {
                let forward = cell(paths["forw"]!, want), backward = cell(paths["backw"]!, want)
                have = forward == backward ? forward : "diff"
            } else {
                have = cell(paths[direction]!, want)
            }
            if !(want.isEmpty ? have.isEmpty : Self.fuzzyMatch(have, want)) {
                problems.append("\(direction) want '\(want)' got '\(have)'")
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: ", ")
    }

    // MARK: - Worlds

    /// A scenario's drawn map as a road graph.
    struct World {
        var coordinates: [Character: CLLocationCoordinate2D] = [:]
        var graph: RoadGraph

        init(nodeMap: [String], grid: Double, origin: (longitude: Double, latitude: Double), locations: Table?, ways: Table,
             relations: Table?, nodes: Table?, mode: TravelMode, scratch: URL) throws {
            // Grid steps are metres on the ground (as OSRM's harness offsets its origin by metres).
            let latStep = grid / OSRMFeatureRunner.metresPerDegree
            let lonStep = latStep / cos(origin.latitude * .pi / 180)
            var ids: [Character: Int64] = [:]
            var coordinates: [Character: CLLocationCoordinate2D] = [:]
            for (r, line) in nodeMap.enumerated() {
                // Two characters per grid step across (maps are drawn "a b c"), one line per step down,
                // as OSRM's `the node map` step (`ci * 0.5`); only a-z and 0-9 are nodes.
                for (c, ch) in line.enumerated() where ch.isASCII && (ch.isLowercase || ch.isNumber) {
                    coordinates[ch] = CLLocationCoordinate2D(latitude: origin.latitude - Double(r) * latStep,
                                                             longitude: origin.longitude + Double(c) * 0.5 * lonStep)
                }
            }
            if let locations {
                for row in locations.rows {
                    guard let ch = locations.value(row, "node")?.first, let lat = locations.value(row, "lat").flatMap(Double.init),
                          let lon = locations.value(row, "lon").flatMap(Double.init) else { continue }
                    coordinates[ch] = CLLocationCoordinate2D(latitude: lat, longitude: lon)
                }
            }
            for ch in coordinates.keys.sorted() { ids[ch] = Int64(ids.count + 1) }
            let collector = RoadNetworkCollector()
            var wayIDs: [String: Int64] = [:]
            for (index, row) in ways.rows.enumerated() {
                guard let nodeString = ways.value(row, "nodes") else { continue }
                var tags: [(key: String, value: String)] = []
                // As OSRM's `the ways`: `""` is an empty value, an empty cell or `(nil)` no tag.
                for (column, value) in zip(ways.header, row) where column != "nodes" && column != "#" && !value.isEmpty && value != "(nil)" {
                    tags.append((column, value == "\"\"" || value == "''" ? "" : value))
                }
                if !ways.header.contains("highway") { tags.append(("highway", "primary")) }
                if !ways.header.contains("name") { tags.append(("name", nodeString)) }
                let id = Int64(index + 1)
                wayIDs[nodeString] = id
                collector.add(way: OSMWay(id: id, nodeRefs: nodeString.compactMap { ids[$0] }, tags: tags))
            }
            if let nodes {
                for row in nodes.rows {
                    guard let name = nodes.value(row, "node")?.first, let id = ids[name] else { continue }
                    let tags = zip(nodes.header, row).filter { $0.0 != "node" && $0.0 != "id" && !$0.1.isEmpty }.map { (key: $0.0, value: $0.1) }
                    collector.add(node: id, tags: tags)
                }
            }
            if let relations {
                for (index, row) in relations.rows.enumerated() {
                    var members: [OSMRelation.Member] = []
                    var tags: [(key: String, value: String)] = []
                    for (column, value) in zip(relations.header, row) where !value.isEmpty {
                        let parts = column.split(separator: ":", maxSplits: 1).map(String.init)
                        if parts.count == 2, parts[0] == "way" || parts[0] == "node" {
                            for item in value.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                                if parts[0] == "way", let id = wayIDs[item] ?? wayIDs[String(item.reversed())] {
                                    members.append(OSMRelation.Member(type: .way, ref: id, role: parts[1]))
                                } else if parts[0] == "node", let ch = item.first, let id = ids[ch] {
                                    members.append(OSMRelation.Member(type: .node, ref: id, role: parts[1]))
                                }
                            }
                        } else {
                            tags.append((column, value))
                        }
                    }
                    collector.add(relation: OSMRelation(id: Int64(index + 1), members: members, tags: tags))
                }
            }
            let locations = Dictionary(uniqueKeysWithValues: ids.map { ($0.value, coordinates[$0.key]!) })
            collector.resolveLocations { id in locations[id].flatMap { OSMLocation(latitude: $0.latitude, longitude: $0.longitude) } }
            let url = scratch.appendingPathComponent("world-\(UUID().uuidString).graph")
            defer { try? FileManager.default.removeItem(at: url) }
            try RoadGraphBuilder(mode: mode).build(collector.network, to: url)
            graph = try RoadGraph(url: url)
            self.coordinates = coordinates
        }

        /// The route through `waypoints`, one leg per pair as OSRM's legs (each with its own
        /// depart and arrive), or nil when any leg has none.
        func route(_ waypoints: [String]) -> Got? {
            let points = waypoints.map { $0.first.flatMap { coordinates[$0] } }
            guard points.count >= 2, !points.contains(where: { $0 == nil }) else { return nil }
            var got = Got(route: [], modes: [], turns: [], instructions: [], distance: 0, time: 0)
            var names: [String] = [], modes: [String] = []
            for (a, b) in zip(points.dropLast(), points.dropFirst()) {
                guard let best = try? graph.route(from: a!, to: b!).first, !best.segments.isEmpty else { return nil }
                // The steps MKDirections returns; the first is MapKit's empty starting step. Each
                // step is named, as OSRM's, after the way it sets off along; the arrive step after
                // the last way.
                let steps = Array(MKRoute.make(path: best, destination: b!).steps.dropFirst())
                var index = 0
                for (k, step) in steps.enumerated() {
                    let segment = k == steps.count - 1 ? best.segments.last!
                        : best.segments.first { $0.coordinateRange.lowerBound <= index && index < $0.coordinateRange.upperBound - 1 }
                        ?? best.segments.last!
                    names.append(segment.name ?? "")
                    modes.append(OSRMFeatureRunner.modeName(graph.mode, ferry: segment.isFerry))
                    got.instructions.append(step.instructions)
                    got.turns.append(OSRMFeatureRunner.turnToken(ours: step.instructions, first: k == 0))
                    index += max(step.polyline.pointCount - 1, 0)
                }
                got.distance += best.distance
                got.time += best.travelTime
            }
            var collapsedNames: [String] = [], collapsedModes: [String] = []
            for name in names where collapsedNames.last != name { collapsedNames.append(name) }
            for mode in modes where collapsedModes.last != mode { collapsedModes.append(mode) }
            got.route = collapsedNames
            got.modes = collapsedModes
            return got
        }
    }
}

extension Substring {
    var nilIfEmpty: Substring? { isEmpty ? nil : self }
}
