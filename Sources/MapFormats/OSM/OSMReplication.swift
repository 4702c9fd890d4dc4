import Foundation

// OpenStreetMap replication (https://wiki.openstreetmap.org/wiki/Planet.osm/diffs): a directory of change
// files numbered by sequence, each with a `state.txt` saying which sequence it is and up to when it covers,
// and a `state.txt` at the top naming the latest. The planet's minutely, hourly and daily feeds and
// Geofabrik's per-region feeds all use this layout:
//
//   state.txt                  latest state
//   001/234/567.osc.gz         changes of sequence 1234567
//   001/234/567.state.txt      state after applying them
//
// Here: the state file, the sequence → path mapping, and a reader of such a directory on disk behind
// `ReplicationSource`, so that an HTTP source (another file, on top of this one) can serve the same
// updater. Applying changes is not this file's business; it hands out each sequence's bytes, which
// `OSMChange.decode` reads.

/// One `state.txt`: where a replication feed stands.
public struct ReplicationState: Hashable, Sendable {
    /// The sequence number this state describes (for the top-level `state.txt`, the latest one).
    public var sequenceNumber: Int
    /// The time up to which the changes of this sequence (and all before it) cover OpenStreetMap.
    public var timestamp: Date
    /// Every property of the file, unescaped, the two above included (`txnMax`, `txnActiveList` … that
    /// osmosis writes, kept for consumers that want them).
    public var properties: [String: String]

    public init(sequenceNumber: Int, timestamp: Date, properties: [String: String] = [:]) {
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.properties = properties
    }

    /// Decodes a state file: Java properties (`key=value` or `key: value`, `#` and `!` comments,
    /// backslash escapes such as the `\:` in every timestamp, continued lines) with a `sequenceNumber`
    /// and a `timestamp`.
    ///
    /// - Throws: ``ReplicationError/malformedState(_:)`` naming the line and what is wrong: no
    ///   `sequenceNumber` or `timestamp`, a sequence number that is not a non-negative integer of at most
    ///   nine digits, a timestamp that is not ISO 8601, bytes that are not UTF-8.
    public static func parse(_ data: Data) throws(ReplicationError) -> ReplicationState {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .malformedState("the state file is not UTF-8 text")
        }
        var properties: [String: String] = [:]
        var lines: [String: Int] = [:]
        var logical = ""
        var firstLine = 0
        var number = 0
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            number += 1
            var line = Substring(rawLine)
            if logical.isEmpty {
                line = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{0C}" }
                if line.isEmpty || line.first == "#" || line.first == "!" { continue }
                firstLine = number
            } else {
                // A continuation line's leading white space is dropped, as in Java.
                line = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{0C}" }
            }
            // An odd number of trailing backslashes continues the line.
            let trailing = line.reversed().prefix { $0 == "\\" }.count
            if trailing % 2 == 1 {
                logical += line.dropLast()
                continue
            }
            logical += line
            let (key, value) = try splitProperty(logical, line: firstLine)
            properties[key] = value
            lines[key] = firstLine
            logical = ""
        }
        if !logical.isEmpty {
            let (key, value) = try splitProperty(logical, line: firstLine)
            properties[key] = value
            lines[key] = firstLine
        }
        guard let sequenceText = properties["sequenceNumber"] else {
            throw .malformedState("the state file has no sequenceNumber")
        }
        guard let sequence = ReplicationPath.sequence(sequenceText) else {
            throw .malformedState("line \(lines["sequenceNumber"] ?? 0): sequenceNumber \"\(sequenceText)\" is not a whole number "
                                      + "from 0 to \(ReplicationPath.maximumSequence)")
        }
        guard let timestampText = properties["timestamp"] else {
            throw .malformedState("the state file has no timestamp")
        }
        guard let timestamp = OSMTimestamp.parse(timestampText) else {
            throw .malformedState("line \(lines["timestamp"] ?? 0): timestamp \"\(timestampText)\" is not an ISO 8601 time "
                                      + "like 2026-11-27T10:00:00Z")
        }
        return ReplicationState(sequenceNumber: sequence, timestamp: timestamp, properties: properties)
    }

    /// The state as a `state.txt` writes it, colons escaped, for tests and for mirrors of a feed.
    public var text: String {
        var lines = ["#\(ReplicationState.formatter(timestamp))"]
        var all = properties
        all["sequenceNumber"] = String(sequenceNumber)
        all["timestamp"] = ReplicationState.formatter(timestamp)
        for key in all.keys.sorted() {
            lines.append("\(escape(key, isKey: true))=\(escape(all[key]!, isKey: false))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func formatter(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ v: Int?) -> String { v.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 1970)-\(two(c.month))-\(two(c.day))T\(two(c.hour)):\(two(c.minute)):\(two(c.second))Z"
    }

    private func escape(_ text: String, isKey: Bool) -> String {
        var out = ""
        for (i, ch) in text.enumerated() {
            switch ch {
            case "\\": out += "\\\\"
            case ":", "=": out += "\\\(ch)"
            case "#" where i == 0, "!" where i == 0: out += "\\\(ch)"
            case " " where isKey || i == 0: out += "\\ "
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Splits a logical line at its first unescaped `=`, `:` or white space, unescaping both sides.
    private static func splitProperty(_ line: String, line number: Int) throws(ReplicationError) -> (String, String) {
        let chars = Array(line)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "\\" {
                i += 2
                continue
            }
            if c == "=" || c == ":" || c == " " || c == "\t" || c == "\u{0C}" { break }
            i += 1
        }
        i = min(i, chars.count)
        let key = try unescape(chars[0..<i], line: number)
        // Separator: white space, then at most one '=' or ':', then white space.
        while i < chars.count, chars[i] == " " || chars[i] == "\t" || chars[i] == "\u{0C}" { i += 1 }
        if i < chars.count, chars[i] == "=" || chars[i] == ":" { i += 1 }
        while i < chars.count, chars[i] == " " || chars[i] == "\t" || chars[i] == "\u{0C}" { i += 1 }
        let value = try unescape(chars[i...], line: number)
        return (key, value)
    }

    private static func unescape(_ chars: ArraySlice<Character>, line: Int) throws(ReplicationError) -> String {
        var out = ""
        var i = chars.startIndex
        while i < chars.endIndex {
            let c = chars[i]
            guard c == "\\" else {
                out.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < chars.endIndex else { break }
            switch chars[i] {
            case "t": out.append("\t")
            case "n": out.append("\n")
            case "r": out.append("\r")
            case "f": out.append("\u{0C}")
            case "u":
                let hex = String(chars[(i + 1)..<min(i + 5, chars.endIndex)])
                guard hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else {
                    throw .malformedState("line \(line): a malformed \\u escape")
                }
                out.unicodeScalars.append(scalar)
                i += 4
            default: out.append(chars[i])
            }
            i += 1
        }
        return out
    }
}

/// Where a sequence's files sit in a replication directory: the number as nine digits split in threes,
/// `001/234/567.osc.gz` and `001/234/567.state.txt` for sequence 1234567.
public enum ReplicationPath {
    /// The largest sequence nine digits can name. The planet's minutely feed, the fastest, is in the
    /// millions; a feed that outgrew the layout would need a new one, not a wider number here.
    public static let maximumSequence = 999_999_999

    /// The three path parts of a sequence ("001", "234", "567"), or nil outside 0…``maximumSequence``.
    public static func components(of sequence: Int) -> [String]? {
        guard sequence >= 0, sequence <= maximumSequence else { return nil }
        func three(_ v: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: 3 - s.count) + s
        }
        return [three(sequence / 1_000_000), three(sequence / 1000 % 1000), three(sequence % 1000)]
    }

    /// The relative path of a sequence's change file, `001/234/567.osc.gz`.
    public static func changes(of sequence: Int) throws(ReplicationError) -> String {
        guard let parts = components(of: sequence) else { throw .sequenceOutOfRange(sequence) }
        return parts.joined(separator: "/") + ".osc.gz"
    }

    /// The relative path of a sequence's state file, `001/234/567.state.txt`.
    public static func state(of sequence: Int) throws(ReplicationError) -> String {
        guard let parts = components(of: sequence) else { throw .sequenceOutOfRange(sequence) }
        return parts.joined(separator: "/") + ".state.txt"
    }

    /// The sequence a relative path names (`001/234/567.osc.gz`, `001/234/567.state.txt`), or nil.
    public static func sequence(ofPath path: String) -> Int? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 3 else { return nil }
        let last3 = parts.suffix(3).map(String.init)
        guard let file = last3[2].split(separator: ".", maxSplits: 1).first,
              last3[0].count == 3, last3[1].count == 3, file.count == 3,
              let a = Int(last3[0]), let b = Int(last3[1]), let c = Int(file),
              last3[0].allSatisfy(\.isASCIIDigit), last3[1].allSatisfy(\.isASCIIDigit), file.allSatisfy(\.isASCIIDigit)
        else { return nil }
        return a * 1_000_000 + b * 1000 + c
    }

    /// A sequence number as written in a state file: ASCII digits only, at most ``maximumSequence``.
    static func sequence(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 10, text.allSatisfy(\.isASCIIDigit), let value = Int(text),
              value <= maximumSequence else { return nil }
        return value
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

/// Why a replication feed could not be read.
public enum ReplicationError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// A state file that should exist does not: the top-level `state.txt` (sequence nil) or a sequence's.
    case missingState(sequence: Int?, location: String)
    /// A sequence's change file does not exist.
    case missingChanges(sequence: Int, location: String)
    /// A state file is not what the format says; the text names the line and the problem.
    case malformedState(String)
    /// A sequence number below 0 or beyond nine digits (``ReplicationPath/maximumSequence``).
    case sequenceOutOfRange(Int)
    /// A sequence's state file names another sequence: the feed is damaged or mis-copied.
    case sequenceMismatch(expected: Int, found: Int)
    /// A sequence between the one applied and the latest is missing from the feed, so the changes after
    /// it cannot be applied without losing its own.
    case gap(missing: Int, latest: Int)
    /// The feed's latest sequence is older than the one already applied: a different feed, or one that
    /// was reset; applying from it would go backwards.
    case behind(applied: Int, latest: Int)
    /// The source failed for a reason of its own (a file that cannot be read, a network error).
    case unavailable(String)

    public var description: String {
        switch self {
        case .missingState(let sequence?, let location): "no state file for sequence \(sequence) at \(location)"
        case .missingState(nil, let location): "no state file at \(location)"
        case .missingChanges(let sequence, let location): "no change file for sequence \(sequence) at \(location)"
        case .malformedState(let problem): "malformed state file: \(problem)"
        case .sequenceOutOfRange(let sequence): "sequence \(sequence) is outside 0…\(ReplicationPath.maximumSequence)"
        case .sequenceMismatch(let expected, let found): "the state file of sequence \(expected) says sequence \(found)"
        case .gap(let missing, let latest): "sequence \(missing) is missing from the feed, whose latest is \(latest)"
        case .behind(let applied, let latest): "the feed's latest sequence \(latest) is older than the applied \(applied)"
        case .unavailable(let problem): problem
        }
    }

    public var errorDescription: String? { description }
}

/// Where replication states and change files come from: a directory on disk here, an HTTP server in
/// another file. The updater works against this protocol, so it does not care which.
///
/// Requirements are `async` so that a network source can implement them without blocking; the directory
/// source implements them synchronously.
public protocol ReplicationSource: Sendable {
    /// The feed's latest state (its top-level `state.txt`).
    func latestState() async throws(ReplicationError) -> ReplicationState
    /// The state after applying `sequence`; its ``ReplicationState/sequenceNumber`` is `sequence`.
    ///
    /// - Throws: ``ReplicationError/missingState(sequence:location:)`` when the feed does not have it.
    func state(of sequence: Int) async throws(ReplicationError) -> ReplicationState
    /// The bytes of the change file of `sequence`, as stored (gzip for every known feed); decode them
    /// with ``OSMChange/decode(_:decompressedLimit:)``.
    ///
    /// - Throws: ``ReplicationError/missingChanges(sequence:location:)`` when the feed does not have it.
    func changes(of sequence: Int) async throws(ReplicationError) -> Data
}

/// One step of catching up: a sequence's state and change file.
public struct ReplicationUpdate: Sendable {
    /// The state after applying ``changes``; store its sequence number once they are applied.
    public var state: ReplicationState
    /// The change file's bytes, as ``ReplicationSource/changes(of:)`` returned them.
    public var changes: Data

    public init(state: ReplicationState, changes: Data) {
        self.state = state
        self.changes = changes
    }
}

extension ReplicationSource {
    /// The sequences to apply after `applied` to reach the latest state, or nil when already there.
    ///
    /// - Throws: ``ReplicationError/behind(applied:latest:)`` when the feed's latest is older than
    ///   `applied`, or what ``latestState()`` throws.
    public func pendingSequences(after applied: Int) async throws(ReplicationError) -> ClosedRange<Int>? {
        let latest = try await latestState().sequenceNumber
        guard latest >= applied else { throw .behind(applied: applied, latest: latest) }
        return latest == applied ? nil : (applied + 1)...latest
    }

    /// The update that follows `applied`: the state and change file of sequence `applied + 1`, checked to
    /// be that sequence; nil when `applied` is the latest. Call again with the returned state's sequence
    /// number to catch up one sequence at a time.
    ///
    /// - Throws: ``ReplicationError/gap(missing:latest:)`` when the next sequence is missing although the
    ///   feed is further along, ``ReplicationError/sequenceMismatch(expected:found:)`` when its state file
    ///   names another, ``ReplicationError/behind(applied:latest:)``, and the source's own errors.
    public func update(after applied: Int) async throws(ReplicationError) -> ReplicationUpdate? {
        guard let pending = try await pendingSequences(after: applied) else { return nil }
        return try await update(of: pending.lowerBound, latest: pending.upperBound)
    }

    /// The state and change file of `sequence`, checked to be that sequence, for a caller that
    /// already knows the feed's `latest` (one that walks a range from ``pendingSequences(after:)``).
    ///
    /// - Throws: ``ReplicationError/gap(missing:latest:)`` when the feed lacks `sequence`,
    ///   ``ReplicationError/sequenceMismatch(expected:found:)`` when its state file names another,
    ///   and the source's own errors.
    public func update(of sequence: Int, latest: Int) async throws(ReplicationError) -> ReplicationUpdate {
        let state: ReplicationState
        let changes: Data
        do {
            state = try await self.state(of: sequence)
            changes = try await self.changes(of: sequence)
        } catch {
            switch error {
            case .missingState, .missingChanges: throw .gap(missing: sequence, latest: latest)
            default: throw error
            }
        }
        guard state.sequenceNumber == sequence else { throw .sequenceMismatch(expected: sequence, found: state.sequenceNumber) }
        return ReplicationUpdate(state: state, changes: changes)
    }
}

/// A replication feed in a local directory: a mirror of a planet or Geofabrik feed, or one written by
/// `osmium` tools or a test, laid out as ``ReplicationPath`` says.
public struct ReplicationDirectory: ReplicationSource {
    /// The directory holding the top-level `state.txt` and the `000/` … folders.
    public var root: URL

    public init(root: URL) {
        self.root = root
    }

    public func latestState() throws(ReplicationError) -> ReplicationState {
        try readState(root.appendingPathComponent("state.txt"), sequence: nil)
    }

    public func state(of sequence: Int) throws(ReplicationError) -> ReplicationState {
        let state = try readState(root.appendingPathComponent(try ReplicationPath.state(of: sequence)), sequence: sequence)
        guard state.sequenceNumber == sequence else { throw .sequenceMismatch(expected: sequence, found: state.sequenceNumber) }
        return state
    }

    public func changes(of sequence: Int) throws(ReplicationError) -> Data {
        let url = root.appendingPathComponent(try ReplicationPath.changes(of: sequence))
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .missingChanges(sequence: sequence, location: url.path)
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .unavailable("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    private func readState(_ url: URL, sequence: Int?) throws(ReplicationError) -> ReplicationState {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw .missingState(sequence: sequence, location: url.path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unavailable("cannot read \(url.path): \(error.localizedDescription)")
        }
        do {
            return try ReplicationState.parse(data)
        } catch {
            if case .malformedState(let problem) = error { throw .malformedState("\(url.path): \(problem)") }
            throw error
        }
    }
}
