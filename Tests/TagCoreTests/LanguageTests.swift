import TagCore
import TagTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SPEC §6c: the locale picks a language, each language has its words for every sentence, its
/// plural rule and its list conjunction.
@Suite struct LanguageTests {
  @Test(arguments: [
    ("es", Language.es), ("de-CH", .de), ("DE", .de), ("fr_FR.UTF-8", .fr), ("fr-CA", .fr),
    ("de_DE@euro", .de), ("es-419", .es), ("en-GB", .en), ("ja", .en), ("C", .en),
    ("POSIX", .en), ("", .en), ("-", .en), ("esperanto", .en),
  ])
  func localePicksTheLanguage(locale: String, language: Language) {
    #expect(Language(locale: locale) == language)
  }

  @Test func noLocaleIsEnglish() {
    #expect(Language(locale: nil) == .en)
  }

  /// French counts 0 and 1 as singular; the others only 1.
  @Test func pluralRules() {
    #expect(Language.fr.words(for: .tooLong("x", limit: 0)) == "x dépasse 0 caractère.")
    #expect(Language.fr.words(for: .tooLong("x", limit: 1)) == "x dépasse 1 caractère.")
    #expect(Language.fr.words(for: .tooLong("x", limit: 2)) == "x dépasse 2 caractères.")
    #expect(Language.en.words(for: .tooLong("x", limit: 0)) == "x is longer than 0 characters.")
    #expect(Language.en.words(for: .tooLong("x", limit: 1)) == "x is longer than 1 character.")
    #expect(Language.es.words(for: .tooMany("x", limit: 1)).hasSuffix("de 1 etiqueta."))
    #expect(Language.es.words(for: .tooMany("x", limit: 0)).hasSuffix("de 0 etiquetas."))
    #expect(Language.de.words(for: .tooMany("x", limit: 1)).hasSuffix("höchstens 1 Tag."))
    #expect(Language.de.words(for: .tooMany("x", limit: 3)).hasSuffix("höchstens 3 Tags."))
    #expect(Language.es.words(for: .added(["rojo"])) == "Se ha añadido rojo.")
    #expect(Language.es.words(for: .added(["rojo", "verde"])) == "Se han añadido rojo y verde.")
  }

  @Test func listConjunctions() {
    #expect(Language.en.list(["red", "green"]) == "red and green")
    #expect(Language.es.list(["rojo", "verde"]) == "rojo y verde")
    #expect(Language.de.list(["rot", "grün"]) == "rot und grün")
    #expect(Language.fr.list(["rouge", "vert"]) == "rouge et vert")
    #expect(Language.es.list(["a", "b", "c"]) == "a, b y c")
    // Spanish "y" is "e" before an /i/ sound, but not before "hie".
    #expect(Language.es.list(["rojo", "índigo"]) == "rojo e índigo")
    #expect(Language.es.list(["agua", "Iris"]) == "agua e Iris")
    #expect(Language.es.list(["agua", "hilo"]) == "agua e hilo")
    #expect(Language.es.list(["agua", "hielo"]) == "agua y hielo")
    #expect(Language.fr.list(["a", "b", "c", "d", "e", "f"]) == "6 étiquettes")
  }

  /// French "de" elides before a vowel.
  @Test func frenchElision() {
    #expect(Language.fr.words(for: .editing("orange")) == "Modification d’orange.")
    #expect(Language.fr.words(for: .editing("vert")) == "Modification de vert.")
    #expect(
      Language.fr.words(for: .history(.undo, .adding(["Été"]))) == "Annulé\u{A0}: ajout d’Été."
    )
  }

  /// The whole announcement of a paste, in each language: the sentences joined in order.
  @Test func wholeAnnouncements() {
    var field = TagField(rules: FieldRules(maxTags: 3))
    let outcome = field.apply(.draftChanged("rojo, verde,ROJO,azul,gris,"))
    let said = Language.allCases.map { Announcement.text(for: outcome, tags: field.tags, in: $0) }
    #expect(
      said == [
        "Added rojo, verde and azul. ROJO is already a tag, as rojo. gris was not added: the limit is 3 tags.",
        "Se han añadido rojo, verde y azul. ROJO ya existe como rojo. No se ha añadido gris: el máximo es de 3 etiquetas.",
        "rojo, verde und azul hinzugefügt. ROJO gibt es schon als rojo. gris wurde nicht hinzugefügt: höchstens 3 Tags.",
        "Étiquettes ajoutées\u{A0}: rojo, verde et azul. ROJO existe déjà sous la forme rojo. Impossible d’ajouter gris\u{A0}: 3 étiquettes au maximum.",
      ]
    )
  }

  /// No language leaves a sentence untranslated, and the languages say different things.
  @Test func everySentenceInEveryLanguage() {
    for (kind, sentence) in AnnouncementCatalog.rows {
      let words = Language.allCases.map { $0.words(for: sentence) }
      for (language, text) in zip(Language.allCases, words) {
        #expect(!text.isEmpty, "\(kind) in \(language)")
        #expect(text.last == ".", "\(kind) in \(language) ends a sentence: \(text)")
      }
      #expect(Set(words).count == words.count, "\(kind): two languages say the same: \(words)")
    }
    #expect(Set(AnnouncementCatalog.rows.map(\.kind)).isSuperset(of: AnnouncementCatalog.kinds))
  }

  /// Every sentence of every language is in Protocol/announcements.md, word for word: the table
  /// there is rebuilt from the code and compared (`TAGD_RECORD=1` rewrites it, and fails).
  @Test func announcementsTableIsTheCode() throws {
    let path = packageRoot() + "/Protocol/announcements.md"
    let text = String(decoding: try #require(Files.read(path)), as: UTF8.self)
    let begin = "<!-- table: generated from the code by LanguageTests -->\n"
    let end = "<!-- end of table -->"
    let start = try #require(text.firstRange(of: begin), "no table marker in announcements.md")
    let stop = try #require(text.firstRange(of: end), "no end-of-table marker in announcements.md")
    var table = "| kind | " + Language.allCases.map(\.rawValue).joined(separator: " | ") + " |\n"
    table += "|---|" + String(repeating: "---|", count: Language.allCases.count) + "\n"
    for (kind, sentence) in AnnouncementCatalog.rows {
      let cells = Language.allCases.map { $0.words(for: sentence).replacingPipes }
      table += "| `\(kind)` | " + cells.joined(separator: " | ") + " |\n"
    }
    for fragment in Language.Fragment.allCases {
      let cells = Language.allCases.map { $0.words(for: fragment) }
      table +=
        "| \(AnnouncementCatalog.name(of: fragment)) | " + cells.joined(separator: " | ") + " |\n"
    }
    let documented = String(text[start.upperBound..<stop.lowerBound])
    if getenv("TAGD_RECORD") != nil, documented != table {
      let updated = String(text[..<start.upperBound]) + table + String(text[stop.lowerBound...])
      let fd = open(path, O_WRONLY | O_TRUNC)
      _ = updated.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
      close(fd)
      Issue.record("rewrote the table in announcements.md; review the diff and run again")
      return
    }
    #expect(documented == table, "Protocol/announcements.md disagrees with the code")
  }
}

extension String {
  fileprivate var replacingPipes: String {
    split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
  }
}
