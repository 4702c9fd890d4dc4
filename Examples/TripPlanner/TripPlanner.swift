// Runs the trip planner in a window:
//
//     swift run trip-planner [BUNDLE] [--size 1000x700] [--report] [--screenshot PATH]
//
// BUNDLE is an imported bundle (`make run` imports the Monaco sample); without it,
// OPENMAPKIT_BUNDLE names one. `--report` prints what the window did as JSON lines (as
// `openmapkit view --report`); `--screenshot` writes the last frame as a PNG when the window closes.

import Foundation
import MapWindow
import OpenMapKit

@main
@MainActor
struct TripPlanner {
    static func main() {
        do {
            try run(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("trip-planner: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: [String]) throws {
        var bundle: String?, size = CGSize(width: 1000, height: 700), report = false, screenshot: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--report": report = true
            case "--size":
                let parts = (rest.popFirst() ?? "").split(separator: "x").compactMap { Double($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 >= 200 && $0 <= 4000 }) else { throw Failure("--size takes WIDTHxHEIGHT, 200 to 4000 each") }
                size = CGSize(width: parts[0], height: parts[1])
            case "--screenshot":
                guard let path = rest.popFirst() else { throw Failure("--screenshot takes a path") }
                screenshot = path
            case let path where !path.hasPrefix("-") && bundle == nil: bundle = path
            default: throw Failure("unknown argument \(argument); usage: trip-planner [BUNDLE] [--size WxH] [--report] [--screenshot PATH]")
            }
        }
        // The searches and directions of the talk's code read the default data source.
        let source = try bundle.map { try MapDataSource(path: $0) } ?? MapDataSource.resolved()
        MapDataSource.default = source

        let view = ContentView()
        let host = MapHost(frame: CGRect(origin: .zero, size: size), dataSource: source) { view.body }
        let window = try MapWindow(mapHost: host, title: "Trip Planner", size: size)
        window.panel = { view.panel }
        if report {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            window.onReport = { line in
                guard let data = try? encoder.encode(line) else { return }
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            }
        }
        try window.run()
        if let screenshot { try Data(window.framePNG()).write(to: URL(fileURLWithPath: screenshot)) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
