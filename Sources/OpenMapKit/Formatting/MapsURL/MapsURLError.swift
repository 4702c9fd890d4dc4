import Foundation

/// Why a Maps URL could not be built or parsed. Every case names what was wrong and where.
public enum MapsURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not a URL that Foundation can take apart.
    case malformedURL(String)
    /// The scheme is neither http(s) (nor a configured self-hosted scheme) nor `geo-navigation`.
    case unsupportedScheme(String)
    /// An http(s) host that is neither `maps.apple.com`, a shortened-link host nor a configured
    /// self-hosted base.
    case unrecognizedHost(String)
    /// A `geo-navigation:` URL given to ``MapsURL``; parse it with ``GeoNavigationURL``.
    case notAMapsURL(String)
    /// A shortened share link; request it and parse the URL in the HTTP 301 response.
    case shortenedLink(URL)
    /// The URL has no action path (such as a legacy `maps.apple.com/?q=…` link).
    case missingAction
    /// The path is not one of the documented actions.
    case unknownAction(String)
    /// A parameter's name or value contains an invalid `%` escape.
    case malformedPercentEncoding(parameter: String)
    /// A single-valued parameter appears more than once.
    case duplicateParameter(String)
    /// A parameter is present with an empty value.
    case emptyValue(parameter: String)
    /// A parameter outside the action's documented list (only with
    /// ``MapsURL/ParseOptions/rejectsUnknownParameters``).
    case unknownParameter(String, action: String)
    /// A value that isn't one of the allowed ones or not a valid number.
    case invalidValue(parameter: String, value: String, expected: String)
    /// A coordinate or span that is malformed or out of range.
    case invalidCoordinate(parameter: String, value: String, reason: String)
    /// A parameter given without the one it depends on (`source-place-id` without `source`,
    /// `heading` without `center`, …).
    case requiresParameter(String, requires: String)
    /// An action given none of the parameters it needs.
    case missingParameter(action: String, oneOf: [String])
    /// A base URL without a scheme or host.
    case invalidBaseURL(String)

    public var description: String {
        switch self {
        case .malformedURL(let url):
            return "\"\(url)\" is not a well-formed URL."
        case .unsupportedScheme(let scheme):
            return "The scheme \"\(scheme)\" is not a Maps URL scheme; expected https, http or geo-navigation."
        case .unrecognizedHost(let host):
            return "The host \"\(host)\" is not \(MapsURL.appleHost), a shortened-link host or a configured self-hosted base."
        case .notAMapsURL(let url):
            return "\"\(url)\" is a geo-navigation URL; parse it with GeoNavigationURL."
        case .shortenedLink(let url):
            return "\"\(url.absoluteString)\" is a shortened Maps link; request it and parse the full URL from the HTTP 301 response's Location header."
        case .missingAction:
            return "The URL has no action; expected one of "
                + MapsURL.Action.allCases.map(\.path).joined(separator: ", ") + "."
        case .unknownAction(let action):
            return "\"\(action)\" is not a Maps URL action; expected one of "
                + MapsURL.Action.allCases.map(\.path).joined(separator: ", ") + "."
        case .malformedPercentEncoding(let parameter):
            return "The parameter \"\(parameter)\" has an invalid percent escape."
        case .duplicateParameter(let parameter):
            return "The parameter \"\(parameter)\" appears more than once."
        case .emptyValue(let parameter):
            return "The parameter \"\(parameter)\" has an empty value."
        case .unknownParameter(let parameter, let action):
            return "\"\(parameter)\" is not a parameter of /\(action)."
        case .invalidValue(let parameter, let value, let expected):
            return "The \"\(parameter)\" value \"\(value)\" is invalid; expected \(expected)."
        case .invalidCoordinate(let parameter, let value, let reason):
            return "The \"\(parameter)\" value \"\(value)\" is invalid: \(reason)."
        case .requiresParameter(let parameter, let requires):
            return "\"\(parameter)\" requires a \"\(requires)\" parameter."
        case .missingParameter(let action, let oneOf):
            return "/\(action) needs " + (oneOf.count == 1 ? "\"\(oneOf[0])\"" : "one of "
                + oneOf.map { "\"\($0)\"" }.joined(separator: ", ")) + "."
        case .invalidBaseURL(let base):
            return "\"\(base)\" cannot serve as a base URL: it needs a scheme and a host."
        }
    }
}

extension MapsURLError: LocalizedError {
    public var errorDescription: String? { description }
}
