import Foundation
import TestSupport
import XCTest

/// A sample extract and its next version with one scripted edit of every kind an update must
/// handle (edit_extract.py), and the osmChange between them as `osmium derive-changes` writes it,
/// in a folder of their own: what the update tests apply and compare.
struct EditedExtract {
    var work: URL
    var old: URL, new: URL, change: URL
    /// The ids edit_extract.py chose, by the name of the edit.
    var edits: [String: Any]

    init(_ name: String, extract: String = "monaco") throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("openmapkit-edited-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        old = try TestData.shared("data/osm/\(extract).osm.pbf")
        new = work.appendingPathComponent("\(extract)-new.osm.pbf")
        change = work.appendingPathComponent("\(extract).osc")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("edit_extract.py")
        let edited = try runProcess("python3", [script.path, old.path, new.path])
        XCTAssertEqual(edited.status, 0, String(decoding: edited.standardError, as: UTF8.self))
        edits = try XCTUnwrap(try JSONSerialization.jsonObject(with: edited.standardOutput) as? [String: Any])
        let derived = try runProcess("osmium", ["derive-changes", old.path, new.path, "-o", change.path, "-O"])
        XCTAssertEqual(derived.status, 0, "osmium derive-changes failed (install osmium-tool): \(String(decoding: derived.standardError, as: UTF8.self))")
    }

    func remove() { try? FileManager.default.removeItem(at: work) }
}
