import Foundation
import MapGeometry

/// What the index knows about a country from well-kept data sources rather than from the extract:
/// its name (Foundation's locale data, which is Unicode CLDR) and its time zones (the IANA tz
/// database as the operating system ships it, Debian's `tzdata`).
///
/// An extract seldom holds the whole boundary of its country (Helsinki's box holds none of
/// Finland's), so places often know only their country's ISO 3166-1 code; these give the rest.
public enum CountryFacts {
    /// The country's name in `language` (a BCP 47 identifier such as "en", "fi", "de-CH"), from
    /// CLDR through `Locale`; nil for a code CLDR does not know.
    public static func name(countryCode: String, language: String = "en") -> String? {
        let code = countryCode.uppercased()
        guard code.count == 2, let name = Locale(identifier: language).localizedString(forRegionCode: code),
              name != code else { return nil }
        return name
    }

    /// The IANA time zone of `countryCode` nearest `coordinate`: among the zones the tz database
    /// lists for the country, the one whose principal location is closest (a country with one zone
    /// gets it wherever the place is; the United States get Chicago's in Iowa). nil when the
    /// database is not installed or does not list the country.
    public static func timeZone(countryCode: String, near coordinate: CLLocationCoordinate2D) -> String? {
        guard let zones = zonesByCountry[countryCode.uppercased()], !zones.isEmpty else { return nil }
        if zones.count == 1 { return zones[0].zone }
        return zones.min { haversineMeters($0.location, coordinate) < haversineMeters($1.location, coordinate) }?.zone
    }

    /// Where the tz database lists its zones: `zone.tab` has one row for every country and each of
    /// its zones, under the country's own zone names (Monaco's is Europe/Monaco, as Apple's
    /// placemarks give it); `zone1970.tab`, its successor, merges countries whose clocks agreed
    /// since 1970 (Monaco under Europe/Paris), so it is read only for countries `zone.tab` lacks.
    static let tableFolders = ["/usr/share/zoneinfo", "/usr/share/lib/zoneinfo", "/usr/lib/zoneinfo"]

    struct ZoneLocation {
        var zone: String
        var location: CLLocationCoordinate2D
    }

    /// Country code → its zones with their principal locations, read once.
    static let zonesByCountry: [String: [ZoneLocation]] = {
        var result: [String: [ZoneLocation]] = [:]
        for folder in tableFolders {
            for file in ["zone.tab", "zone1970.tab"] {
                guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8) else { continue }
                var rows: [String: [ZoneLocation]] = [:]
                for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                    let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
                    guard columns.count >= 3, let location = parseISO6709(String(columns[1])) else { continue }
                    for code in columns[0].split(separator: ",") {
                        rows[String(code), default: []].append(ZoneLocation(zone: String(columns[2]), location: location))
                    }
                }
                for (code, zones) in rows where result[code] == nil { result[code] = zones }
            }
            if !result.isEmpty { break }
        }
        return result
    }()

    /// The tz tables' ISO 6709 positions: ±DDMM±DDDMM or ±DDMMSS±DDDMMSS.
    static func parseISO6709(_ text: String) -> CLLocationCoordinate2D? {
        let scalars = Array(text.unicodeScalars)
        guard let split = scalars.indices.dropFirst().first(where: { scalars[$0] == "+" || scalars[$0] == "-" }) else { return nil }
        func degrees(_ part: ArraySlice<Unicode.Scalar>, degreeDigits: Int) -> Double? {
            guard let sign = part.first, sign == "+" || sign == "-" else { return nil }
            let digits = String(String.UnicodeScalarView(part.dropFirst()))
            guard digits.allSatisfy(\.isNumber), digits.count == degreeDigits + 2 || digits.count == degreeDigits + 4,
                  let d = Double(digits.prefix(degreeDigits)), let m = Double(digits.dropFirst(degreeDigits).prefix(2)) else { return nil }
            let s = digits.count == degreeDigits + 4 ? Double(digits.suffix(2)) ?? 0 : 0
            return (sign == "-" ? -1 : 1) * (d + m / 60 + s / 3600)
        }
        guard let latitude = degrees(scalars[..<split], degreeDigits: 2),
              let longitude = degrees(scalars[split...], degreeDigits: 3) else { return nil }
        return CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }
}
