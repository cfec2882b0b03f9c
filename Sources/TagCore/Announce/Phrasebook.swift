/// Every sentence tagd says, in every language it speaks (SPEC §6c).
///
/// One exhaustive switch per language, so a new kind of sentence does not compile until each
/// language has words for it. Protocol/announcements.md shows the same table; a test compares
/// the two. The words go into a ``PhraseSink``: a `String` (``words(for:)-(Sentence)``), or a
/// reply's JSON text, so the keystroke's announcement is written where it is sent with no
/// `String` made first.
extension Language {
  /// `sentence` in this language.
  public func words(for sentence: Sentence) -> String {
    var said = SaidText()
    say(sentence, into: &said)
    return said.text
  }

  /// Puts `sentence` into words in this language, into `sink`.
  public func say<Sink: PhraseSink & ~Copyable>(_ sentence: Sentence, into sink: inout Sink) {
    switch self {
    case .en: english(sentence, &sink)
    case .es: spanish(sentence, &sink)
    case .de: german(sentence, &sink)
    case .fr: french(sentence, &sink)
    }
  }

  /// Words that are not sentences of their own.
  public enum Fragment: Hashable, Sendable, CaseIterable {
    /// An empty list.
    case nothing
    /// A list too long to read out, as a count (more than five tags).
    case tagCount(Int)
    /// The prompt of a field that was opened without one.
    case defaultPrompt

    public static var allCases: [Fragment] { [.nothing, .tagCount(6), .defaultPrompt] }
  }

  /// `fragment` in this language.
  public func words(for fragment: Fragment) -> String {
    var said = SaidText()
    say(fragment, into: &said)
    return said.text
  }

  /// Puts `fragment` into words in this language, into `sink`.
  func say<Sink: PhraseSink & ~Copyable>(_ fragment: Fragment, into s: inout Sink) {
    switch (self, fragment) {
    case (.en, .nothing): s.words("nothing")
    case (.es, .nothing): s.words("nada")
    case (.de, .nothing): s.words("nichts")
    case (.fr, .nothing): s.words("rien")
    case (.en, .tagCount(let n)): s.count(n, isSingular(n) ? " tag" : " tags")
    case (.es, .tagCount(let n)): s.count(n, isSingular(n) ? " etiqueta" : " etiquetas")
    case (.de, .tagCount(let n)): s.count(n, isSingular(n) ? " Tag" : " Tags")
    case (.fr, .tagCount(let n)): s.count(n, isSingular(n) ? " étiquette" : " étiquettes")
    case (.en, .defaultPrompt): s.words("Add a tag")
    case (.es, .defaultPrompt): s.words("Añadir una etiqueta")
    case (.de, .defaultPrompt): s.words("Tag hinzufügen")
    case (.fr, .defaultPrompt): s.words("Ajouter une étiquette")
    }
  }

  private func english<Sink: PhraseSink & ~Copyable>(_ sentence: Sentence, _ s: inout Sink) {
    switch sentence {
    case .added(let tags): s.phrase("Added ", list: tags, in: self, ".")
    case .removed(let tags): s.phrase("Removed ", list: tags, in: self, ".")
    case .editing(let tag): s.phrase("Editing ", tag, ".")
    case .moved(let tag, let position, let count):
      s.phrase("Moved ", tag, " to position ")
      s.position(position, " of ", count, ".")
    case .changed(let old, let new): s.phrase("Changed ", old, " to ", new, ".")
    case .selected(let tag, let position, let count):
      s.phrase("", tag, " selected, ")
      s.position(position, " of ", count, ".")
    case .kept(let tags):
      s.phrase("Kept ", list: tags, in: self, ", which ")
      s.words(isSingular(tags.count) ? "breaks the new rules." : "break the new rules.")
    case .cloudSelected(let tags): s.phrase("Selected ", list: tags, in: self, ".")
    case .cloudDeselected(let tags): s.phrase("Deselected ", list: tags, in: self, ".")
    case .duplicate(let text): s.phrase("", text, " is already a tag.")
    case .duplicateOf(let text, let existing):
      s.phrase("", text, " is already a tag, as ", existing, ".")
    case .tooLong(let text, let limit):
      s.phrase("", text, " is longer than ")
      s.count(limit, isSingular(limit) ? " character." : " characters.")
    case .tooMany(let text, let limit):
      s.phrase("", text, " was not added: the limit is ")
      say(.tagCount(limit), into: &s)
      s.words(".")
    case .pattern(let text): s.phrase("", text, " does not have the form this field asks for.")
    case .notAllowed(let text): s.phrase("", text, " is not one of the allowed tags.")
    case .denied(let text): s.phrase("", text, " is not allowed.")
    case .nothingTo(.undo): s.words("Nothing to undo.")
    case .nothingTo(.redo): s.words("Nothing to redo.")
    case .history(let direction, let step):
      s.words(direction == .undo ? "Undid " : "Redid ")
      englishStep(step, &s)
      s.words(".")
    case .suggestions(0, _): s.words("No suggestions.")
    case .suggestions(1, let first): s.phrase("One suggestion: ", first, ".")
    case .suggestions(let count, let first):
      s.count(count, " suggestions; the first is ")
      s.phrase("", first, ".")
    }
  }

  private func englishStep<Sink: PhraseSink & ~Copyable>(_ step: Sentence.Step, _ s: inout Sink) {
    switch step {
    case .typing: s.words("typing")
    case .clearingDraft: s.words("clearing the draft")
    case .adding(let tags): s.phrase("adding ", list: tags, in: self, "")
    case .removing(let tags): s.phrase("removing ", list: tags, in: self, "")
    case .moving(let tags): s.phrase("moving ", list: tags, in: self, "")
    case .changing(let old, let new): s.phrase("changing ", old, " to ", new, "")
    case .editing(let tag?): s.phrase("editing ", tag, "")
    case .editing(nil): s.words("editing a tag")
    case .someChange: s.words("a change")
    }
  }

  private func spanish<Sink: PhraseSink & ~Copyable>(_ sentence: Sentence, _ s: inout Sink) {
    switch sentence {
    case .added(let tags):
      s.phrase(
        isSingular(tags.count) ? "Se ha añadido " : "Se han añadido ",
        list: tags,
        in: self,
        "."
      )
    case .removed(let tags):
      s.phrase(
        isSingular(tags.count) ? "Se ha quitado " : "Se han quitado ",
        list: tags,
        in: self,
        "."
      )
    case .editing(let tag): s.phrase("Editando ", tag, ".")
    case .moved(let tag, let position, let count):
      s.phrase("", tag, " se ha movido a la posición ")
      s.position(position, " de ", count, ".")
    case .changed(let old, let new): s.phrase("Se ha cambiado ", old, " por ", new, ".")
    case .selected(let tag, let position, let count):
      s.phrase("Etiqueta ", tag, " seleccionada, ")
      s.position(position, " de ", count, ".")
    case .kept(let tags) where isSingular(tags.count):
      s.phrase(
        "Se ha conservado ",
        list: tags,
        in: self,
        ", que no cumple las nuevas reglas del campo."
      )
    case .kept(let tags):
      s.phrase(
        "Se han conservado ",
        list: tags,
        in: self,
        ", que no cumplen las nuevas reglas del campo."
      )
    case .cloudSelected(let tags):
      s.phrase(
        isSingular(tags.count) ? "Se ha seleccionado " : "Se han seleccionado ",
        list: tags,
        in: self,
        "."
      )
    case .cloudDeselected(let tags):
      s.phrase(
        isSingular(tags.count) ? "Se ha deseleccionado " : "Se han deseleccionado ",
        list: tags,
        in: self,
        "."
      )
    case .duplicate(let text): s.phrase("", text, " ya existe.")
    case .duplicateOf(let text, let existing): s.phrase("", text, " ya existe como ", existing, ".")
    case .tooLong(let text, let limit):
      s.phrase("", text, " tiene más de ")
      s.count(limit, isSingular(limit) ? " carácter." : " caracteres.")
    case .tooMany(let text, let limit):
      s.phrase("No se ha añadido ", text, ": el máximo es de ")
      say(.tagCount(limit), into: &s)
      s.words(".")
    case .pattern(let text): s.phrase("", text, " no tiene el formato que pide este campo.")
    case .notAllowed(let text): s.phrase("", text, " no está entre las etiquetas permitidas.")
    case .denied(let text): s.phrase("No se permite ", text, ".")
    case .nothingTo(.undo): s.words("No hay nada que deshacer.")
    case .nothingTo(.redo): s.words("No hay nada que rehacer.")
    case .history(let direction, let step):
      s.words(direction == .undo ? "Se ha deshecho " : "Se ha rehecho ")
      spanishStep(step, &s)
      s.words(".")
    case .suggestions(0, _): s.words("No hay sugerencias.")
    case .suggestions(1, let first): s.phrase("Una sugerencia: ", first, ".")
    case .suggestions(let count, let first):
      s.count(count, " sugerencias; la primera es ")
      s.phrase("", first, ".")
    }
  }

  private func spanishStep<Sink: PhraseSink & ~Copyable>(_ step: Sentence.Step, _ s: inout Sink) {
    switch step {
    case .typing: s.words("lo escrito")
    case .clearingDraft: s.words("el borrado del texto")
    case .adding(let tags): s.phrase("la adición de ", list: tags, in: self, "")
    case .removing(let tags): s.phrase("la eliminación de ", list: tags, in: self, "")
    case .moving(let tags): s.phrase("el cambio de posición de ", list: tags, in: self, "")
    case .changing(let old, let new): s.phrase("el cambio de ", old, " por ", new, "")
    case .editing(let tag?): s.phrase("la edición de ", tag, "")
    case .editing(nil): s.words("la edición de una etiqueta")
    case .someChange: s.words("un cambio")
    }
  }

  private func german<Sink: PhraseSink & ~Copyable>(_ sentence: Sentence, _ s: inout Sink) {
    switch sentence {
    case .added(let tags): s.phrase("", list: tags, in: self, " hinzugefügt.")
    case .removed(let tags): s.phrase("", list: tags, in: self, " entfernt.")
    case .editing(let tag): s.phrase("", tag, " wird bearbeitet.")
    case .moved(let tag, let position, let count):
      s.phrase("", tag, " an Position ")
      s.position(position, " von ", count, " verschoben.")
    case .changed(let old, let new): s.phrase("", old, " in ", new, " geändert.")
    case .selected(let tag, let position, let count):
      s.phrase("", tag, " ausgewählt, ")
      s.position(position, " von ", count, ".")
    case .kept(let tags) where isSingular(tags.count):
      s.phrase(
        "",
        list: tags,
        in: self,
        " entspricht nicht den neuen Regeln des Feldes und bleibt erhalten."
      )
    case .kept(let tags):
      s.phrase(
        "",
        list: tags,
        in: self,
        " entsprechen nicht den neuen Regeln des Feldes und bleiben erhalten."
      )
    case .cloudSelected(let tags): s.phrase("", list: tags, in: self, " ausgewählt.")
    case .cloudDeselected(let tags): s.phrase("Auswahl von ", list: tags, in: self, " aufgehoben.")
    case .duplicate(let text): s.phrase("", text, " gibt es schon.")
    case .duplicateOf(let text, let existing):
      s.phrase("", text, " gibt es schon als ", existing, ".")
    case .tooLong(let text, let limit):
      s.phrase("", text, " ist länger als ")
      s.count(limit, " Zeichen.")
    case .tooMany(let text, let limit):
      s.phrase("", text, " wurde nicht hinzugefügt: höchstens ")
      say(.tagCount(limit), into: &s)
      s.words(".")
    case .pattern(let text): s.phrase("", text, " hat nicht die Form, die dieses Feld verlangt.")
    case .notAllowed(let text): s.phrase("", text, " gehört nicht zu den erlaubten Tags.")
    case .denied(let text): s.phrase("", text, " ist nicht erlaubt.")
    case .nothingTo(.undo): s.words("Nichts rückgängig zu machen.")
    case .nothingTo(.redo): s.words("Nichts wiederherzustellen.")
    case .history(let direction, let step):
      s.words(direction == .undo ? "Rückgängig gemacht: " : "Wiederhergestellt: ")
      germanStep(step, &s)
      s.words(".")
    case .suggestions(0, _): s.words("Keine Vorschläge.")
    case .suggestions(1, let first): s.phrase("Ein Vorschlag: ", first, ".")
    case .suggestions(let count, let first):
      s.count(count, " Vorschläge; der erste ist ")
      s.phrase("", first, ".")
    }
  }

  private func germanStep<Sink: PhraseSink & ~Copyable>(_ step: Sentence.Step, _ s: inout Sink) {
    switch step {
    case .typing: s.words("Tippen")
    case .clearingDraft: s.words("Leeren des Textes")
    case .adding(let tags): s.phrase("", list: tags, in: self, " hinzufügen")
    case .removing(let tags): s.phrase("", list: tags, in: self, " entfernen")
    case .moving(let tags): s.phrase("", list: tags, in: self, " verschieben")
    case .changing(let old, let new): s.phrase("", old, " in ", new, " ändern")
    case .editing(let tag?): s.phrase("", tag, " bearbeiten")
    case .editing(nil): s.words("ein Tag bearbeiten")
    case .someChange: s.words("eine Änderung")
    }
  }

  private func french<Sink: PhraseSink & ~Copyable>(_ sentence: Sentence, _ s: inout Sink) {
    // French sets a no-break space before a colon.
    switch sentence {
    // A count reads better as the subject: "6 étiquettes ajoutées."
    case .added(let tags) where tags.count > 5: s.phrase("", list: tags, in: self, " ajoutées.")
    case .removed(let tags) where tags.count > 5: s.phrase("", list: tags, in: self, " retirées.")
    case .cloudSelected(let tags) where tags.count > 5:
      s.phrase("", list: tags, in: self, " sélectionnées.")
    case .cloudDeselected(let tags) where tags.count > 5:
      s.phrase("", list: tags, in: self, " désélectionnées.")
    case .cloudSelected(let tags):
      s.phrase(
        isSingular(tags.count)
          ? "Étiquette sélectionnée\u{A0}: " : "Étiquettes sélectionnées\u{A0}: ",
        list: tags,
        in: self,
        "."
      )
    case .cloudDeselected(let tags):
      s.phrase(
        isSingular(tags.count)
          ? "Étiquette désélectionnée\u{A0}: " : "Étiquettes désélectionnées\u{A0}: ",
        list: tags,
        in: self,
        "."
      )
    case .kept(let tags) where tags.count > 5:
      s.phrase("", list: tags, in: self, " conservées malgré les nouvelles règles du champ.")
    case .kept(let tags):
      s.words(isSingular(tags.count) ? "Étiquette conservée" : "Étiquettes conservées")
      s.phrase(" malgré les nouvelles règles du champ\u{A0}: ", list: tags, in: self, ".")
    case .added(let tags):
      s.phrase(
        isSingular(tags.count) ? "Étiquette ajoutée\u{A0}: " : "Étiquettes ajoutées\u{A0}: ",
        list: tags,
        in: self,
        "."
      )
    case .removed(let tags):
      s.phrase(
        isSingular(tags.count) ? "Étiquette retirée\u{A0}: " : "Étiquettes retirées\u{A0}: ",
        list: tags,
        in: self,
        "."
      )
    case .editing(let tag):
      s.words("Modification ")
      Self.de(tag, &s)
      s.words(".")
    case .moved(let tag, let position, let count):
      s.phrase("Étiquette ", tag, " déplacée en position ")
      s.position(position, " sur ", count, ".")
    case .changed(let old, let new): s.phrase("", old, " devient ", new, ".")
    case .selected(let tag, let position, let count):
      s.phrase("Étiquette ", tag, " sélectionnée, ")
      s.position(position, " sur ", count, ".")
    case .duplicate(let text): s.phrase("", text, " existe déjà.")
    case .duplicateOf(let text, let existing):
      s.phrase("", text, " existe déjà sous la forme ", existing, ".")
    case .tooLong(let text, let limit):
      s.phrase("", text, " dépasse ")
      s.count(limit, isSingular(limit) ? " caractère." : " caractères.")
    case .tooMany(let text, let limit):
      s.phrase("Impossible d’ajouter ", text, "\u{A0}: ")
      say(.tagCount(limit), into: &s)
      s.words(" au maximum.")
    case .pattern(let text): s.phrase("", text, " n’a pas la forme demandée par ce champ.")
    case .notAllowed(let text): s.phrase("", text, " ne fait pas partie des étiquettes autorisées.")
    case .denied(let text): s.phrase("Étiquette refusée\u{A0}: ", text, ".")
    case .nothingTo(.undo): s.words("Rien à annuler.")
    case .nothingTo(.redo): s.words("Rien à rétablir.")
    case .history(let direction, let step):
      s.words(direction == .undo ? "Annulé\u{A0}: " : "Rétabli\u{A0}: ")
      frenchStep(step, &s)
      s.words(".")
    case .suggestions(0, _): s.words("Aucune suggestion.")
    case .suggestions(1, let first): s.phrase("Une suggestion\u{A0}: ", first, ".")
    case .suggestions(let count, let first):
      s.count(count, " suggestions\u{A0}; la première est ")
      s.phrase("", first, ".")
    }
  }

  private func frenchStep<Sink: PhraseSink & ~Copyable>(_ step: Sentence.Step, _ s: inout Sink) {
    switch step {
    case .typing: s.words("saisie")
    case .clearingDraft: s.words("effacement du texte")
    case .adding(let tags):
      s.words("ajout ")
      deList(tags, &s)
    case .removing(let tags):
      s.words("retrait ")
      deList(tags, &s)
    case .moving(let tags):
      s.words("déplacement ")
      deList(tags, &s)
    case .changing(let old, let new):
      s.words("remplacement ")
      Self.de(old, &s)
      s.phrase(" par ", new, "")
    case .editing(let tag?):
      s.words("modification ")
      Self.de(tag, &s)
    case .editing(nil): s.words("modification d’une étiquette")
    case .someChange: s.words("une modification")
    }
  }

  /// French "de" before the list of `tags`, elided before a vowel.
  private func deList<Sink: PhraseSink & ~Copyable>(_ tags: [String], _ s: inout Sink) {
    // The list starts with its first tag; a count or "rien" never takes the elision.
    if (1...5).contains(tags.count), Self.elides(tags[0]) {
      s.words("d’")
    } else {
      s.words("de ")
    }
    list(tags, into: &s)
  }

  /// French "de" before `word`, elided before a vowel: "de rouge", "d’orange".
  private static func de<Sink: PhraseSink & ~Copyable>(_ word: String, _ s: inout Sink) {
    s.words(elides(word) ? "d’" : "de ")
    s.text(word)
  }

  /// Whether French elides "de" before `word` (it starts with a vowel).
  private static func elides(_ word: String) -> Bool {
    guard let first = word.lowercased().first else { return false }
    return "aeiouyàâäéèêëîïôöùûüœæ".contains(first)
  }
}

/// Where the phrasebook puts its words: a `String`, or (TagProtocol) a reply's JSON string, so
/// an announcement is written into the reply without a `String` made first.
public protocol PhraseSink: ~Copyable {
  /// Appends the phrasebook's own words: constant text, with nothing JSON must escape.
  mutating func words(_ text: StaticString)
  /// Appends text from the field: a tag or a dropped text, as it is.
  mutating func text(_ text: String)
  /// Appends `value` in decimal.
  mutating func number(_ value: Int)
}

extension PhraseSink where Self: ~Copyable {
  /// `before`, `text`, `after`.
  mutating func phrase(_ before: StaticString, _ text: String, _ after: StaticString) {
    // Many sentences start with the text: a sink's call for no words is not made.
    if before.utf8CodeUnitCount > 0 { words(before) }
    self.text(text)
    words(after)
  }

  /// `before`, `text`, `middle`, `other`, `after`.
  mutating func phrase(
    _ before: StaticString,
    _ text: String,
    _ middle: StaticString,
    _ other: String,
    _ after: StaticString
  ) {
    phrase(before, text, middle)
    self.text(other)
    words(after)
  }

  /// `before`, `tags` as a list in `language`, `after`.
  mutating func phrase(
    _ before: StaticString,
    list tags: [String],
    in language: Language,
    _ after: StaticString
  ) {
    words(before)
    language.list(tags, into: &self)
    words(after)
  }

  /// `value`, then `after`.
  mutating func count(_ value: Int, _ after: StaticString) {
    number(value)
    words(after)
  }

  /// "`position` of `count`" and `after`, `of` in the sentence's language.
  mutating func position(_ position: Int, _ of: StaticString, _ count: Int, _ after: StaticString) {
    number(position)
    words(of)
    number(count)
    words(after)
  }
}

/// The sink that makes the phrasebook's `String`s.
struct SaidText: PhraseSink {
  /// The words so far.
  var text = ""

  mutating func words(_ text: StaticString) { self.text += text.description }

  mutating func text(_ text: String) { self.text += text }

  mutating func number(_ value: Int) { text += String(value) }
}
