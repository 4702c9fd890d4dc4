import Foundation
import MapGeometry

/// Core Location's geocoder completion handler: the placemarks, or an error.
public typealias CLGeocodeCompletionHandler = @Sendable ([CLPlacemark]?, (any Error)?) -> Void

/// Turns addresses into places and locations into addresses (Core Location's `CLGeocoder`),
/// answering from the bundles' place index with the same engine as ``MKGeocodingRequest`` and
/// ``MKReverseGeocodingRequest``.
///
/// ```swift
/// let geocoder = CLGeocoder()
/// geocoder.geocodeAddressString("26 Avenue de la Costa, Monaco") { placemarks, error in
///     print(placemarks?.first?.location?.coordinate, placemarks?.first?.postalCode)
/// }
/// let here = try await geocoder.reverseGeocodeLocation(CLLocation(latitude: 47.1393, longitude: 9.5222))
/// ```
///
/// **One request at a time.** Core Location's geocoder handles one request at a time and asks
/// callers not to start another while one runs. Here a second call while one runs is refused: its
/// completion handler gets `CLError.network` (the code Core Location uses when it turns requests
/// away) and the running request goes on; call ``cancelGeocode()`` first, or use a second geocoder.
///
/// **Errors**, as `CLError`: nothing found (or a blank address, an invalid location) is
/// `.geocodeFoundNoResult`; ``cancelGeocode()`` calls the completion handler with
/// `.geocodeCanceled`; no data source configured, or a bundle without a place index, is `.network`
/// (the data the answer needs is unavailable, as the network is on a device). An address with a
/// house number the data lacks answers with the street, without an error, as Core Location's
/// geocoder does; `.geocodeFoundPartialResult` is never reported.
///
/// Differs from Core Location: the places come from ``dataSource`` (else
/// ``MapDataSource/default``), not Apple's servers; completion handlers run on the main queue, which
/// on Linux runs only when the program runs it (a program that doesn't uses the async forms). There
/// is no Contacts framework, so there is no `geocodePostalAddress` (use
/// ``geocodeAddressDictionary(_:completionHandler:)``). ``CLPlacemark/region`` is the place's
/// extent, not the area the geocoder considered.
open class CLGeocoder: NSObject, @unchecked Sendable {
    /// The bundles to search (an OpenMapKit addition); nil uses ``MapDataSource/default``.
    public var dataSource: MapDataSource?
    /// The most placemarks a forward geocode answers with (an OpenMapKit addition; Core Location
    /// answers with a few at most).
    public var resultLimit = 5
    /// Requests started, and the last one ``cancelGeocode()`` cancelled: a cancel that comes after
    /// the answer is computed but before the handler runs still cancels, as Core Location's does
    /// (the request is pending until its handler is called).
    private let tokens = NSLock()
    private var started = 0, pending: Int?, cancelled = 0
    private let lifecycle = RequestLifecycle(.restartable, busyReason:
        "the geocoder is already running a request; Core Location's geocoder takes one at a time (call cancelGeocode() first, or use another CLGeocoder)")

    /// A geocoder over ``MapDataSource/default``.
    public override init() { super.init() }

    /// A geocoder over `dataSource` (an OpenMapKit addition).
    public init(dataSource: MapDataSource?) {
        self.dataSource = dataSource
        super.init()
    }

    /// Whether a request is running (from the call until just before its completion handler runs).
    open var isGeocoding: Bool { lifecycle.isRunning }

    /// Cancels the running request: its completion handler gets `CLError.geocodeCanceled` (the
    /// async forms throw it). Does nothing when no request runs.
    open func cancelGeocode() {
        tokens.withLock { if let pending { cancelled = pending } }
        lifecycle.cancel()
    }

    /// A request's token, or nil when one is pending (the lifecycle refuses it).
    private func begin() -> Int? {
        tokens.withLock {
            guard pending == nil else { return nil }
            started += 1
            pending = started
            return started
        }
    }

    /// Ends request `token`: whether it was cancelled.
    private func end(_ token: Int?) -> Bool {
        guard let token else { return false }
        return tokens.withLock {
            if pending == token { pending = nil }
            return cancelled == token
        }
    }

    // MARK: - Forward geocoding

    /// Finds the places `addressString` stands for, best first.
    open func geocodeAddressString(_ addressString: String, completionHandler: @escaping CLGeocodeCompletionHandler) {
        geocodeAddressString(addressString, in: nil, preferredLocale: nil, completionHandler: completionHandler)
    }

    /// Finds the places `addressString` stands for, those in `region` ranked first.
    open func geocodeAddressString(_ addressString: String, in region: CLRegion?, completionHandler: @escaping CLGeocodeCompletionHandler) {
        geocodeAddressString(addressString, in: region, preferredLocale: nil, completionHandler: completionHandler)
    }

    /// Finds the places `addressString` stands for, those in `region` ranked first, named in
    /// `locale`'s language where the data has a translation (`name:xx`), the country by CLDR.
    open func geocodeAddressString(_ addressString: String, in region: CLRegion?, preferredLocale locale: Locale?,
                                   completionHandler: @escaping CLGeocodeCompletionHandler) {
        start(forward(addressString, region: region, locale: locale), completionHandler: completionHandler)
    }

    /// Finds the places an address dictionary stands for (Core Location's deprecated
    /// Address Book form): the values of `Street`, `SubLocality`, `City`, `SubAdministrativeArea`,
    /// `State`, `ZIP` and `Country` (Contacts' lower-case keys `street`, `city`, `state`,
    /// `postalCode`, `country` too), or `FormattedAddressLines`, read as one address; an
    /// `ISOCountryCode` keeps only places in that country. Numbers (a `ZIP` of 9490) are read as text; other values are ignored.
    open func geocodeAddressDictionary(_ addressDictionary: [AnyHashable: Any], completionHandler: @escaping CLGeocodeCompletionHandler) {
        start(forward(addressDictionary), completionHandler: completionHandler)
    }

    /// Finds the places `addressString` stands for, best first.
    open func geocodeAddressString(_ addressString: String) async throws -> [CLPlacemark] {
        try await geocodeAddressString(addressString, in: nil, preferredLocale: nil)
    }

    /// Finds the places `addressString` stands for, those in `region` ranked first.
    open func geocodeAddressString(_ addressString: String, in region: CLRegion?) async throws -> [CLPlacemark] {
        try await geocodeAddressString(addressString, in: region, preferredLocale: nil)
    }

    /// Finds the places `addressString` stands for, in `locale`'s language where the data has it.
    open func geocodeAddressString(_ addressString: String, in region: CLRegion?, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
        try await start(forward(addressString, region: region, locale: locale))
    }

    /// Finds the places an address dictionary stands for (see
    /// ``geocodeAddressDictionary(_:completionHandler:)``).
    open func geocodeAddressDictionary(_ addressDictionary: [AnyHashable: Any]) async throws -> [CLPlacemark] {
        try await start(forward(addressDictionary))
    }

    // MARK: - Reverse geocoding

    /// Finds the address at `location`: the nearest building or address within about 50 m, else
    /// the nearest street, else the town or area containing it.
    open func reverseGeocodeLocation(_ location: CLLocation, completionHandler: @escaping CLGeocodeCompletionHandler) {
        reverseGeocodeLocation(location, preferredLocale: nil, completionHandler: completionHandler)
    }

    /// Finds the address at `location`, in `locale`'s language where the data has it.
    open func reverseGeocodeLocation(_ location: CLLocation, preferredLocale locale: Locale?,
                                     completionHandler: @escaping CLGeocodeCompletionHandler) {
        start(reverse(location, locale: locale), completionHandler: completionHandler)
    }

    /// Finds the address at `location`.
    open func reverseGeocodeLocation(_ location: CLLocation) async throws -> [CLPlacemark] {
        try await reverseGeocodeLocation(location, preferredLocale: nil)
    }

    /// Finds the address at `location`, in `locale`'s language where the data has it.
    open func reverseGeocodeLocation(_ location: CLLocation, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
        try await start(reverse(location, locale: locale))
    }

    // MARK: - Running requests

    private typealias Work = @Sendable () throws -> [CLPlacemark]

    private func forward(_ text: String, region: CLRegion?, locale: Locale?) -> Work {
        let source = dataSource, limit = resultLimit
        let searchRegion = (region as? CLCircularRegion).map { circle in
            MKCoordinateRegion(center: circle.center, latitudinalMeters: 2 * max(circle.radius, 1), longitudinalMeters: 2 * max(circle.radius, 1))
        }
        return {
            try MKGeocodingRequest.geocode(text, region: searchRegion, source: source, locale: locale, limit: limit).map(Self.placemark)
        }
    }

    /// An address dictionary's request: its text, and only places in its ISO country when it names
    /// one (the code is not searchable text: "LI" is no word of any address).
    private func forward(_ dictionary: [AnyHashable: Any]) -> Work {
        let text = forward(Self.addressString(from: dictionary), region: nil, locale: nil)
        let code = ["ISOCountryCode", "isoCountryCode", "CountryCode"].lazy.compactMap { dictionary[$0] as? String }.first?.uppercased()
        guard let code, !code.isBlank else { return text }
        return {
            let placemarks = try text().filter { $0.isoCountryCode == nil || $0.isoCountryCode == code }
            guard !placemarks.isEmpty else { throw CLError(.geocodeFoundNoResult, reason: "no place matches the address in the country \(code)") }
            return placemarks
        }
    }

    private func reverse(_ location: CLLocation, locale: Locale?) -> Work {
        let source = dataSource, coordinate = location.coordinate
        return { try MKReverseGeocodingRequest.reverseGeocode(coordinate, source: source, locale: locale).map(Self.placemark) }
    }

    private func start(_ work: @escaping Work, completionHandler: @escaping CLGeocodeCompletionHandler) {
        let token = begin()
        lifecycle.start(on: .main, { _ in try work() }) { [self] result in
            let result = end(token) ? .failure(CancellationError()) : result
            result.mapError(Self.coreLocationError).deliver(to: completionHandler)
        }
    }

    private func start(_ work: @escaping Work) async throws -> [CLPlacemark] {
        let token = begin()
        do {
            let placemarks = try await lifecycle.start { _ in try work() }
            // A task cancelled while the work ran (too quick to notice) still ends as cancelled.
            let superseded = end(token)
            if superseded || Task.isCancelled { throw CancellationError() }
            return placemarks
        } catch {
            _ = end(token)
            throw Self.coreLocationError(error)
        }
    }

    /// A plain Core Location placemark with everything the map item's placemark has.
    private static func placemark(_ item: MKMapItem) -> CLPlacemark { CLPlacemark(placemark: item.placemark) }

    /// Core Location's error for the engine's: see the class's discussion.
    static func coreLocationError(_ error: any Error) -> any Error {
        switch error {
        case let error as CLError: return error
        case is CancellationError: return CLError(.geocodeCanceled)
        case let error as MKError:
            switch error.code {
            case .placemarkNotFound: return CLError(.geocodeFoundNoResult, reason: error.reason)
            case .loadingThrottled, .serverFailure: return CLError(.network, reason: error.reason)
            default: return CLError(.locationUnknown, reason: error.errorDescription)
            }
        default: return CLError(.network, reason: "\(error)")
        }
    }

    /// The address a Core Location / Contacts address dictionary holds, as one line.
    static func addressString(from dictionary: [AnyHashable: Any]) -> String {
        func text(_ keys: String...) -> String? {
            for key in keys {
                switch dictionary[key] {
                case let value as String where !value.isBlank: return value.trimmingCharacters(in: .whitespacesAndNewlines)
                case let value as Int: return String(value)
                case let value as Double where value.isFinite && value == value.rounded(): return String(Int(value))
                default: continue
                }
            }
            return nil
        }
        let parts = [text("Street", "street", "Thoroughfare"), text("SubLocality", "subLocality"),
                     [text("ZIP", "postalCode"), text("City", "city")].compactMap { $0 }.joined(separator: " "),
                     text("SubAdministrativeArea", "subAdministrativeArea"), text("State", "state"),
                     text("Country", "country")]
            .compactMap { $0 }.filter { !$0.isEmpty }
        if parts.isEmpty, let lines = dictionary["FormattedAddressLines"] as? [String] {
            return lines.filter { !$0.isBlank }.joined(separator: ", ")
        }
        return parts.joined(separator: ", ")
    }
}
