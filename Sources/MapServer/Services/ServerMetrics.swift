import Foundation
import Hummingbird

/// Request counts and latencies per endpoint, rendered as Prometheus text at `/metrics`.
///
/// Endpoints are counted by their route pattern (`/tiles/{z}/{x}/{y}.mvt`), not the concrete
/// path, so the number of series stays bounded whatever clients ask for.
public final class ServerMetrics: @unchecked Sendable {
    /// Upper bounds of the latency histogram's buckets, in seconds.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Series: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var count = 0

        mutating func record(_ seconds: Double) {
            for (index, bound) in ServerMetrics.buckets.enumerated() where seconds <= bound { counts[index] += 1 }
            sum += seconds
            count += 1
        }
    }

    private let lock = NSLock()
    private var requests: [Series: Int] = [:]
    private var latency: [String: Histogram] = [:]
    private var answeredBeforeRouterCount = 0
    private let started = Date()

    /// Requests answered in front of the router (cached tiles); they are counted in the
    /// request series too.
    public var answeredBeforeRouter: Int { lock.withLock { answeredBeforeRouterCount } }

    public init() {}

    /// Records one answered request.
    public func record(method: String, route: String, status: Int, seconds: Double, beforeRouter: Bool = false) {
        lock.withLock {
            if beforeRouter { answeredBeforeRouterCount += 1 }
            requests[Series(method: method, route: route, status: status), default: 0] += 1
            // In place: copying the histogram out and back would copy its bucket array per request.
            latency[route, default: Histogram()].record(seconds)
        }
    }

    /// The Prometheus text exposition of everything recorded plus the gauges passed in
    /// (name → (help, value)).
    public func exposition(gauges: [(name: String, help: String, value: Double)]) -> String {
        var text = ""
        lock.withLock {
            text += "# HELP openmapkit_http_requests_total HTTP requests answered, by route pattern and status.\n"
            text += "# TYPE openmapkit_http_requests_total counter\n"
            for (series, count) in requests.sorted(by: { ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status) }) {
                text += "openmapkit_http_requests_total{method=\"\(series.method)\",route=\"\(Self.escape(series.route))\",status=\"\(series.status)\"} \(count)\n"
            }
            text += "# HELP openmapkit_http_request_duration_seconds Time to answer, by route pattern.\n"
            text += "# TYPE openmapkit_http_request_duration_seconds histogram\n"
            for (route, histogram) in latency.sorted(by: { $0.key < $1.key }) {
                let label = "route=\"\(Self.escape(route))\""
                for (index, bound) in Self.buckets.enumerated() {
                    text += "openmapkit_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(histogram.counts[index])\n"
                }
                text += "openmapkit_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(histogram.count)\n"
                text += "openmapkit_http_request_duration_seconds_sum{\(label)} \(histogram.sum)\n"
                text += "openmapkit_http_request_duration_seconds_count{\(label)} \(histogram.count)\n"
            }
        }
        var all = gauges
        all.append(("openmapkit_uptime_seconds", "Seconds since the server started.", Date().timeIntervalSince(started)))
        if let rss = Self.residentBytes() {
            all.append(("openmapkit_resident_memory_bytes", "Resident memory of the server process.", Double(rss)))
        }
        for gauge in all {
            text += "# HELP \(gauge.name) \(gauge.help)\n# TYPE \(gauge.name) gauge\n"
            text += "\(gauge.name) \(gauge.value == gauge.value.rounded() && abs(gauge.value) < 1e15 ? String(Int(gauge.value)) : String(gauge.value))\n"
        }
        return text
    }

    private static func escape(_ label: String) -> String {
        label.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// This process's resident set size, from /proc (nil where there is none).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// How the server writes one line per request.
public enum RequestLogFormat: String, CaseIterable, Sendable {
    /// One JSON object per line: time, method, path, route, status, bytes, milliseconds.
    case json
    /// `GET /tiles/14/8529/5974.mvt 200 1234 B 0.8 ms`
    case text
    /// Nothing (tests, benchmarks).
    case none
}

/// What is recorded for every answered request: its metrics series and, unless the format is
/// `.none`, one log line. The router's middleware and the cached tile fast path both go through
/// here, so a request counts and logs the same whichever of them answers it.
struct RequestLog: Sendable {
    let metrics: ServerMetrics
    let format: RequestLogFormat
    let output: RequestLogOutput

    /// Records an answer: `route` is the route pattern (`"unmatched"` for none), `bytes` the body
    /// length when known.
    func finish(method: String, path: String, route: String, status: Int, bytes: Int?, seconds: Double, beforeRouter: Bool = false) {
        metrics.record(method: method, route: route, status: status, seconds: seconds, beforeRouter: beforeRouter)
        switch format {
        case .none:
            return
        case .text:
            output.write("\(method) \(path) \(status) \(bytes.map { "\($0) B " } ?? "")\(String(format: "%.1f", seconds * 1000)) ms")
        case .json:
            let line = RequestLogLine(time: ISO8601DateFormatter().string(from: Date()), method: method, path: path, route: route,
                                      status: status, bytes: bytes, ms: (seconds * 10_000).rounded() / 10)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            if let data = try? encoder.encode(line), let text = String(data: data, encoding: .utf8) { output.write(text) }
        }
    }
}

/// Times each request through the router and hands it to ``RequestLog``.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let log: RequestLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // ErrorMiddleware sits inside this one, so errors rarely arrive here; count them anyway.
            finish(request, context: context, status: APIError(error).status.code, bytes: nil, start: start)
            throw error
        }
        finish(request, context: context, status: response.status.code, bytes: response.body.contentLength, start: start)
        return response
    }

    private func finish(_ request: Request, context: Context, status: Int, bytes: Int?, start: UInt64) {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // Unmatched paths share one series so a scan of random URLs cannot grow /metrics.
        let route = context.endpointPath.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "unmatched"
        log.finish(method: request.method.rawValue, path: request.uri.path, route: route, status: status, bytes: bytes, seconds: seconds)
    }
}

private struct RequestLogLine: Encodable {
    let time: String
    let method: String
    let path: String
    let route: String
    let status: Int
    let bytes: Int?
    let ms: Double
}

/// Where request log lines go: standard error by default, one whole line per write.
public final class RequestLogOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let handle: FileHandle

    public init(handle: FileHandle = .standardError) {
        self.handle = handle
    }

    func write(_ line: String) {
        lock.withLock { handle.write(Data((line + "\n").utf8)) }
    }
}
