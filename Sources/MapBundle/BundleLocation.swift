import Foundation

/// How bundles are found: the paths a caller names (a bundle folder, several separated by `:`, or
/// a folder of bundles), else `$OPENMAPKIT_BUNDLE`, which takes the same forms.
///
/// A folder of bundles is a folder without a manifest whose subfolders hold bundles
/// (`regions/monaco.omk`, `regions/andorra.omk`): it stands for those bundles, in name order, so a
/// server can be pointed at one folder that grows as regions are imported into it.
public enum BundleLocation {
    /// The bundle folders that `paths` name, or, when `paths` is empty, that
    /// `$OPENMAPKIT_BUNDLE` names. Empty when neither names any. Throws for a path that is neither a
    /// bundle nor a folder holding bundles.
    public static func urls(_ paths: [String], environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(BundleError) -> [URL] {
        var entries = paths.flatMap(split)
        if entries.isEmpty, let value = environment[MapBundle.environmentVariable] { entries = split(value) }
        var urls: [URL] = []
        for entry in entries { urls += try expand(URL(fileURLWithPath: entry)) }
        return urls
    }

    /// `a:b:c` → its non-empty parts, as `PATH`-like variables are written.
    public static func split(_ list: String) -> [String] {
        list.split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }

    /// A bundle folder as itself; a folder of bundles as the bundles in it, in name order.
    public static func expand(_ url: URL) throws(BundleError) -> [URL] {
        if MapBundle.isBundle(url) { return [url] }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue,
           let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) {
            // Hidden names are staging and old copies of bundles being replaced (FileReplacement).
            let bundles = names.filter { !$0.hasPrefix(".") }.sorted()
                .map { url.appendingPathComponent($0) }.filter(MapBundle.isBundle)
            if !bundles.isEmpty { return bundles }
        }
        throw BundleError("\(url.path) is not a map bundle (no manifest.json); make one with `openmapkit import`")
    }
}
