import Foundation
import Hummingbird
import OpenMapKit

/// An error answered to the client in the Apple Maps Server API's shape:
/// `{"error":{"message":"…","details":["…"]}}` with an HTTP status that says whose fault it is.
///
/// Every handler throws these for bad input; ``ErrorMiddleware`` turns anything else that escapes
/// (MapKit errors, Hummingbird's own errors) into one, so no client ever sees a bare 500 page.
public struct APIError: Error, HTTPResponseError, CustomStringConvertible, Sendable {
    public let status: HTTPResponse.Status
    public let message: String
    public let details: [String]
    /// Extra response headers (`Retry-After` on 429 and 503, `Allow` on 405).
    public let headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, details: [String] = [], headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.details = details
        self.headers = headers
    }

    /// 400: a parameter is missing, has the wrong type or is out of range.
    public static func badRequest(_ message: String, details: [String] = []) -> APIError {
        APIError(.badRequest, message, details: details)
    }

    /// 404: no such resource (tile outside the pyramid, unknown style, place id, region).
    public static func notFound(_ message: String, details: [String] = []) -> APIError {
        APIError(.notFound, message, details: details)
    }

    /// 503 with `Retry-After`: the server is saturated and sheds this request rather than queueing it.
    public static func busy(_ message: String, retryAfterSeconds: Int = 1) -> APIError {
        var headers = HTTPFields()
        headers[.retryAfter] = String(retryAfterSeconds)
        return APIError(.serviceUnavailable, message, headers: headers)
    }

    public var description: String { "\(status.code) \(message)" + (details.isEmpty ? "" : " (\(details.joined(separator: "; ")))") }

    /// The JSON body: the Apple Maps Server API's `ErrorResponse`.
    public var body: [UInt8] {
        // Written in this order by hand: JSONEncoder on Linux orders an object's keys differently
        // from one process to the next, and the same error should read the same everywhere.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let message = try? encoder.encode(message), let details = try? encoder.encode(details) else {
            return Array(#"{"error":{"message":"error","details":[]}}"#.utf8)
        }
        return Array(#"{"error":{"message":"#.utf8) + message + Array(#","details":"#.utf8) + details + Array("}}".utf8)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension APIError {
    /// The client-facing form of any error a handler let escape.
    ///
    /// MapKit errors keep their meaning: nothing found is a 404, throttling a 429, bad input a 400;
    /// a failure of ours stays a 500 but says what failed (the process never crashes on it).
    public init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case let error as MKError:
            let reason = error.reason ?? error.code.summary
            switch error.code {
            case .placemarkNotFound, .directionsNotFound:
                self = APIError(.notFound, reason)
            case .loadingThrottled:
                self = APIError(.tooManyRequests, reason)
            case .decodingFailed:
                self = APIError(.badRequest, reason)
            default:
                self = APIError(.internalServerError, reason)
            }
        case let error as HTTPError:
            self = APIError(error.status, error.body ?? error.status.reasonPhrase)
        case is CancellationError:
            // The client went away or the server is shutting down; 503 lets a retry go elsewhere.
            self = APIError(.serviceUnavailable, "the request was cancelled")
        default:
            self = APIError(.internalServerError, "internal error: \(error)")
        }
    }
}

/// Turns every error that escapes a handler, including the router's own 404 and 405, into an
/// ``APIError`` JSON body.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let apiError = APIError(error)
            // Shedding load (503) is the pool working as designed, not a fault worth an error line.
            if apiError.status.code >= 500, apiError.status != .serviceUnavailable {
                context.logger.error("\(request.method) \(request.uri.path): \(apiError.message)")
            }
            return try apiError.response(from: request, context: context)
        }
    }
}
