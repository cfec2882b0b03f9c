import TagCore
import TagProtocol

extension FieldSession {
  /// `field/suggest`: up to `limit` entries of the vocabulary for `query` (the draft when nil),
  /// leaving out tags already present and entries the field would refuse for what they are
  /// (pattern, allow and deny lists, length), not for how many tags there are.
  ///
  /// With `suggestFromVault`, the vault's tags (`vault`: its suggestions for a query, leaving
  /// out what the closure excludes) follow the field's own, each tag once.
  func suggest(
    _ query: String?,
    limit: Int,
    encoding: PositionEncoding,
    vault: (String, Int, (String) -> Bool) -> [Suggestion] = { _, _, _ in [] }
  ) -> SuggestResult {
    let query = query ?? field.draft
    let refused = { (entry: String) -> Bool in
      switch field.refusal(of: entry) {
      case nil, .tooMany: false
      default: true
      }
    }
    var items = suggestions?.suggestions(for: query, limit: limit, excluding: refused) ?? []
    if suggestsFromVault, items.count < limit {
      var seen = Set(items.map { CaselessKey($0.text) })
      let more = vault(query, limit) { refused($0) || seen.contains(CaselessKey($0)) }
      for item in more where items.count < limit && seen.insert(CaselessKey(item.text)).inserted {
        items.append(item)
      }
    }
    let said = Sentence.suggestions(count: items.count, first: items.first?.text ?? "")
    return SuggestResult(
      items: items.map { SuggestResult.Item($0, encoding: encoding) },
      announcement: language.words(for: said)
    )
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
