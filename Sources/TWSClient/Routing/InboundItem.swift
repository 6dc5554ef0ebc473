import NIOCore
import TWSProtocol

/// One inbound message as the router carries it: decoded once, in the read loop.
///
/// A frame whose payload does not decode is kept raw with its error and routed by the few fields
/// `InboundClassifier` can read, exactly as before the read loop decoded: an End message that carries an unexpected
/// extra field still ends its request, an undecodable orderStatus still advances the order ids, and the consumer
/// logs and skips the message (a one-shot that completes on its first item fails with `invalidRequest`).
enum InboundItem: Sendable {
    /// A decoded message.
    case response(TWSResponse)
    /// A message whose payload did not decode (or whose id this client does not model).
    case undecodable(TWSInboundMessage, TWSDecodingError)

    /// The message id.
    var messageID: Int {
        switch self {
        case .response(let response): return response.messageID
        case .undecodable(let message, _): return message.messageID
        }
    }
}

/// An inbound message and what the connection does with it: made by the read loop, carried out by the actor.
struct InboundFrame: Sendable {
    var item: InboundItem
    var disposition: InboundDisposition
}

/// The router of a connection: request ids and topics to the routes waiting for their messages.
typealias InboundRouter = RequestRouter<RouteKey, InboundItem>
