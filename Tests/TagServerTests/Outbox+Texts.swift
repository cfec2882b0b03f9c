import TagServer

extension Outbox {
  /// The queued message bodies as text, one per message.
  var texts: [String] { messages.map { String(decoding: $0, as: UTF8.self) } }
}
