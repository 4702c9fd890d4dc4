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
            var failures = 0
            streamStandardInputLines { line, number, output in
                if !processLine(line, number, &output) { failures += 1 }
            }
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
}
