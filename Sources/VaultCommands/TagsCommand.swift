import JSONRPC
import TagCore
import VaultFiles

/// `tagd tags [DIR] [--json]`.
enum TagsCommand {
  static func run(_ request: Request) -> Int32 {
    guard let vault = LoadedVault.load(request, for: "tags", keepNotes: false) else { return 2 }
    let tags = vault.index.tags()
    if request.json {
      Output.standard.write(json(tags) + [0x0A])
    } else {
      var text = ""
      for tag in tags { text += "\(tag.notes)\t\(visible(tag.spelling))\n" }
      Output.standard.write(text)
    }
    return 0
  }

  /// The `vault/tags` result: `{tags: [{tag, notes, spellings: [{text, notes}]}]}`.
  static func json(_ tags: [VaultTag]) -> [UInt8] {
    var writer = JSONWriter()
    writer.beginObject()
    writer.key("tags")
    writer.beginArray()
    for tag in tags {
      writer.beginObject()
      writer.key("tag")
      writer.string(tag.spelling)
      writer.key("notes")
      writer.integer(tag.notes)
      writer.key("spellings")
      writer.beginArray()
      for spelling in tag.spellings {
        writer.beginObject()
        writer.key("text")
        writer.string(spelling.text)
        writer.key("notes")
        writer.integer(spelling.notes)
        writer.endObject()
      }
      writer.endArray()
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer.bytes
  }
}
