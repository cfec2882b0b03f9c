import JSONRPC
import TagCore
import VaultFiles

/// `tagd check [DIR] [--json]`.
enum CheckCommand {
  /// One diagnostic where `tagd check` prints it.
  struct Line {
    var path: String
    var line: Int
    var column: Int
    var diagnostic: TagDiagnostic
  }

  static func run(_ request: Request) -> Int32 {
    guard let vault = LoadedVault.load(request, for: "check", columns: true) else { return 2 }
    let found = lines(vault)
    if request.json {
      Output.standard.write(json(found) + [0x0A])
    } else {
      var text = ""
      for line in found {
        text +=
          "\(visible(line.path)):\(line.line):\(line.column): \(line.diagnostic.code.rawValue): "
          + "\(visible(line.diagnostic.message))\n"
      }
      Output.standard.write(text)
    }
    return found.isEmpty && vault.vocabularyError == nil ? 0 : 1
  }

  /// Every diagnostic of the vault: notes in path order, each note's in its order.
  static func lines(_ vault: LoadedVault) -> [Line] {
    var result: [Line] = []
    for note in vault.notes {
      let diagnostics = TagDiagnostics.check(
        note.tags,
        index: vault.index,
        vocabulary: vault.vocabulary
      )
      for diagnostic in diagnostics {
        let position = note.tags.firstIndex { $0.range == diagnostic.tag.range } ?? 0
        result.append(
          Line(
            path: note.file.relativePath,
            line: diagnostic.tag.line + 1,
            column: note.columns.isEmpty ? 1 : note.columns[position],
            diagnostic: diagnostic
          )
        )
      }
    }
    return result
  }

  /// `{diagnostics: [{path, line, column, code, message}]}` (1-based, columns in characters).
  static func json(_ lines: [Line]) -> [UInt8] {
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("diagnostics")
    writer.beginArray()
    for line in lines {
      writer.beginObject()
      writer.key("path")
      writer.string(line.path)
      writer.key("line")
      writer.integer(line.line)
      writer.key("column")
      writer.integer(line.column)
      writer.key("code")
      writer.string(line.diagnostic.code.rawValue)
      writer.key("message")
      writer.string(line.diagnostic.message)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer.bytes
  }
}
