import Foundation

/// What a Maps-related URL is, before anything is resolved.
public enum MapsLink: Hashable, Sendable {
    /// A unified Maps URL on `maps.apple.com` or a configured self-hosted base.
    case maps(MapsURL)
    /// A `geo-navigation:` URL for the default navigation app.
    case geoNavigation(GeoNavigationURL)
    /// A shortened share link (host ending in `maps.apple`). Its full URL is only available
    /// from the `Location` header of the HTTP 301 response to a request for it; fetch that and
    /// parse the result.
    case shortened(URL)

    /// Classifies and parses `url`.
    ///
    /// - Throws: the ``MapsURLError`` of the URL's first problem; a URL that isn't a Maps URL at
    ///   all gives ``MapsURLError/unsupportedScheme(_:)`` or ``MapsURLError/unrecognizedHost(_:)``.
    public init(url: URL, options: MapsURL.ParseOptions = MapsURL.ParseOptions()) throws(MapsURLError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased() else {
            throw .malformedURL(url.absoluteString)
        }
        if scheme == GeoNavigationURL.scheme {
            self = .geoNavigation(try GeoNavigationURL(components: components, options: options))
            return
        }
        let host = MapsQuery.normalizedHost(components.host ?? "")
        let path = components.percentEncodedPath
        for base in options.selfHostedBaseURLs {
            if let rest = MapsQuery.pathAfter(base: base, scheme: scheme, host: host, port: components.port, path: path) {
                self = .maps(try MapsURL(action: MapsQuery.action(rest), query: try MapsQuery(components), options: options))
                return
            }
        }
        guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme(scheme) }
        if host.hasSuffix(MapsURL.shortenedHostSuffix) {
            self = .shortened(url)
            return
        }
        guard host == MapsURL.appleHost else { throw .unrecognizedHost(host) }
        self = .maps(try MapsURL(action: MapsQuery.action(path), query: try MapsQuery(components), options: options))
    }
}
