import Foundation
import GRDB
import MapGeometry

// Answers in the reader's language. A record stores its own `name:xx` names, but its address
// holds plain strings: `addr:street` and the boundaries' `name`. Those are translated here, at
// answer time, from the street and area records of the same name nearby, so the index keeps one
// address per place and every language the data has is available without storing it per address.

extension PlaceIndex {
    /// How far the street or area lending its translated name may lie from the place: a street's
    /// record point is the middle of its longest way, an area's its label point.
    static let streetTranslationRadius = 3_000.0
    static let areaTranslationRadius = 100_000.0

    /// `record` as written for a reader of `language` (an ISO 639 code such as "sv" or "en"): its
    /// name, its street and the localities and areas of its address by their `name:<language>`
    /// where the data has one, the country by Foundation's locale data (CLDR); everything else,
    /// and whatever has no translation, stays as `name` says.
    public func localized(_ record: PlaceRecord, language: String) throws(PlaceIndexError) -> PlaceRecord {
        let language = language.lowercased()
        guard !language.isEmpty else { return record }
        var result = record
        if let translated = record.names[language], !translated.isEmpty { result.name = translated }
        try read { db in
            var a = result.address
            if let street = a.street {
                a.street = try Self.translation(db, of: street, kinds: ["street"], near: record.coordinate,
                                                radius: Self.streetTranslationRadius, language: language) ?? street
            }
            for path in [\PlaceAddress.subLocality, \.locality, \.subAdministrativeArea, \.administrativeArea] {
                guard let name = a[keyPath: path] else { continue }
                a[keyPath: path] = try Self.translation(db, of: name, kinds: ["locality", "administrativeArea"], near: record.coordinate,
                                                        radius: Self.areaTranslationRadius, language: language) ?? name
            }
            if let code = a.countryCode, let country = CountryFacts.name(countryCode: code, language: language) { a.country = country }
            result.address = a
        }
        return result
    }

    /// The `name:<language>` of the nearest place of one of `kinds` whose `name` is `name`, within `radius` metres.
    static func translation(_ db: Database, of name: String, kinds: [String], near coordinate: CLLocationCoordinate2D,
                            radius: Double, language: String) throws -> String? {
        let key = TextFolding.tokens(name).joined(separator: " ")
        guard !key.isEmpty else { return nil }
        var best: (Double, String)? = nil
        let rows = try Row.fetchAll(db, sql: "SELECT lat, lon, record FROM places WHERE key = ? AND kind IN ("
                                    + kinds.map { "'\($0)'" }.joined(separator: ",") + ") LIMIT 50", arguments: [key])
        for row in rows {
            let d = haversineMeters(coordinate, CLLocationCoordinate2D(latitude: row["lat"], longitude: row["lon"]))
            guard d <= radius, d < best?.0 ?? .infinity else { continue }
            let record = try PlaceRecordCodec.decode(row["record"])
            // The same name, not a namesake with another `name` that folds alike.
            guard record.name == name, let translated = record.names[language], !translated.isEmpty else { continue }
            best = (d, translated)
        }
        return best?.1
    }
}
