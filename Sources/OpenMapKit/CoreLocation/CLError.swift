import Foundation

/// The domain of Core Location errors.
public let kCLErrorDomain: String = "kCLErrorDomain"

/// An error from a Core Location operation (``CLGeocoder``, ``CLLocationManager``), with Core
/// Location's codes.
///
/// As in Core Location, a thrown `CLError` can be matched by code:
/// ```swift
/// do { let placemarks = try await CLGeocoder().geocodeAddressString("Städtle 32, Vaduz") }
/// catch CLError.geocodeFoundNoResult { … }
/// catch let error as CLError { print(error.code, error.localizedDescription) }
/// ```
/// OpenMapKit adds ``reason``: what went wrong, in words a user can act on (for example that gpsd
/// is not running). It is the error's `localizedDescription` and its
/// `NSLocalizedFailureReasonErrorKey`.
///
/// Differs from Core Location: a Swift error value rather than a bridged `NSError`; it still
/// answers `errorDomain` (``kCLErrorDomain``), `errorCode` and `errorUserInfo`.
public struct CLError: Error, CustomNSError, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// Core Location's error codes (raw values as in `CLError.h`).
    public enum Code: Int, Sendable, Hashable {
        /// The location is currently unknown (no fix yet, or no location source).
        case locationUnknown = 0
        /// Access to location services was denied.
        case denied = 1
        /// The network, or here the data the answer needs, is unavailable.
        case network = 2
        /// The heading could not be determined.
        case headingFailure = 3
        /// Region monitoring was denied.
        case regionMonitoringDenied = 4
        /// A region could not be monitored.
        case regionMonitoringFailure = 5
        /// Region monitoring setup was delayed.
        case regionMonitoringSetupDelayed = 6
        /// Region monitoring responses were delayed.
        case regionMonitoringResponseDelayed = 7
        /// The geocode request found nothing.
        case geocodeFoundNoResult = 8
        /// The geocode request found a partial result.
        case geocodeFoundPartialResult = 9
        /// The geocode request was cancelled.
        case geocodeCanceled = 10
        /// Deferred location updates failed.
        case deferredFailed = 11
        /// Deferred updates were refused: the location is not accurate enough.
        case deferredNotUpdatingLocation = 12
        /// Deferred updates were refused: the desired accuracy is too low.
        case deferredAccuracyTooLow = 13
        /// Deferred updates were refused: the distance filter is set.
        case deferredDistanceFiltered = 14
        /// Deferred updates were cancelled.
        case deferredCanceled = 15
        /// Ranging is unavailable.
        case rangingUnavailable = 16
        /// Ranging failed.
        case rangingFailure = 17
        /// The user declined a prompt.
        case promptDeclined = 18
        /// Historical locations could not be read.
        case historicalLocationError = 19
    }

    /// The error code.
    public let code: Code
    /// What went wrong, in words (an OpenMapKit addition); nil when the code says it all.
    public let reason: String?

    /// An error with `code` and, optionally, what went wrong in words.
    public init(_ code: Code, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }

    // Code shortcuts, as Core Location's bridged error struct has them: `CLError.geocodeCanceled`.
    /// The code `locationUnknown`.
    public static var locationUnknown: Code { .locationUnknown }
    /// The code `denied`.
    public static var denied: Code { .denied }
    /// The code `network`.
    public static var network: Code { .network }
    /// The code `regionMonitoringFailure`.
    public static var regionMonitoringFailure: Code { .regionMonitoringFailure }
    /// The code `geocodeFoundNoResult`.
    public static var geocodeFoundNoResult: Code { .geocodeFoundNoResult }
    /// The code `geocodeFoundPartialResult`.
    public static var geocodeFoundPartialResult: Code { .geocodeFoundPartialResult }
    /// The code `geocodeCanceled`.
    public static var geocodeCanceled: Code { .geocodeCanceled }

    /// ``kCLErrorDomain``.
    public static var errorDomain: String { kCLErrorDomain }
    /// The code's raw value.
    public var errorCode: Int { code.rawValue }
    /// The description and, when there is one, the reason.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: errorDescription ?? code.summary]
        if let reason { info[NSLocalizedFailureReasonErrorKey] = reason }
        return info
    }

    /// The code's summary, followed by the reason when there is one.
    public var errorDescription: String? {
        guard let reason else { return code.summary }
        return "\(code.summary): \(reason)"
    }
    /// The reason, if any.
    public var failureReason: String? { reason }

    /// `CLError(code, reason)`.
    public var description: String {
        "CLError(\(code)\(reason.map { ", \($0)" } ?? ""))"
    }
}

extension CLError.Code {
    /// A one-line description of the code.
    public var summary: String {
        switch self {
        case .locationUnknown: "The location is unknown"
        case .denied: "Access to location services was denied"
        case .network: "The location data is unavailable"
        case .headingFailure: "The heading could not be determined"
        case .regionMonitoringDenied: "Region monitoring was denied"
        case .regionMonitoringFailure: "The region could not be monitored"
        case .regionMonitoringSetupDelayed: "Region monitoring setup was delayed"
        case .regionMonitoringResponseDelayed: "Region monitoring responses were delayed"
        case .geocodeFoundNoResult: "The geocode request found no result"
        case .geocodeFoundPartialResult: "The geocode request found a partial result"
        case .geocodeCanceled: "The geocode request was cancelled"
        case .deferredFailed: "Deferred location updates failed"
        case .deferredNotUpdatingLocation: "Deferred updates need location updates running"
        case .deferredAccuracyTooLow: "Deferred updates need a higher desired accuracy"
        case .deferredDistanceFiltered: "Deferred updates need no distance filter"
        case .deferredCanceled: "Deferred updates were cancelled"
        case .rangingUnavailable: "Ranging is unavailable"
        case .rangingFailure: "Ranging failed"
        case .promptDeclined: "The prompt was declined"
        case .historicalLocationError: "Historical locations could not be read"
        }
    }

    /// Lets `catch CLError.geocodeCanceled` match a `CLError` with that code.
    public static func ~= (code: CLError.Code, error: any Error) -> Bool {
        (error as? CLError)?.code == code
    }
}
