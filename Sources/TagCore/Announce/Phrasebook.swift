/// Every sentence tagd says, in every language it speaks (SPEC §6c).
///
/// One exhaustive switch per language, so a new kind of sentence does not compile until each
/// language has words for it. Protocol/announcements.md shows the same table; a test compares
/// the two.
extension Language {
  /// `sentence` in this language.
  public func words(for sentence: Sentence) -> String {
    switch self {
    case .en: english(sentence)
    case .es: spanish(sentence)
    case .de: german(sentence)
    case .fr: french(sentence)
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
    switch (self, fragment) {
    case (.en, .nothing): "nothing"
    case (.es, .nothing): "nada"
    case (.de, .nothing): "nichts"
    case (.fr, .nothing): "rien"
    case (.en, .tagCount(let n)): "\(n) \(isSingular(n) ? "tag" : "tags")"
    case (.es, .tagCount(let n)): "\(n) \(isSingular(n) ? "etiqueta" : "etiquetas")"
    case (.de, .tagCount(let n)): "\(n) \(isSingular(n) ? "Tag" : "Tags")"
    case (.fr, .tagCount(let n)): "\(n) \(isSingular(n) ? "étiquette" : "étiquettes")"
    case (.en, .defaultPrompt): "Add a tag"
    case (.es, .defaultPrompt): "Añadir una etiqueta"
    case (.de, .defaultPrompt): "Tag hinzufügen"
    case (.fr, .defaultPrompt): "Ajouter une étiquette"
    }
  }

  private func english(_ sentence: Sentence) -> String {
    switch sentence {
    case .added(let tags): "Added \(list(tags))."
    case .removed(let tags): "Removed \(list(tags))."
    case .editing(let tag): "Editing \(tag)."
    case .moved(let tag, let position, let count):
      "Moved \(tag) to position \(position) of \(count)."
    case .changed(let old, let new): "Changed \(old) to \(new)."
    case .selected(let tag, let position, let count): "\(tag) selected, \(position) of \(count)."
    case .kept(let tags):
      "Kept \(list(tags)), which \(isSingular(tags.count) ? "breaks" : "break") the new rules."
    case .cloudSelected(let tags): "Selected \(list(tags))."
    case .cloudDeselected(let tags): "Deselected \(list(tags))."
    case .duplicate(let text): "\(text) is already a tag."
    case .duplicateOf(let text, let existing): "\(text) is already a tag, as \(existing)."
    case .tooLong(let text, let limit):
      "\(text) is longer than \(limit) \(isSingular(limit) ? "character" : "characters")."
    case .tooMany(let text, let limit):
      "\(text) was not added: the limit is \(words(for: .tagCount(limit)))."
    case .pattern(let text): "\(text) does not have the form this field asks for."
    case .notAllowed(let text): "\(text) is not one of the allowed tags."
    case .denied(let text): "\(text) is not allowed."
    case .nothingTo(.undo): "Nothing to undo."
    case .nothingTo(.redo): "Nothing to redo."
    case .history(let direction, let step):
      "\(direction == .undo ? "Undid" : "Redid") \(englishStep(step))."
    case .suggestions(0, _): "No suggestions."
    case .suggestions(1, let first): "One suggestion: \(first)."
    case .suggestions(let count, let first): "\(count) suggestions; the first is \(first)."
    }
  }

  private func englishStep(_ step: Sentence.Step) -> String {
    switch step {
    case .typing: "typing"
    case .clearingDraft: "clearing the draft"
    case .adding(let tags): "adding \(list(tags))"
    case .removing(let tags): "removing \(list(tags))"
    case .moving(let tags): "moving \(list(tags))"
    case .changing(let old, let new): "changing \(old) to \(new)"
    case .editing(let tag): "editing \(tag ?? "a tag")"
    case .someChange: "a change"
    }
  }

  private func spanish(_ sentence: Sentence) -> String {
    switch sentence {
    case .added(let tags):
      "\(isSingular(tags.count) ? "Se ha añadido" : "Se han añadido") \(list(tags))."
    case .removed(let tags):
      "\(isSingular(tags.count) ? "Se ha quitado" : "Se han quitado") \(list(tags))."
    case .editing(let tag): "Editando \(tag)."
    case .moved(let tag, let position, let count):
      "\(tag) se ha movido a la posición \(position) de \(count)."
    case .changed(let old, let new): "Se ha cambiado \(old) por \(new)."
    case .selected(let tag, let position, let count):
      "Etiqueta \(tag) seleccionada, \(position) de \(count)."
    case .kept(let tags):
      isSingular(tags.count)
        ? "Se ha conservado \(list(tags)), que no cumple las nuevas reglas del campo."
        : "Se han conservado \(list(tags)), que no cumplen las nuevas reglas del campo."
    case .cloudSelected(let tags):
      "\(isSingular(tags.count) ? "Se ha seleccionado" : "Se han seleccionado") \(list(tags))."
    case .cloudDeselected(let tags):
      "\(isSingular(tags.count) ? "Se ha deseleccionado" : "Se han deseleccionado") \(list(tags))."
    case .duplicate(let text): "\(text) ya existe."
    case .duplicateOf(let text, let existing): "\(text) ya existe como \(existing)."
    case .tooLong(let text, let limit):
      "\(text) tiene más de \(limit) \(isSingular(limit) ? "carácter" : "caracteres")."
    case .tooMany(let text, let limit):
      "No se ha añadido \(text): el máximo es de \(words(for: .tagCount(limit)))."
    case .pattern(let text): "\(text) no tiene el formato que pide este campo."
    case .notAllowed(let text): "\(text) no está entre las etiquetas permitidas."
    case .denied(let text): "No se permite \(text)."
    case .nothingTo(.undo): "No hay nada que deshacer."
    case .nothingTo(.redo): "No hay nada que rehacer."
    case .history(let direction, let step):
      "\(direction == .undo ? "Se ha deshecho" : "Se ha rehecho") \(spanishStep(step))."
    case .suggestions(0, _): "No hay sugerencias."
    case .suggestions(1, let first): "Una sugerencia: \(first)."
    case .suggestions(let count, let first): "\(count) sugerencias; la primera es \(first)."
    }
  }

  private func spanishStep(_ step: Sentence.Step) -> String {
    switch step {
    case .typing: "lo escrito"
    case .clearingDraft: "el borrado del texto"
    case .adding(let tags): "la adición de \(list(tags))"
    case .removing(let tags): "la eliminación de \(list(tags))"
    case .moving(let tags): "el cambio de posición de \(list(tags))"
    case .changing(let old, let new): "el cambio de \(old) por \(new)"
    case .editing(let tag): "la edición de \(tag ?? "una etiqueta")"
    case .someChange: "un cambio"
    }
  }

  private func german(_ sentence: Sentence) -> String {
    switch sentence {
    case .added(let tags): "\(list(tags)) hinzugefügt."
    case .removed(let tags): "\(list(tags)) entfernt."
    case .editing(let tag): "\(tag) wird bearbeitet."
    case .moved(let tag, let position, let count):
      "\(tag) an Position \(position) von \(count) verschoben."
    case .changed(let old, let new): "\(old) in \(new) geändert."
    case .selected(let tag, let position, let count): "\(tag) ausgewählt, \(position) von \(count)."
    case .kept(let tags):
      isSingular(tags.count)
        ? "\(list(tags)) entspricht nicht den neuen Regeln des Feldes und bleibt erhalten."
        : "\(list(tags)) entsprechen nicht den neuen Regeln des Feldes und bleiben erhalten."
    case .cloudSelected(let tags): "\(list(tags)) ausgewählt."
    case .cloudDeselected(let tags): "Auswahl von \(list(tags)) aufgehoben."
    case .duplicate(let text): "\(text) gibt es schon."
    case .duplicateOf(let text, let existing): "\(text) gibt es schon als \(existing)."
    case .tooLong(let text, let limit): "\(text) ist länger als \(limit) Zeichen."
    case .tooMany(let text, let limit):
      "\(text) wurde nicht hinzugefügt: höchstens \(words(for: .tagCount(limit)))."
    case .pattern(let text): "\(text) hat nicht die Form, die dieses Feld verlangt."
    case .notAllowed(let text): "\(text) gehört nicht zu den erlaubten Tags."
    case .denied(let text): "\(text) ist nicht erlaubt."
    case .nothingTo(.undo): "Nichts rückgängig zu machen."
    case .nothingTo(.redo): "Nichts wiederherzustellen."
    case .history(let direction, let step):
      "\(direction == .undo ? "Rückgängig gemacht" : "Wiederhergestellt"): \(germanStep(step))."
    case .suggestions(0, _): "Keine Vorschläge."
    case .suggestions(1, let first): "Ein Vorschlag: \(first)."
    case .suggestions(let count, let first): "\(count) Vorschläge; der erste ist \(first)."
    }
  }

  private func germanStep(_ step: Sentence.Step) -> String {
    switch step {
    case .typing: "Tippen"
    case .clearingDraft: "Leeren des Textes"
    case .adding(let tags): "\(list(tags)) hinzufügen"
    case .removing(let tags): "\(list(tags)) entfernen"
    case .moving(let tags): "\(list(tags)) verschieben"
    case .changing(let old, let new): "\(old) in \(new) ändern"
    case .editing(let tag): "\(tag ?? "ein Tag") bearbeiten"
    case .someChange: "eine Änderung"
    }
  }

  /// French sets a no-break space before a colon.
  private static let colon = "\u{A0}:"

  private func french(_ sentence: Sentence) -> String {
    let colon = Self.colon
    switch sentence {
    // A count reads better as the subject: "6 étiquettes ajoutées."
    case .added(let tags) where tags.count > 5: return "\(list(tags)) ajoutées."
    case .removed(let tags) where tags.count > 5: return "\(list(tags)) retirées."
    case .cloudSelected(let tags) where tags.count > 5:
      return "\(list(tags)) sélectionnées."
    case .cloudDeselected(let tags) where tags.count > 5:
      return "\(list(tags)) désélectionnées."
    case .cloudSelected(let tags):
      return
        "\(isSingular(tags.count) ? "Étiquette sélectionnée" : "Étiquettes sélectionnées")\(colon) \(list(tags))."
    case .cloudDeselected(let tags):
      return
        "\(isSingular(tags.count) ? "Étiquette désélectionnée" : "Étiquettes désélectionnées")\(colon) \(list(tags))."
    case .kept(let tags) where tags.count > 5:
      return "\(list(tags)) conservées malgré les nouvelles règles du champ."
    case .kept(let tags):
      return
        "\(isSingular(tags.count) ? "Étiquette conservée" : "Étiquettes conservées") malgré les nouvelles règles du champ\(colon) \(list(tags))."
    case .added(let tags):
      return
        "\(isSingular(tags.count) ? "Étiquette ajoutée" : "Étiquettes ajoutées")\(colon) \(list(tags))."
    case .removed(let tags):
      return
        "\(isSingular(tags.count) ? "Étiquette retirée" : "Étiquettes retirées")\(colon) \(list(tags))."
    case .editing(let tag): return "Modification \(Self.de(tag))."
    case .moved(let tag, let position, let count):
      return "Étiquette \(tag) déplacée en position \(position) sur \(count)."
    case .changed(let old, let new): return "\(old) devient \(new)."
    case .selected(let tag, let position, let count):
      return "Étiquette \(tag) sélectionnée, \(position) sur \(count)."
    case .duplicate(let text): return "\(text) existe déjà."
    case .duplicateOf(let text, let existing):
      return "\(text) existe déjà sous la forme \(existing)."
    case .tooLong(let text, let limit):
      return "\(text) dépasse \(limit) \(isSingular(limit) ? "caractère" : "caractères")."
    case .tooMany(let text, let limit):
      return "Impossible d’ajouter \(text)\(colon) \(words(for: .tagCount(limit))) au maximum."
    case .pattern(let text): return "\(text) n’a pas la forme demandée par ce champ."
    case .notAllowed(let text): return "\(text) ne fait pas partie des étiquettes autorisées."
    case .denied(let text): return "Étiquette refusée\(colon) \(text)."
    case .nothingTo(.undo): return "Rien à annuler."
    case .nothingTo(.redo): return "Rien à rétablir."
    case .history(let direction, let step):
      return "\(direction == .undo ? "Annulé" : "Rétabli")\(colon) \(frenchStep(step))."
    case .suggestions(0, _): return "Aucune suggestion."
    case .suggestions(1, let first): return "Une suggestion\(colon) \(first)."
    case .suggestions(let count, let first):
      return "\(count) suggestions\u{A0}; la première est \(first)."
    }
  }

  private func frenchStep(_ step: Sentence.Step) -> String {
    switch step {
    case .typing: "saisie"
    case .clearingDraft: "effacement du texte"
    case .adding(let tags): "ajout \(Self.de(list(tags)))"
    case .removing(let tags): "retrait \(Self.de(list(tags)))"
    case .moving(let tags): "déplacement \(Self.de(list(tags)))"
    case .changing(let old, let new): "remplacement \(Self.de(old)) par \(new)"
    case .editing(let tag): "modification \(tag.map { Self.de($0) } ?? "d’une étiquette")"
    case .someChange: "une modification"
    }
  }

  /// French "de" before `word`, elided before a vowel: "de rouge", "d’orange".
  private static func de(_ word: String) -> String {
    guard let first = word.lowercased().first, "aeiouyàâäéèêëîïôöùûüœæ".contains(first) else {
      return "de \(word)"
    }
    return "d’\(word)"
  }
}
