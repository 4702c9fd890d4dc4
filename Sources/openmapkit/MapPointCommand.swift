import ArgumentParser
import Foundation
import OpenMapKit

/// `openmapkit mappoint`: projects `LAT LON` lines from standard input to MapKit map points
/// (`X Y`, 4 decimals), or back with `--inverse` (9 decimals). Streams, so it handles input of
/// any size; a line that does not parse prints `ERROR: …` in its place and a message on
/// standard error, and the exit status is 1 if any line failed.
struct MapPointCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mappoint",
        abstract: "Convert coordinates (LAT LON per line, stdin) to map points (X Y), or back with --inverse."
    )

    @Flag(help: "Read map points X Y and print coordinates LAT LON.")
    var inverse = false

    func run() throws {
        var failures = 0
        let inverse = self.inverse
        streamStandardInputLines { line, number, output in
            guard let (a, b) = twoNumbers(line) else {
                failures += 1
                let text = String(decoding: line.prefix(80), as: UTF8.self)
                output.append("ERROR: expected two numbers\n")
                FileHandle.standardError.write(Data("mappoint: line \(number): expected two numbers, got \"\(text)\"\n".utf8))
                return
            }
            if inverse {
                let c = MKMapPoint(x: a, y: b).coordinate
                output.appendFixed(c.latitude, 9)
                output.append(32)
                output.appendFixed(c.longitude, 9)
            } else {
                let coordinate = CLLocationCoordinate2D(latitude: a, longitude: b)
                guard CLLocationCoordinate2DIsValid(coordinate) else {
                    failures += 1
                    output.append("ERROR: coordinate out of range\n")
                    FileHandle.standardError.write(Data("mappoint: line \(number): \(a),\(b) is not a valid coordinate\n".utf8))
                    return
                }
                let p = MKMapPoint(coordinate)
                output.appendFixed(p.x, 4)
                output.append(32)
                output.appendFixed(p.y, 4)
            }
            output.append(10)
        }
        if failures > 0 { throw ExitCode(1) }
    }
}

/// The two numbers of a line separated by blanks or a comma; nil for anything else.
private func twoNumbers(_ line: UnsafeBufferPointer<UInt8>) -> (Double, Double)? {
    @inline(__always) func isSeparator(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 44 || c == 13 }
    var fields = (0..<0, 0..<0)
    var count = 0
    var i = 0
    while i < line.count {
        while i < line.count, isSeparator(line[i]) { i += 1 }
        let start = i
        while i < line.count, !isSeparator(line[i]) { i += 1 }
        guard i > start else { continue }
        count += 1
        if count == 1 { fields.0 = start..<i } else if count == 2 { fields.1 = start..<i } else { return nil }
    }
    guard count == 2,
          let a = NumberScanner.number(UnsafeBufferPointer(rebasing: line[fields.0])),
          let b = NumberScanner.number(UnsafeBufferPointer(rebasing: line[fields.1])),
          a.isFinite, b.isFinite else { return nil }
    return (a, b)
}
