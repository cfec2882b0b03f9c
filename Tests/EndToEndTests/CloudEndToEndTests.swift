import JSONRPC
import TagTestSupport
import Testing

/// Cloud replies that change the selection carry the sentence a screen reader says, in the
/// connection's language, as Protocol/announcements.md promises for every reply.
@Suite struct CloudEndToEndTests {
  @Test(arguments: [
    ("en", "Selected SwiftUI.", "Deselected SwiftUI.", "Selected UIKit and AppKit."),
    (
      "es", "Se ha seleccionado SwiftUI.", "Se ha deseleccionado SwiftUI.",
      "Se han seleccionado UIKit y AppKit."
    ),
    (
      "de", "SwiftUI ausgewählt.", "Auswahl von SwiftUI aufgehoben.", "UIKit und AppKit ausgewählt."
    ),
    (
      "fr", "Étiquette sélectionnée\u{A0}: SwiftUI.", "Étiquette désélectionnée\u{A0}: SwiftUI.",
      "Étiquettes sélectionnées\u{A0}: UIKit et AppKit."
    ),
  ])
  func selectionChangesAreAnnounced(locale: String, on: String, off: String, select: String) throws
  {
    let run = try session([
      #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"capabilities":{},"locale":"\#(locale)"}}"#,
      #"{"jsonrpc":"2.0","id":1,"method":"cloud/open","params":{"cloud":"c","tags":[{"title":"SwiftUI"},{"title":"UIKit"},{"title":"AppKit"}]}}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"cloud/toggle","params":{"cloud":"c","title":"SwiftUI"}}"#,
      #"{"jsonrpc":"2.0","id":3,"method":"cloud/toggle","params":{"cloud":"c","title":"SwiftUI"}}"#,
      #"{"jsonrpc":"2.0","id":4,"method":"cloud/select","params":{"cloud":"c","selection":["UIKit","AppKit"]}}"#,
      #"{"jsonrpc":"2.0","id":5,"method":"cloud/state","params":{"cloud":"c"}}"#,
    ])
    func announcement(_ id: Int64) -> JSONValue? {
      guard case .object(let result)? = reply(run.replies, id: id)?["result"] else { return nil }
      return result["announcement"]
    }
    #expect(announcement(1) == nil, "opening changes nothing")
    #expect(announcement(2) == .string(on))
    #expect(announcement(3) == .string(off))
    #expect(announcement(4) == .string(select))
    #expect(announcement(5) == nil, "a state request changes nothing")
  }
}
