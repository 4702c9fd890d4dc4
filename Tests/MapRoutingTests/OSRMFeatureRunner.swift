import Foundation
import MapFormats
import MapGeometry
import MapImport
@testable import MapRouting
import TestSupport

/// Runs OSRM's cucumber scenarios (`../shared/conformance/osrm-features`) against our profiles.
///
/// A scenario's node map becomes coordinates on OSRM's grid (one character = one grid step,
/// 100 m unless the feature says otherwise), its way table OSM ways with tags (the name defaults
/// to the node string, the highway to primary, as in OSRM's harness), its relation table
/// restrictions; they go through MapImport's ``RoadNetworkCollector`` — the import's own code — and
/// the graph builder. Routes compare the sequence of way names (consecutive repeats collapsed, as
/// OSRM's arrive step repeats the last name) or the absence of a route; times are not compared.
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
        case profile(String), gridSize(Double), nodeMap([String]), ways(Table), relations(Table), nodes(Table)
        case route(Table), routability(Table), unsupported(String)
    }

    struct Scenario {
        var file: String
        var title: String
        var steps: [Step]
    }

    enum Outcome { case passed, failed(String), skipped(String) }

    // MARK: - Parsing

    static func parse(_ url: URL) -> [Scenario] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var background: [Step] = []
        var scenarios: [Scenario] = []
        var current: Scenario? = nil
        var inBackground = false
        var pendingTags: [String] = []
        var i = 0
        func append(_ step: Step) {
            if inBackground { background.append(step) } else { current?.steps.append(step) }
        }
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            i += 1
            if line.hasPrefix("@") { pendingTags += line.split(separator: " ").map(String.init); continue }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("Feature:") { pendingTags = []; continue }
            if line.hasPrefix("Background") { inBackground = true; continue }
            if line.hasPrefix("Scenario") {
                if let c = current { scenarios.append(c) }
                inBackground = false
                current = Scenario(file: url.deletingPathExtension().lastPathComponent, title: line, steps: background)
                if line.hasPrefix("Scenario Outline") { current?.steps.append(.unsupported("scenario outline")) }
                if pendingTags.contains("@todo") { current?.steps.insert(.unsupported("tagged @todo: OSRM's own profile does not pass it"), at: 0) }
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
                while i < lines.count {
                    let t = lines[i].trimmingCharacters(in: .whitespaces)
                    if t.hasPrefix("#") { i += 1; continue }
                    guard t.hasPrefix("|") else { break }
                    var cells = t.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                    cells.removeFirst()
                    if cells.last == "" { cells.removeLast() }
                    rows.append(cells)
                    i += 1
                }
                if let header = rows.first { table = Table(header: header, rows: Array(rows.dropFirst())) }
            }
            let body = line.replacingOccurrences(of: "Given ", with: "").replacingOccurrences(of: "And ", with: "")
                .replacingOccurrences(of: "When ", with: "").replacingOccurrences(of: "Then ", with: "")
            if body.hasPrefix("the profile \"") {
                append(.profile(body.components(separatedBy: "\"")[1]))
            } else if body.hasPrefix("a grid size of "), let size = Double(body.split(separator: " ")[4]) {
                append(.gridSize(size))
            } else if body == "the node map", let docString {
                append(.nodeMap(docString))
            } else if body == "the ways", let table {
                append(.ways(table))
            } else if body == "the relations", let table {
                append(.relations(table))
            } else if body == "the nodes", let table {
                append(.nodes(table))
            } else if body == "I route I should get", let table {
                append(.route(table))
            } else if body == "routability should be", let table {
                append(.routability(table))
            } else {
                append(.unsupported(body))
            }
        }
        if let c = current { scenarios.append(c) }
        return scenarios
    }

    // MARK: - Running

    static func mode(forProfile profile: String) -> TravelMode? {
        switch profile {
        case "car", "testbot": .automobile
        case "foot": .walking
        case "bicycle": .cycling
        default: nil
        }
    }

    /// OSRM's cucumber grid: degrees per metre at the equator-ish origin it uses.
    static let degreesPerMetre = 1 / 111_319.49

    let scratch: URL

    func run(_ scenario: Scenario, notes: inout [String]) -> Outcome {
        var profile: String? = nil
        var grid = 100.0
        var nodeMap: [String] = []
        var ways: Table? = nil, relations: Table? = nil, nodes: Table? = nil
        var checks: [Step] = []
        for step in scenario.steps {
            switch step {
            case .profile(let p): profile = p
            case .gridSize(let g): grid = g
            case .nodeMap(let m): nodeMap = m
            case .ways(let t): ways = t
            case .relations(let t):
                // Several relation tables add up; their columns may differ, so rows are re-keyed.
                if var existing = relations {
                    for row in t.rows {
                        existing.rows.append(existing.header.map { column in t.value(row, column) ?? "" })
                        for (column, _) in zip(t.header, row) where !existing.header.contains(column) {
                            existing.header.append(column)
                            for r in existing.rows.indices { existing.rows[r].append("") }
                            existing.rows[existing.rows.count - 1][existing.header.count - 1] = t.value(row, column) ?? ""
                        }
                    }
                    relations = existing
                } else {
                    relations = t
                }
            case .nodes(let t): nodes = t
            case .route, .routability: checks.append(step)
            case .unsupported(let s): return .skipped("unsupported step: \(s)")
            }
        }
        guard let profile, let mode = Self.mode(forProfile: profile) else { return .skipped("profile \(profile ?? "none") has no counterpart") }
        guard !checks.isEmpty else { return .skipped("no route or routability check") }
        var failures: [String] = []
        for check in checks {
            switch check {
            case .route(let table):
                guard let ways else { return .skipped("routes without ways") }
                guard table.header.contains("from"), table.header.contains("to"), table.header.contains("route") else {
                    return .skipped("route table without from/to/route (\(table.header.joined(separator: ",")))")
                }
                if let reason = unsupportedRouteColumns(table) { return .skipped(reason) }
                do {
                    let world = try World(nodeMap: nodeMap, grid: grid, ways: ways, relations: relations, nodes: nodes,
                                          mode: mode, scratch: scratch)
                    for row in table.rows {
                        guard let from = table.value(row, "from"), let to = table.value(row, "to") else { continue }
                        let expected = collapse(table.value(row, "route") ?? "")
                        let got = world.route(from, to)
                        if got != expected {
                            failures.append("\(from)→\(to): expected [\(expected.joined(separator: ","))] got [\(got.joined(separator: ","))]")
                        }
                    }
                } catch {
                    return .failed("build failed: \(error)")
                }
            case .routability(let table):
                if let column = table.header.first(where: { $0.hasPrefix("hov") || $0.hasSuffix(":conditional") || $0.contains(":lanes") }) {
                    return .skipped("routability column '\(column)' (HOV lanes, conditional access) has no counterpart")
                }
                for (index, row) in table.rows.enumerated() {
                    do {
                        let result = try routability(table, row, mode: mode)
                        if result != nil && mode == .automobile && row.contains(where: { $0.hasSuffix("private") }) {
                            notes.append("\(scenario.file): \(scenario.title): row \(index + 1) (\(describe(table, row))): private roads are left out of the car graph on purpose (the issue asks for private roads to be unroutable; OSRM routes them with a penalty)")
                            continue
                        }
                        if let mismatch = result { failures.append("row \(index + 1) \(describe(table, row)): \(mismatch)") }
                    } catch {
                        failures.append("row \(index + 1): \(error)")
                    }
                }
            default: break
            }
        }
        return failures.isEmpty ? .passed : .failed(failures.joined(separator: "; "))
    }

    func unsupportedRouteColumns(_ table: Table) -> String? {
        let ignorable: Set<String> = ["from", "to", "route", "#", "time", "distance", "speed", "modes", "duration", "weight",
                                      "turns", "summary", "classes", "ref", "pronunciations", "destinations", "exits", "rotary_names"]
        for column in table.header where !ignorable.contains(column) {
            return "route table column '\(column)' has no counterpart"
        }
        return nil
    }

    func describe(_ table: Table, _ row: [String]) -> String {
        zip(table.header, row).filter { !$0.1.isEmpty }.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
    }

    func collapse(_ route: String) -> [String] {
        guard !route.isEmpty else { return [] }
        var result: [String] = []
        for name in route.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) where result.last != name {
            result.append(name)
        }
        return result
    }

    /// One routability row: a way a–m–b (m carries the node/ tags), routed both ways.
    func routability(_ table: Table, _ row: [String], mode: TravelMode) throws -> String? {
        var wayTags: [(key: String, value: String)] = []
        var nodeTags: [(key: String, value: String)] = []
        var expectations: [String: Bool] = [:]
        for (column, value) in zip(table.header, row) {
            switch column {
            case "forw", "backw", "bothw": expectations[column] = !value.isEmpty
            case "#": continue
            default:
                if column.hasPrefix("node/") {
                    if !value.isEmpty { nodeTags.append((String(column.dropFirst(5)), value)) }
                } else if column.contains("_rate") || column == "forw_rate" || column == "backw_rate" {
                    continue
                } else if !value.isEmpty {
                    wayTags.append((column, value))
                }
            }
        }
        if !wayTags.contains(where: { $0.key == "highway" }) { wayTags.append(("highway", "primary")) }
        wayTags.append(("name", "w"))
        let collector = RoadNetworkCollector()
        collector.add(way: OSMWay(id: 1, nodeRefs: [1, 2, 3], tags: wayTags))
        if !nodeTags.isEmpty { collector.add(node: 2, tags: nodeTags) }
        let step = 100 * Self.degreesPerMetre
        let positions: [Int64: (Double, Double)] = [1: (1, 1), 2: (1, 1 + step), 3: (1, 1 + 2 * step)]
        collector.resolveLocations { id in positions[id].flatMap { OSMLocation(latitude: $0.0, longitude: $0.1) } }
        let a = CLLocationCoordinate2D(latitude: 1, longitude: 1), b = CLLocationCoordinate2D(latitude: 1, longitude: 1 + 2 * step)
        func routable(_ from: CLLocationCoordinate2D, _ to: CLLocationCoordinate2D) -> Bool {
            guard collector.network.wayCount > 0 else { return false }
            let url = scratch.appendingPathComponent("routability-\(UUID().uuidString).graph")
            defer { try? FileManager.default.removeItem(at: url) }
            guard (try? RoadGraphBuilder(mode: mode).build(collector.network, to: url)) != nil,
                  let graph = try? RoadGraph(url: url), let paths = try? graph.route(from: from, to: to) else { return false }
            return (paths.first?.distance ?? 0) > 150
        }
        let forward = routable(a, b), backward = routable(b, a)
        var problems: [String] = []
        if let e = expectations["forw"], e != forward { problems.append("forward \(forward ? "routable" : "not routable")") }
        if let e = expectations["backw"], e != backward { problems.append("backward \(backward ? "routable" : "not routable")") }
        if let e = expectations["bothw"], e != (forward && backward), e || forward || backward {
            problems.append("forward \(forward), backward \(backward), expected both \(e)")
        }
        return problems.isEmpty ? nil : problems.joined(separator: ", ")
    }

    /// A scenario's drawn map as a road graph.
    struct World {
        var coordinates: [Character: CLLocationCoordinate2D] = [:]
        var graph: RoadGraph

        init(nodeMap: [String], grid: Double, ways: Table, relations: Table?, nodes: Table?, mode: TravelMode, scratch: URL) throws {
            let step = grid * OSRMFeatureRunner.degreesPerMetre
            var ids: [Character: Int64] = [:]
            var coordinates: [Character: CLLocationCoordinate2D] = [:]
            for (r, line) in nodeMap.enumerated() {
                for (c, ch) in line.enumerated() where ch.isLetter || ch.isNumber {
                    coordinates[ch] = CLLocationCoordinate2D(latitude: 1 - Double(r) * step, longitude: 1 + Double(c) * step)
                    if ids[ch] == nil { ids[ch] = Int64(ids.count + 1) }
                }
            }
            let collector = RoadNetworkCollector()
            var wayIDs: [String: Int64] = [:]
            for (index, row) in ways.rows.enumerated() {
                guard let nodeString = ways.value(row, "nodes") else { continue }
                var tags: [(key: String, value: String)] = []
                for (column, value) in zip(ways.header, row) where column != "nodes" && column != "#" && !value.isEmpty {
                    tags.append((column, value == "\"\"" ? "" : value))
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
                    let tags = zip(nodes.header, row).filter { $0.0 != "node" && !$0.1.isEmpty }.map { (key: $0.0, value: $0.1) }
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

        func route(_ from: String, _ to: String) -> [String] {
            guard let a = from.first.flatMap({ coordinates[$0] }), let b = to.first.flatMap({ coordinates[$0] }),
                  let paths = try? graph.route(from: a, to: b), let best = paths.first else { return [] }
            var names: [String] = []
            for segment in best.segments where names.last != (segment.name ?? "") { names.append(segment.name ?? "") }
            return names
        }
    }
}
