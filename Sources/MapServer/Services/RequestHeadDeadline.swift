import NIOCore
import NIOHTTP1

/// Closes a connection whose next request does not arrive whole in time: a client has
/// ``ServerConfiguration/requestHeadTimeout`` from the moment it connects, and from the end of
/// each request it sent, to finish sending the next request's head.
///
/// A slow client ("slowloris": a header line every few seconds, never the blank line that ends
/// them) would otherwise hold its connection for ever, since each byte it sends resets an idle
/// timer; this deadline does not move until the head is complete. A keep-alive connection left
/// silent closes after the same time. The clock stops while the server is still writing an answer
/// (a large one to a slow client), and starts again from its last write.
///
/// It sits after the request decoder, which parses the head and refuses heads over its size
/// limit, so it sees each request as `head`, `body` and `end` parts.
final class RequestHeadDeadline: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    private var timer: Scheduled<Void>?
    private var lastWrite = NIODeadline.distantPast

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context, in: timeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context, in: timeout)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { cancel() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: cancel()
        case .end: arm(context, in: timeout)
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        lastWrite = .now()
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext, in delay: TimeAmount) {
        cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: delay) {
            let (handler, context) = loopBound.value
            handler.expired(context)
        }
    }

    private func cancel() {
        timer?.cancel()
        timer = nil
    }

    private func expired(_ context: ChannelHandlerContext) {
        timer = nil
        let sinceWrite = NIODeadline.now() - lastWrite
        if sinceWrite < timeout {
            arm(context, in: timeout - sinceWrite)  // still answering: wait from the last write
        } else {
            context.close(promise: nil)
        }
    }
}
