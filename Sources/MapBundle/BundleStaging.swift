import Foundation
import MapFormats

/// A bundle being written: a hidden folder beside the destination that the writer fills, and
/// that ``commit(_:)`` renames over the destination once its manifest is written (write aside,
/// then rename, through ``FileReplacement``). Until then the old bundle, if any, serves unchanged;
/// a staging folder that is dropped without a commit is removed, and one left by a killed
/// process is removed by the next writer to the same destination.
public final class BundleStaging {
    /// The bundle folder this will replace.
    public let destination: URL
    /// The hidden folder being filled.
    public let folder: URL
    private var committed = false

    /// Creates the staging folder for `destination` (and removes abandoned ones).
    public init(destination: URL) throws(BundleError) {
        self.destination = destination
        FileReplacement.removeAbandonedStaging(for: destination)
        folder = FileReplacement.stagingURL(for: destination)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw BundleError("cannot create \(folder.path): \(error)")
        }
    }

    deinit {
        if !committed { try? FileManager.default.removeItem(at: folder) }
    }

    /// Where the part named `name` is written.
    public func url(for name: String) -> URL { folder.appendingPathComponent(name) }

    /// Bytes in the staging folder so far (the files it holds, one level deep).
    public var bytesWritten: Int {
        let fileManager = FileManager.default
        return ((try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? []).reduce(0) { total, name in
            total + ((try? fileManager.attributesOfItem(atPath: url(for: name).path)[.size] as? Int) ?? 0)
        }
    }

    /// Writes `manifest` (last, so a folder with a manifest is complete) and moves the bundle
    /// over the destination.
    public func commit(_ manifest: BundleManifest) throws(BundleError) {
        do {
            try manifest.encoded().write(to: url(for: MapBundle.manifestFileName))
        } catch {
            throw BundleError("cannot write the manifest: \(error)")
        }
        do {
            try FileReplacement.replaceFolder(at: destination, with: folder)
        } catch {
            throw BundleError(error.message)
        }
        committed = true
    }
}
