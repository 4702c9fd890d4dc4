import ArgumentParser
import Foundation
import OpenMapKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `openmapkit geodesic inverse|direct`: GeographicLib's `GeodSolve -i` and `GeodSolve` as filters.
///
/// Input and output follow GeodSolve's defaults so the two can be diffed line by line:
/// - `inverse` reads `lat1 lon1 lat2 lon2` and prints `azi1 azi2 s12`;
/// - `direct` reads `lat1 lon1 azi1 s12` and prints `lat2 lon2 azi2` (lon2 reduced to −180…180);
/// - angles are printed with prec + 5 decimals and distances with prec decimals (`-p`, default 3,
///   so 8 and 3), NaN as `nan`;
/// - angles are decimal degrees or degrees-minutes-seconds (`40d30'15"`, `40:30:15`), optionally
///   with a hemisphere letter (N/S on latitudes, E/W on longitudes); distances are plain numbers
///   (exponents allowed). Unlike GeodSolve, a hemisphere letter cannot be used to swap the order
///   of latitude and longitude.
/// - A line that does not parse (wrong field count, bad number, latitude beyond ±90°, blank line)
///   prints `ERROR: …` on standard output in its place (as GeodSolve does, keeping the outputs
///   aligned) and `geodesic: line N: …` on standard error; the other lines go on, and the exit
///   status is 1 if any line failed.
struct GeodesicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geodesic",
        abstract: "Geodesics on the WGS84 ellipsoid, line by line from standard input (like GeographicLib's GeodSolve).",
        subcommands: [Inverse.self, Direct.self]
    )

    struct Inverse: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "inverse",
            abstract: "Read 'lat1 lon1 lat2 lon2' lines, print 'azi1 azi2 s12' (as GeodSolve -i)."
        )

        @Option(name: .short, help: "Output precision relative to 1 m (0…10): angles get prec+5 decimals, distances prec.")
        var p: Int = 3

        func run() throws {
            let failed = Filter(mode: .inverse, precision: p).run()
            if failed { throw ExitCode(1) }
        }
    }

    struct Direct: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "direct",
            abstract: "Read 'lat1 lon1 azi1 s12' lines, print 'lat2 lon2 azi2' (as GeodSolve)."
        )

        @Option(name: .short, help: "Output precision relative to 1 m (0…10): angles get prec+5 decimals, distances prec.")
        var p: Int = 3

        func run() throws {
            let failed = Filter(mode: .direct, precision: p).run()
            if failed { throw ExitCode(1) }
        }
    }
}

extension GeodesicCommand {
    /// The streaming engine behind `geodesic inverse|direct`: reads standard input in large chunks,
    /// scans numbers by hand, and writes output through one buffer.
    struct Filter {
        enum Mode { case inverse, direct }
        let mode: Mode
        let angleDecimals: Int
        let distanceDecimals: Int
        let geodesic = Geodesic.wgs84

        init(mode: Mode, precision: Int) {
            self.mode = mode
            let prec = min(max(precision, 0), 10)
            angleDecimals = prec + 5
            distanceDecimals = prec
        }

        /// Processes all of standard input; true if any line failed.
        func run() -> Bool {
            var output = OutputBuffer()
            var failures = 0
            var lineNumber = 0
            var pending: [UInt8] = []       // an incomplete line carried over between chunks
            let chunkSize = 1 << 20
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { chunk.deallocate() }
            while true {
                let count = read(0, chunk.baseAddress, chunkSize)
                if count < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if count == 0 { break }
                let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count]).bindMemory(to: UInt8.self)
                var start = 0
                while let newline = bytes[start...].firstIndex(of: 10) {
                    lineNumber += 1
                    if pending.isEmpty {
                        if !processLine(UnsafeBufferPointer(rebasing: bytes[start..<newline]), lineNumber, &output) { failures += 1 }
                    } else {
                        pending.append(contentsOf: bytes[start..<newline])
                        let ok = pending.withUnsafeBufferPointer { processLine($0, lineNumber, &output) }
                        if !ok { failures += 1 }
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = newline + 1
                }
                if start < count { pending.append(contentsOf: bytes[start..<count]) }
            }
            if !pending.isEmpty {
                lineNumber += 1
                let ok = pending.withUnsafeBufferPointer { processLine($0, lineNumber, &output) }
                if !ok { failures += 1 }
            }
            output.flush()
            return failures > 0
        }

        /// Handles one line (without its newline); false if it was an error.
        private func processLine(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ output: inout OutputBuffer) -> Bool {
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 10) { bounds in
                processLine(line, number, &output, bounds)
            }
        }

        @inline(__always) private static func isBlank(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 11 || c == 12 || c == 13 }

        private func processLine(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ output: inout OutputBuffer,
                                 _ bounds: UnsafeMutableBufferPointer<Int>) -> Bool {
            let end = line.count
            // Split on blanks; collect at most 5 fields (a 5th means extraneous input).
            var fieldCount = 0
            var i = 0
            while i < end && fieldCount < 5 {
                while i < end && Filter.isBlank(line[i]) { i += 1 }
                if i == end { break }
                let s = i
                while i < end && !Filter.isBlank(line[i]) { i += 1 }
                bounds[2 * fieldCount] = s
                bounds[2 * fieldCount + 1] = i
                fieldCount += 1
            }
            func field(_ k: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: line[bounds[2 * k]..<bounds[2 * k + 1]]) }
            func text(_ k: Int) -> String { String(decoding: field(k), as: UTF8.self) }
            func fail(_ message: String) -> Bool {
                output.append("ERROR: ")
                output.append(message)
                output.append(10)
                output.flush()
                let note = "geodesic \(mode == .inverse ? "inverse" : "direct"): line \(number): \(message)\n"
                FileHandle.standardError.write(Data(note.utf8))
                return false
            }
            if fieldCount < 4 {
                var trimmed = end
                while trimmed > 0 && line[trimmed - 1] == 13 { trimmed -= 1 }
                return fail("Incomplete input: " + String(decoding: UnsafeBufferPointer(rebasing: line[0..<trimmed]), as: UTF8.self))
            }
            if fieldCount > 4 {
                return fail("Extraneous input: " + text(4))
            }
            var values = (0.0, 0.0, 0.0, 0.0)
            for k in 0..<4 {
                let kind: AngleKind
                switch (mode, k) {
                case (_, 0): kind = .latitude
                case (_, 1): kind = .longitude
                case (.inverse, 2): kind = .latitude
                case (.inverse, _): kind = .longitude
                case (.direct, 2): kind = .azimuth
                case (.direct, _): kind = .distance
                }
                let value: Double
                if kind == .distance {
                    guard let v = NumberScanner.number(field(k)) else { return fail("Cannot decode " + text(k)) }
                    value = v
                } else {
                    switch NumberScanner.angle(field(k), kind) {
                    case .success(let v): value = v
                    case .failure(let error): return fail(error.message)
                    }
                    if kind == .latitude && abs(value) > 90 {
                        return fail("Latitude \(text(k))d not in [-90d, 90d]")
                    }
                }
                switch k {
                case 0: values.0 = value
                case 1: values.1 = value
                case 2: values.2 = value
                default: values.3 = value
                }
            }
            switch mode {
            case .inverse:
                let r = geodesic.inverse(latitude1: values.0, longitude1: values.1, latitude2: values.2, longitude2: values.3)
                output.appendFixed(r.azimuth1, angleDecimals)
                output.append(32)
                output.appendFixed(r.azimuth2, angleDecimals)
                output.append(32)
                output.appendFixed(r.distance, distanceDecimals)
            case .direct:
                let r = geodesic.direct(latitude1: values.0, longitude1: values.1, azimuth1: values.2, distance: values.3)
                output.appendFixed(r.latitude2, angleDecimals)
                output.append(32)
                output.appendFixed(r.longitude2, angleDecimals)
                output.append(32)
                output.appendFixed(r.azimuth2, angleDecimals)
            }
            output.append(10)
            return true
        }
    }

    enum AngleKind { case latitude, longitude, azimuth, distance }

    struct AngleError: Error {
        var message: String
    }

    /// Hand-written number scanning: a fast exact path for ordinary decimals (≤ 15 significant digits,
    /// which is correctly rounded because both the integer and the power of ten are exact doubles),
    /// and `strtod` for everything else, so every value is the correctly rounded double.
    enum NumberScanner {
        /// 10^k for k = 0…22, all exact doubles (a switch: no lazily initialised table on the hot path).
        @inline(__always) static func power(_ k: Int) -> Double {
            switch k {
            case 0: 1
            case 1: 1e1
            case 2: 1e2
            case 3: 1e3
            case 4: 1e4
            case 5: 1e5
            case 6: 1e6
            case 7: 1e7
            case 8: 1e8
            case 9: 1e9
            case 10: 1e10
            case 11: 1e11
            case 12: 1e12
            case 13: 1e13
            case 14: 1e14
            case 15: 1e15
            case 16: 1e16
            case 17: 1e17
            case 18: 1e18
            case 19: 1e19
            case 20: 1e20
            case 21: 1e21
            default: 1e22
            }
        }

        /// A plain decimal: [+-]digits[.digits] with no exponent, or nil. Fast path only.
        @inline(__always)
        static func plainDecimal(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
            var i = 0
            let n = s.count
            var negative = false
            if i < n && (s[i] == 43 || s[i] == 45) { negative = s[i] == 45; i += 1 }
            var mantissa: UInt64 = 0
            var digits = 0, fractionDigits = 0
            var seenPoint = false, any = false
            while i < n {
                let c = s[i]
                if c >= 48 && c <= 57 {
                    any = true
                    if mantissa == 0 && c == 48 {
                        if seenPoint { fractionDigits += 1 }   // leading zeros don't count as significant
                    } else {
                        mantissa = mantissa &* 10 &+ UInt64(c - 48)
                        digits += 1
                        if seenPoint { fractionDigits += 1 }
                    }
                } else if c == 46 && !seenPoint {
                    seenPoint = true
                } else {
                    return nil
                }
                i += 1
            }
            guard any, digits <= 15, fractionDigits <= 22 else { return nil }
            let v = Double(mantissa) / power(fractionDigits)
            return negative ? -v : v
        }

        /// Any number strtod accepts (including exponents, nan, inf), with nothing left over.
        static func number(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
            if let v = plainDecimal(s) { return v }
            return strtodWhole(s)
        }

        static func strtodWhole(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
            if s.isEmpty || s.count > 400 { return nil }
            var buffer = [CChar](repeating: 0, count: s.count + 1)
            for k in 0..<s.count { buffer[k] = CChar(bitPattern: s[k]) }
            return buffer.withUnsafeMutableBufferPointer { b -> Double? in
                var end: UnsafeMutablePointer<CChar>? = nil
                guard let base = b.baseAddress else { return nil }
                let v = strtod(base, &end)
                guard let end, end - base == s.count else { return nil }
                return v
            }
        }

        /// An angle in degrees: decimal, or d/'/" (or :) separated components, with an optional hemisphere
        /// letter at either end. No exponents (as GeodSolve's DMS reader), but nan and inf are accepted.
        static func angle(_ s: UnsafeBufferPointer<UInt8>, _ kind: AngleKind) -> Result<Double, AngleError> {
            if let v = plainDecimal(s) { return .success(v) }
            let text = String(decoding: s, as: UTF8.self)
            let lower = text.lowercased()
            for special in ["nan", "+nan", "-nan"] where lower == special { return .success(.nan) }
            for (word, value) in [("inf", Double.infinity), ("+inf", .infinity), ("-inf", -.infinity),
                                  ("infinity", .infinity), ("+infinity", .infinity), ("-infinity", -.infinity)]
                where lower == word { return .success(value) }
            var chars = Array(text.unicodeScalars)
            var sign = 1.0
            // Hemisphere designator at the start or the end.
            func hemisphere(_ c: Unicode.Scalar) -> Double? {
                switch c {
                case "N", "n": return kind == .latitude ? 1 : nil
                case "S", "s": return kind == .latitude ? -1 : nil
                case "E", "e": return kind == .longitude || kind == .azimuth ? 1 : nil
                case "W", "w": return kind == .longitude || kind == .azimuth ? -1 : nil
                default: return nil
                }
            }
            if let last = chars.last, last.properties.isAlphabetic {
                guard let h = hemisphere(last) else { return .failure(AngleError(message: "Illegal character \(last) in DMS string \(text)")) }
                sign = h; chars.removeLast()
            } else if let first = chars.first, first.properties.isAlphabetic {
                guard let h = hemisphere(first) else { return .failure(AngleError(message: "Illegal character \(first) in DMS string \(text)")) }
                sign = h; chars.removeFirst()
            }
            if let first = chars.first, first == "-" || first == "+" {
                if first == "-" { sign = -sign }
                chars.removeFirst()
            }
            // Components: number followed by a unit mark (d ° ' ′ " ″ or :), the last one may omit it.
            var total = 0.0
            var unitIndex = 0                // 0 degrees, 1 minutes, 2 seconds (next implied unit)
            var current = ""
            var usedColon = false, usedMarks = false
            var components = 0
            func flush(_ unit: Int) -> Bool {
                guard !current.isEmpty, let v = Double(current), v >= 0, unit >= unitIndex, unit <= 2 else { return false }
                if unit > 0 && v >= 60 && components > 0 { return false }
                total += v / [1.0, 60, 3600][unit]
                unitIndex = unit + 1
                components += 1
                current = ""
                return true
            }
            for c in chars {
                switch c {
                case "0"..."9", ".":
                    current.unicodeScalars.append(c)
                case "d", "D", "°", "º":
                    usedMarks = true
                    if usedColon || !flush(0) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
                case "'", "′", "’":
                    usedMarks = true
                    if usedColon || !flush(1) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
                case "\"", "″", "”":
                    usedMarks = true
                    if usedColon || !flush(2) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
                case ":":
                    usedColon = true
                    if usedMarks || !flush(unitIndex) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
                default:
                    return .failure(AngleError(message: "Illegal character \(c) in DMS string \(text)"))
                }
            }
            if !current.isEmpty {
                if !flush(unitIndex) { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
            }
            if components == 0 { return .failure(AngleError(message: "Illegal DMS string \(text)")) }
            return .success(sign * total)
        }
    }

    /// Buffered standard output with a fast fixed-point formatter that prints exactly what
    /// printf("%.*f") prints (it falls back to vsnprintf in the rare cases near a rounding tie).
    struct OutputBuffer {
        private var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(1 << 17) }

        mutating func append(_ byte: UInt8) { bytes.append(byte) }
        mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }

        mutating func appendFixed(_ x: Double, _ decimals: Int) {
            if x.isNaN { append("nan"); return }
            if x.isInfinite { append(x < 0 ? "-inf" : "inf"); return }
            let y = abs(x) * NumberScanner.power(decimals)
            let r = y.rounded()
            // y carries a rounding error below one ulp; only trust the rounding if y is clearly away from a tie.
            if y < 1e15 && abs((y - y.rounded(.down)) - 0.5) > 4 * y.ulp + 1e-300 && r < 1e15 {
                if x.sign == .minus { bytes.append(45) }
                let n = UInt64(r)
                let scale = UInt64(NumberScanner.power(decimals))
                appendInteger(n / scale)
                if decimals > 0 {
                    bytes.append(46)
                    var fraction = n % scale
                    let base = bytes.count
                    bytes.append(contentsOf: repeatElement(48, count: decimals))
                    var k = base + decimals - 1
                    while fraction > 0 {
                        bytes[k] = UInt8(48 + fraction % 10)
                        fraction /= 10
                        k -= 1
                    }
                }
            } else {
                var buffer = [CChar](repeating: 0, count: 400)
                let length = buffer.withUnsafeMutableBufferPointer { b in
                    guard let base = b.baseAddress else { return Int32(0) }
                    return withVaList([Int32(decimals), x]) { vsnprintf(base, 400, "%.*f", $0) }
                }
                for k in 0..<Int(max(0, min(length, 399))) { bytes.append(UInt8(bitPattern: buffer[k])) }
            }
            if bytes.count >= 1 << 16 { flush() }
        }

        private mutating func appendInteger(_ value: UInt64) {
            if value == 0 { bytes.append(48); return }
            var v = value
            var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &tmp) { t in
                while v > 0 {
                    t[count] = UInt8(48 + v % 10)
                    v /= 10
                    count += 1
                }
                for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(t[k]) }
            }
        }

        mutating func flush() {
            bytes.withUnsafeBytes { b in
                guard let base = b.baseAddress else { return }
                var offset = 0
                while offset < b.count {
                    let written = write(1, base + offset, b.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
            bytes.removeAll(keepingCapacity: true)
        }
    }
}
