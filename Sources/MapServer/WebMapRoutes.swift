import Hummingbird

/// (Being written: see the issue on the map server.)
struct WebMapRoutes {
    let server: MapServer

    func register(on router: Router<ServerContext>) {}
}
