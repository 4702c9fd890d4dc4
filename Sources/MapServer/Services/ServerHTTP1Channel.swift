import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with the server's own handlers right after the HTTP/1 decoder:
/// the ``RequestHeadDeadline`` on every connection, then, when configured, the
/// ``CachedTileHandler``, which writes its answers from the response encoder's place in the
/// pipeline.
struct ServerHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel
    let server: MapServer
    let serverName: String

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            if server.configuration.answersCachedTilesBeforeRouter {
                let encoder = try pipeline.context(handlerType: HTTPResponseEncoder.self)
                try pipeline.addHandler(CachedTileHandler(server: server, serverName: serverName, encoderContext: encoder),
                                        position: .after(decoder))
            }
            // Next to the decoder, before the cached tiles: it sees every request's parts.
            try pipeline.addHandler(RequestHeadDeadline(timeout: server.configuration.requestHeadTimeout), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
