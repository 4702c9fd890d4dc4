import Foundation
import TestSupport
import XCTest

/// `kill -9` at points spread over an `openmapkit import` and an `openmapkit update`: whatever the
/// point, the bundle in place is one whole version, the old one or the new one, once it is opened
/// again (opening finishes or undoes an update a dead process left half done: `UpdateJournal`).
final class KillDuringWriteTests: XCTestCase {
    private var binary: URL { Bundle.main.bundleURL.appendingPathComponent("openmapkit") }
    /// Kill points per command, spread evenly over its run.
    private static let points = 10

    private func work(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("omk-kill-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The SHA-1 of each file, by name.
    private func digests(_ folder: URL, _ names: [String]) throws -> [String: String] {
        let result = try runProcess("sha1sum", names.map { folder.appendingPathComponent($0).path })
        XCTAssertEqual(result.status, 0, result.stderr)
        var digests: [String: String] = [:]
        for line in result.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            digests[URL(fileURLWithPath: String(parts[1].trimmingCharacters(in: .whitespaces))).lastPathComponent] = String(parts[0])
        }
        return digests
    }

    /// Runs the command line and kills it with SIGKILL `delay` seconds after it started or, with
    /// a `trigger`, after its progress on standard error first says `trigger` (the last phase,
    /// where a few milliseconds decide between the versions). Returns whether it was still
    /// running when killed.
    private func runKilled(_ arguments: [String], after delay: Double, trigger: String? = nil) throws -> Bool {
        final class Output: @unchecked Sendable {
            let lock = NSLock()
            var text = ""
        }
        let process = Process(), errors = Pipe(), output = Output()
        process.executableURL = binary
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            output.lock.withLock { output.text += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        if let trigger {
            while process.isRunning && !output.lock.withLock({ output.text.contains(trigger) }) { usleep(200) }
        }
        let deadline = Date().addingTimeInterval(delay)
        while process.isRunning && Date() < deadline { usleep(250) }
        let killed = process.isRunning
        if killed { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        errors.fileHandleForReading.readabilityHandler = nil
        return killed
    }

    /// Kill points: spread evenly over a run of `duration` seconds, then a few milliseconds apart
    /// after the last phase begins, and last one long after it (the run has finished by then, on
    /// a loaded machine too, so both versions are always seen).
    private static func killPoints(duration: Double) -> [(delay: Double, afterLastPhase: Bool)] {
        (0..<points).map { (duration * (Double($0) + 0.5) / Double(points), false) }
            + [0, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 20].map { ($0, true) }
    }

    private func updateCount(_ bundle: URL) throws -> Int {
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json"))) as? [String: Any])
        return (manifest["updates"] as? [String: Any])?["count"] as? Int ?? -1
    }

    func testAKilledUpdateLeavesTheOldVersionOrTheNew() throws {
        let folder = try work("update")
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("base.omk")
        let imported = try runProcess(binary.path, ["import", try TestData.shared("data/osm/monaco.osm.pbf").path, "-o", base.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let change = folder.appendingPathComponent("cafe.osc")
        try UpdateCommandTests.cafeChange(name: "Café des Tests").write(to: change, atomically: true, encoding: .utf8)
        // Every part an update writes, compared byte for byte (the road graphs too, though a café
        // leaves them as they were): an update writes the same bytes in every process.
        let parts = ["tiles.mbtiles", "places.sqlite", "scene.sqlite", "osm.sqlite", "features.sqlite",
                     "roads-automobile.graph", "roads-cycling.graph", "roads-walking.graph"]
        let before = try digests(base, parts)

        // The whole update once, timed: the new version's bytes (an update is deterministic).
        let reference = folder.appendingPathComponent("reference.omk")
        try FileManager.default.copyItem(at: base, to: reference)
        let started = Date()
        let updated = try runProcess(binary.path, ["update", reference.path, change.path])
        XCTAssertEqual(updated.status, 0, updated.stderr)
        let duration = Date().timeIntervalSince(started)
        let after = try digests(reference, parts)
        XCTAssertNotEqual(before["places.sqlite"], after["places.sqlite"])
        XCTAssertNotEqual(before["scene.sqlite"], after["scene.sqlite"])
        XCTAssertNotEqual(before["tiles.mbtiles"], after["tiles.mbtiles"])

        var outcomes: [String] = []
        for (point, (delay, afterLastPhase)) in Self.killPoints(duration: duration).enumerated() {
            let bundle = folder.appendingPathComponent("killed-\(point).omk")
            try FileManager.default.copyItem(at: base, to: bundle)
            let killed = try runKilled(["update", bundle.path, change.path], after: delay, trigger: afterLastPhase ? "committing" : nil)
            // Opening the bundle (any verb does) puts it right.
            let search = try runProcess(binary.path, ["search", "Café des Tests", "--bundle", bundle.path, "--json"])
            XCTAssertTrue(search.status == 0 || search.stderr.contains("no place matches"), "kill at \(delay) s: \(search.stderr)")
            let now = try digests(bundle, parts)
            let count = try updateCount(bundle)
            let version = now == before ? "old" : now == after ? "new" : "mixed"
            XCTAssertNotEqual(version, "mixed", "kill at \(String(format: "%.2f", delay)) s: parts of both versions: "
                              + parts.filter { now[$0] != before[$0] }.joined(separator: ", ") + " changed, "
                              + parts.filter { now[$0] != after[$0] }.joined(separator: ", ") + " not")
            XCTAssertEqual(count, version == "new" ? 1 : 0, "kill at \(delay) s: the manifest's update count")
            // Search answers as the version says.
            XCTAssertEqual(search.stdout.contains("Café des Tests"), version == "new", "kill at \(delay) s: \(search.stdout.prefix(200))")
            // No journal is left; a version rolled back takes the update again and becomes the new
            // one, with nothing left beside it (remade parts of the killed run are replaced).
            XCTAssertFalse(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("update-journal.json").path))
            if version == "old" && point % 3 == 0 {
                let again = try runProcess(binary.path, ["update", bundle.path, change.path])
                XCTAssertEqual(again.status, 0, "after a kill at \(delay) s: \(again.stderr)")
                XCTAssertEqual(try digests(bundle, parts), after, "after a kill at \(delay) s, the update again")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".killed-\(point).omk") }
                XCTAssertEqual(leftovers, [], "after a kill at \(delay) s, the update again")
            }
            outcomes.append("\(afterLastPhase ? "commit + " : "")\(String(format: "%.3f", delay)) s: \(killed ? "killed" : "done"), \(version)")
            try? FileManager.default.removeItem(at: bundle)
        }
        // The points reach both sides of the commit.
        XCTAssertTrue(outcomes.contains { $0.hasSuffix("old") } && outcomes.contains { $0.hasSuffix("new") }, "\(outcomes)")
        print("kill -9 during update (\(String(format: "%.1f", duration)) s):", outcomes.joined(separator: "; "))
    }

    func testAKilledImportLeavesTheOldBundleOrTheNew() throws {
        let folder = try work("import")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pbf = try TestData.shared("data/osm/monaco.osm.pbf").path
        // The old bundle: tiles only. The new one, imported over it: tiles and the place index.
        // (Their tile archives name the bundle folder, so the bytes differ; the set of files tells.)
        let old = folder.appendingPathComponent("old.omk"), new = folder.appendingPathComponent("new.omk")
        XCTAssertEqual(try runProcess(binary.path, ["import", pbf, "-o", old.path, "--tiles-only"]).status, 0)
        let started = Date()
        let full = try runProcess(binary.path, ["import", pbf, "-o", new.path, "--no-road-graphs", "--no-street-scene", "--no-update-data"])
        XCTAssertEqual(full.status, 0, full.stderr)
        let duration = Date().timeIntervalSince(started)
        let oldFiles = try FileManager.default.contentsOfDirectory(atPath: old.path).sorted()
        let newFiles = try FileManager.default.contentsOfDirectory(atPath: new.path).sorted()
        XCTAssertNotEqual(oldFiles, newFiles)

        var outcomes: [String] = []
        for (point, (delay, afterLastPhase)) in Self.killPoints(duration: duration).enumerated() {
            let bundle = folder.appendingPathComponent("killed-\(point).omk")
            try FileManager.default.copyItem(at: old, to: bundle)
            let killed = try runKilled(["import", pbf, "-o", bundle.path, "--no-road-graphs", "--no-street-scene", "--no-update-data"],
                                       after: delay, trigger: afterLastPhase ? "finishing the bundle" : nil)
            // A bundle is always there, whole: the old files or the new ones, every one readable.
            let files = try FileManager.default.contentsOfDirectory(atPath: bundle.path).sorted()
            let version = files == oldFiles ? "old" : files == newFiles ? "new" : "mixed"
            XCTAssertNotEqual(version, "mixed", "kill at \(delay) s: \(files)")
            let inspect = try runProcess(binary.path, ["tiles", "inspect", "--bundle", bundle.path, "14/8529/5974"])
            XCTAssertEqual(inspect.status, 0, "kill at \(delay) s: \(inspect.stderr)")
            if version == "new" {
                let search = try runProcess(binary.path, ["search", "Casino", "--bundle", bundle.path])
                XCTAssertEqual(search.status, 0, "kill at \(delay) s: \(search.stderr)")
            }
            outcomes.append("\(afterLastPhase ? "last phase + " : "")\(String(format: "%.3f", delay)) s: \(killed ? "killed" : "done"), \(version)")
        }
        XCTAssertTrue(outcomes.contains { $0.hasSuffix("old") } && outcomes.contains { $0.hasSuffix("new") }, "\(outcomes)")
        print("kill -9 during import (\(String(format: "%.1f", duration)) s):", outcomes.joined(separator: "; "))
        // The next import clears what the killed ones left beside the bundles.
        let again = folder.appendingPathComponent("killed-0.omk")
        XCTAssertEqual(try runProcess(binary.path, ["import", pbf, "-o", again.path, "--tiles-only"]).status, 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".killed-0.omk") }
        XCTAssertEqual(leftovers, [], "staging left beside the bundle")
    }
}
