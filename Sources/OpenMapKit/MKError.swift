import Foundation

/// The domain of MapKit errors.
public let MKErrorDomain: String = "MKErrorDomain"

/// An error from a MapKit operation, with MapKit's codes.
///
/// As in MapKit, a thrown `MKError` can be matched by code:
/// ```swift
/// do { let objects = try MKGeoJSONDecoder().decode(data) }
/// catch MKError.decodingFailed { … }
/// catch let error as MKError { print(error.code, error.localizedDescription) }
/// ```
/// OpenMapKit adds ``reason``: what went wrong, in words a user can act on (for GeoJSON, the JSON
/// path and the problem, e.g. `features[2].geometry.coordinates[0][3]: latitude 91 is outside
/// -90...90`). It is the error's `localizedDescription` and its `NSLocalizedFailureReasonErrorKey`.
///
/// Differs from MapKit: a Swift error value rather than a bridged `NSError`; it still answers
/// `errorDomain` (``MKErrorDomain``), `errorCode` and `errorUserInfo`.
public struct MKError: Error, CustomNSError, LocalizedError, Hashable, Sendable, CustomStringConvertible {
    /// MapKit's error codes (`MKError.Code`, raw values as in `MKErrorCode`).
    public enum Code: UInt, Sendable, Hashable {
        /// An unknown error.
        case unknown = 1
        /// The map server couldn't return the requested information.
        case serverFailure = 2
        /// Data was not loaded because throttling is in effect (too many requests).
        case loadingThrottled = 3
        /// The specified placemark couldn't be found.
        case placemarkNotFound = 4
        /// Directions to the location aren't available.
        case directionsNotFound = 5
        /// GeoJSON decoding failed.
        case decodingFailed = 6
    }

    /// The error code.
    public let code: Code
    /// What went wrong, in words (an OpenMapKit addition); nil when there is nothing to add to the
    /// code's own description.
    public let reason: String?

    public init(_ code: Code, reason: String? = nil) {
        self.code = code
        self.reason = reason
    }

    // Code shortcuts, as MapKit's bridged error struct has them: `MKError.decodingFailed`.
    public static var unknown: Code { .unknown }
    public static var serverFailure: Code { .serverFailure }
    public static var loadingThrottled: Code { .loadingThrottled }
    public static var placemarkNotFound: Code { .placemarkNotFound }
    public static var directionsNotFound: Code { .directionsNotFound }
    public static var decodingFailed: Code { .decodingFailed }

    // CustomNSError
    public static var errorDomain: String { MKErrorDomain }
    public var errorCode: Int { Int(code.rawValue) }
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: errorDescription ?? code.summary]
        if let reason { info[NSLocalizedFailureReasonErrorKey] = reason }
        return info
    }

    // LocalizedError
    /// The code's summary, followed by the reason when there is one:
    /// `GeoJSON decoding failed: features[0].geometry: missing the "type" member`.
    public var errorDescription: String? {
        guard let reason else { return code.summary }
        return "\(code.summary): \(reason)"
    }
    public var failureReason: String? { reason }

    public var description: String {
        "MKError(\(code)\(reason.map { ", \($0)" } ?? ""))"
    }
}

extension MKError.Code {
    /// A one-line description of the code, as MapKit documents it.
    public var summary: String {
        switch self {
        case .unknown: "Unknown error"
        case .serverFailure: "The map server couldn't return the requested information"
        case .loadingThrottled: "Data was not loaded because throttling is in effect"
        case .placemarkNotFound: "The specified placemark couldn't be found"
        case .directionsNotFound: "Directions to the location aren't available"
        case .decodingFailed: "GeoJSON decoding failed"
        }
    }

    /// Lets `catch MKError.decodingFailed` match an `MKError` with that code.
    public static func ~= (code: MKError.Code, error: any Error) -> Bool {
        (error as? MKError)?.code == code
    }
}
