import ArgumentParser
import Foundation
import OpenMapKit

/// Coordinates on the command line are written `LAT,LON`.
extension CLLocationCoordinate2D: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let latitude = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let longitude = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        let coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        guard CLLocationCoordinate2DIsValid(coordinate) else { return nil }
        self = coordinate
    }
}

/// A span written `LATDELTA,LONDELTA` in degrees, each positive and at most 180 and 360.
extension MKCoordinateSpan: ExpressibleByArgument {
    public init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitudeDelta = Double(parts[0]), let longitudeDelta = Double(parts[1]),
              latitudeDelta > 0, latitudeDelta <= 180, longitudeDelta > 0, longitudeDelta <= 360 else { return nil }
        self.init(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
    }
}

/// A view size written `WIDTHxHEIGHT` in points, e.g. `1024x768`.
struct ViewSize: ExpressibleByArgument, CustomStringConvertible {
    var width: Double
    var height: Double

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w >= 1, h >= 1, w <= 100_000, h <= 100_000 else { return nil }
        width = w
        height = h
    }

    var cgSize: CGSize { CGSize(width: width, height: height) }
    var description: String { "\(Int(width))x\(Int(height))" }
}

/// Prints a value as pretty, key-sorted JSON (every verb's `--json` output).
func printJSON<T: Encodable>(_ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// What the verbs that write a file (`snapshot`, `tiles render`, `tiles export`) print with `--json`.
struct WrittenFile: Encodable {
    let output: String
    let bytes: Int
    var width: Int?
    var height: Int?
    var tiles: Int?

    /// Prints this as JSON, or `text` for people.
    func report(json: Bool, text: String) throws {
        if json { try printJSON(self) } else { print(text) }
    }
}

/// A failure to report as `Error: <message>` with exit status 1 (ArgumentParser prints it).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// Any error as a one-line reason: a MapKit error by its reason (else its code's summary),
    /// a command failure as it is, anything else as it describes itself.
    init(_ error: any Error) {
        switch error {
        case let error as CommandFailure: self = error
        case let error as MKError: self.init(error.reason ?? error.code.summary)
        default: self.init("\(error)")
        }
    }
}
