import TagCore
import TagProtocol

extension FieldSession {
  /// `field/suggest`: up to `limit` entries of the vocabulary for `query` (the draft when nil),
  /// leaving out tags already present and entries the field would refuse for what they are
  /// (pattern, allow and deny lists, length), not for how many tags there are.
  func suggest(_ query: String?, limit: Int, encoding: PositionEncoding) -> SuggestResult {
    guard let suggestions else { return SuggestResult(items: []) }
    let items = suggestions.suggestions(for: query ?? field.draft, limit: limit) { entry in
      switch field.refusal(of: entry) {
      case nil, .tooMany: false
      default: true
      }
    }
    return SuggestResult(items: items.map { SuggestResult.Item($0, encoding: encoding) })
  }
}

extension Server {
  /// Throws -32602 naming `member` when `index` is not a tag index of field `id`.
  mutating func checkIndex(
    _ index: Int,
    member: String = "index",
    ofField id: String
  ) throws(RequestError) {
    let count = try withField(id) { session throws(RequestError) in session.field.tags.count }
    guard index < count else {
      throw .session(.indexOutOfRange(index: index, count: count, field: id, member: member))
    }
  }
}
