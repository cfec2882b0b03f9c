/// A language tagd speaks (SPEC §6c): announcements and the default prompt come in it.
///
/// Chosen once per connection from `initialize`'s `locale`; it never changes what a field does.
public enum Language: String, CaseIterable, Hashable, Sendable {
  /// English, the default for any locale tagd does not speak.
  case en
  /// Spanish.
  case es
  /// German.
  case de
  /// French.
  case fr

  /// The language of a locale: BCP 47 (`de-CH`, `es-419`) or POSIX (`fr_FR.UTF-8`, `de_DE@euro`).
  ///
  /// The language subtag is what comes before the first `-`, `_`, `.` or `@`, in any case;
  /// anything tagd does not speak (`C`, `POSIX`, `ja`, an empty string, nil) is English.
  public init(locale: String?) {
    guard let locale else {
      self = .en
      return
    }
    let subtag = locale.prefix { !"-_.@".contains($0) }.lowercased()
    self = Language(rawValue: subtag) ?? .en
  }

  /// Whether `count` takes the singular: only 1 in English, Spanish and German; 0 and 1 in
  /// French.
  public func isSingular(_ count: Int) -> Bool {
    switch self {
    case .fr: count == 0 || count == 1
    case .en, .es, .de: count == 1
    }
  }

  /// `items` as a list in running text: "a, b and c" (Spanish "a, b y c", with "e" before an
  /// /i/ sound; German "a, b und c"; French "a, b et c"); more than five as a count of tags.
  public func list(_ items: [String]) -> String {
    var said = SaidText()
    list(items, into: &said)
    return said.text
  }

  /// ``list(_:)`` into `sink`.
  func list<Sink: PhraseSink & ~Copyable>(_ items: [String], into sink: inout Sink) {
    guard (1...5).contains(items.count) else {
      return say(items.isEmpty ? .nothing : .tagCount(items.count), into: &sink)
    }
    let last = items.count - 1
    for index in 0..<last {
      sink.text(items[index])
      sink.words(index + 1 < last ? ", " : " ")
    }
    if last > 0 {
      sink.words(conjunction(before: items[last]))
      sink.words(" ")
    }
    sink.text(items[last])
  }

  /// "and" in this language, spelt for the word that follows it.
  private func conjunction(before word: String) -> StaticString {
    switch self {
    case .en: return "and"
    case .de: return "und"
    case .fr: return "et"
    case .es:
      // "y" becomes "e" before the sound /i/: "rojo e índigo", "agua e hilo", but "y hierro".
      let lower = word.lowercased()
      let vowels = "aeiouáéíóú"
      if lower.hasPrefix("i") || lower.hasPrefix("í") { return "e" }
      if lower.hasPrefix("hi") || lower.hasPrefix("hí") {
        let third = lower.dropFirst(2).first
        return third.map { vowels.contains($0) } == true ? "y" : "e"
      }
      return "y"
    }
  }
}
