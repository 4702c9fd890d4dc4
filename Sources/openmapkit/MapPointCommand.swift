import ArgumentParser
import Foundation
import OpenMapKit

/// `openmapkit mappoint`: projects `LAT LON` lines from standard input to MapKit map points
/// (`x y`), or back with `--inverse`. Streams, so it handles files of any size.
struct MapPointCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mappoint",
        abstract: "Convert coordinates (LAT LON per line, stdin) to map points (X Y), or back with --inverse."
    )

    @Flag(help: "Read map points X Y and print coordinates LAT LON.")
    var inverse = false

    func run() throws {
        var failures = 0
        var output = ""
        output.reserveCapacity(1 << 16)
        var lineNumber = 0
        while let line = readLine(strippingNewline: true) {
            lineNumber += 1
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            guard fields.count == 2, let a = Double(fields[0]), let b = Double(fields[1]), a.isFinite, b.isFinite else {
                if !line.allSatisfy(\.isWhitespace) {
                    failures += 1
                    FileHandle.standardError.write(Data("line \(lineNumber): expected two numbers, got \"\(line.prefix(80))\"\n".utf8))
                }
                continue
            }
            if inverse {
                let c = MKMapPoint(x: a, y: b).coordinate
                output += String(format: "%.9f %.9f\n", c.latitude, c.longitude)
            } else {
                let p = MKMapPoint(CLLocationCoordinate2D(latitude: a, longitude: b))
                output += String(format: "%.4f %.4f\n", p.x, p.y)
            }
            if output.utf8.count > 60_000 {
                FileHandle.standardOutput.write(Data(output.utf8))
                output.removeAll(keepingCapacity: true)
            }
        }
        FileHandle.standardOutput.write(Data(output.utf8))
        if failures > 0 { throw ExitCode(1) }
    }
}
