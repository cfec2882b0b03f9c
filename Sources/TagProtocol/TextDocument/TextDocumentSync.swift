public import JSONRPC
public import TagCore

/// The members of the `textDocument` LSP's document notifications share, `{uri, languageId?,
/// version?, text?}`: the ones tagd reads, among any others.
///
/// LSP's own objects are open: a member tagd does not read is accepted (new LSP versions add
/// some), a member it reads with the wrong type is refused.
enum TextDocumentMember: Int, ParamsMember {
  case uri, languageId, version, text
  static let declared = declare(acceptingAnyMember: true)
}

/// `textDocument/didOpen` (notification): the editor opened a note; its text now comes from
/// the editor, not from the disk, until `textDocument/didClose`.
public struct DidOpenTextDocumentNotification: TagNotification, Hashable {
  public static let method = "textDocument/didOpen"
  public enum Member: Int, ParamsMember {
    case textDocument
    public static let declared = declare(acceptingAnyMember: true)
  }
  /// The document's URI.
  public var uri: String
  /// The editor's version of the text.
  public var version: Int
  /// The whole text.
  public var text: String

  public init(params: Params<Member>) throws(ParamsError) {
    let document = try params.requiredObject(.textDocument, as: TextDocumentMember.self)
    uri = try document.string(.uri)
    // LSP's `languageId` (`markdown`, `org`, …): checked, not kept (the note's name gives its kind).
    _ = try document.optionalString(.languageId)
    version = try document.optionalInteger(.version, in: Int.min...Int.max) ?? 0
    text = try document.string(.text)
  }
}

/// `textDocument/didChange` (notification): full (`{text}`) or ranged (`{range, text}`) changes,
/// positions counted in the negotiated encoding.
public struct DidChangeTextDocumentNotification: TagNotification, Hashable {
  public static let method = "textDocument/didChange"
  public enum Member: Int, ParamsMember {
    case textDocument, contentChanges
    public static let declared = declare(acceptingAnyMember: true)
  }
  /// The document's URI.
  public var uri: String
  /// The version after the changes.
  public var version: Int
  /// The changes, applied in order (LSP).
  public var changes: TextEdits

  public init(params: Params<Member>) throws(ParamsError) {
    let document = try params.requiredObject(.textDocument, as: TextDocumentMember.self)
    uri = try document.string(.uri)
    version = try document.optionalInteger(.version, in: Int.min...Int.max) ?? 0
    changes = try params.textEdits(.contentChanges)
  }
}

/// `textDocument/didSave` (notification): the note was written; `text` when the client sends it.
public struct DidSaveTextDocumentNotification: TagNotification, Hashable {
  public static let method = "textDocument/didSave"
  public enum Member: Int, ParamsMember {
    case textDocument, text
    public static let declared = declare(acceptingAnyMember: true)
  }
  /// The document's URI.
  public var uri: String
  /// The saved text, when included.
  public var text: String?

  public init(params: Params<Member>) throws(ParamsError) {
    uri = try params.requiredObject(.textDocument, as: TextDocumentMember.self).string(.uri)
    text = try params.optionalString(.text)
  }
}

/// `textDocument/didClose` (notification): the note is read from the disk again.
public struct DidCloseTextDocumentNotification: TagNotification, Hashable {
  public static let method = "textDocument/didClose"
  public typealias Member = DidOpenTextDocumentNotification.Member
  /// The document's URI.
  public var uri: String

  public init(params: Params<Member>) throws(ParamsError) {
    uri = try params.requiredObject(.textDocument, as: TextDocumentMember.self).string(.uri)
  }
}
