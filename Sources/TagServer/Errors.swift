import JSONRPC
import TagCore
import TagProtocol

/// Why a well-formed request could not be carried out on the sessions.
enum SessionError: Error, Hashable {
  case unknownSession(kind: String, id: String)
  case alreadyOpen(kind: String, id: String)
  case tooManySessions(limit: Int)
  case fieldTooLarge(bytes: Int, limit: Int, field: String)
  case indexOutOfRange(index: Int, count: Int, field: String, member: String = "index")
  case noMatchingTag(String, field: String)
  case staleVersion(current: Int, given: Int, field: String)
  case bufferVersionNotAfter(current: Int, given: Int, field: String)
  case syncedWithBuffer(field: String)
  case invalidEdit(TextEditError, path: String)
  case chipCountMismatch(sizes: Int, tags: Int, field: String)
  case unknownTitle(String, cloud: String)
  case unknownSelection(String)
  case duplicateTitle(String, index: Int, first: Int, path: String)
  case sizeCountMismatch(sizes: Int, tags: Int, cloud: String)
  case tooManyCloudTags(count: Int, limit: Int)
  case document(DocumentError)
  /// `vault/rename`'s `to` cannot be written into a note.
  case cannotRename(RenameError, note: String)
  /// A request that needs a tag points at none.
  case noTagAt(TextPosition, uri: String)
}

/// Why a request came at the wrong point of the LSP lifecycle.
enum LifecycleError: Error, Hashable {
  case notInitialized
  case shutDown
  case initializedTwice
}

/// Everything answering a request can fail with: the one error path from the lifecycle gate to
/// the handlers.
enum RequestError: Error, Hashable {
  case lifecycle(LifecycleError)
  case methodNotFound(String)
  case notificationWithID(String)
  case params(ParamsError)
  case session(SessionError)
}

extension ResponseError {
  /// The one place where tagd's errors become JSON-RPC codes and messages.
  init(_ error: RequestError) {
    switch error {
    case .lifecycle(.notInitialized):
      self.init(.serverNotInitialized, "send `initialize` first")
    case .lifecycle(.shutDown):
      self.init(.invalidRequest, "the server is shut down; only `exit` is accepted")
    case .lifecycle(.initializedTwice):
      self.init(.invalidRequest, "`initialize` may only be sent once")
    case .methodNotFound(let method):
      self.init(.methodNotFound, method)
    case .notificationWithID(let method):
      self.init(
        .invalidRequest,
        "`\(method)` is a notification: send it without an id (it is never answered)"
      )
    case .params(let params):
      self.init(code: .invalidParams, message: params.description)
    case .session(let session):
      self.init(session)
    }
  }

  /// A problem in the byte stream, answered with `"id": null`; nil when the stream cannot be
  /// answered (it ended inside a message).
  init?(_ error: FrameError) {
    switch error {
    case .messageTooLarge(let size, let limit):
      let described = size.map { "of \($0) bytes" } ?? "longer than the limit"
      self.init(
        .invalidRequest,
        "message \(described) exceeds the limit of \(limit) bytes (--max-message-bytes); skipped"
      )
    case .headerTooLong(let limit):
      self.init(.parseError, "header block longer than \(limit) bytes; skipped")
    case .missingContentLength:
      self.init(.parseError, "header block without Content-Length; skipped")
    case .invalidContentLength(let value):
      self.init(.parseError, "invalid Content-Length \"\(value)\"; skipped")
    case .malformedHeader(let detail):
      self.init(
        .parseError,
        "malformed header (\(detail)); skipped to the next Content-Length header"
      )
    case .lengthMismatch(let declared, let valueEnd?):
      self.init(
        .parseError,
        "the body's JSON ends after \(valueEnd) bytes, not the \(declared) of its Content-Length; Content-Length counts the body's UTF-8 bytes, not its characters; skipped, reading on where the JSON ended"
      )
    case .lengthMismatch(let declared, nil):
      self.init(
        .parseError,
        "the body runs on past the \(declared) bytes of its Content-Length; Content-Length counts the body's UTF-8 bytes, not its characters; skipped to the next Content-Length header"
      )
    case .truncated:
      return nil
    }
  }

  /// A `code` error whose message is the code's JSON-RPC phrase ("Invalid params: "), then
  /// `detail`.
  private init(_ code: ErrorCode, _ detail: String) {
    let phrase =
      switch code {
      case .parseError: "Parse error"
      case .invalidRequest: "Invalid Request"
      case .methodNotFound: "Method not found"
      case .invalidParams: "Invalid params"
      case .serverNotInitialized: "Server not initialized"
      default: "Error"
      }
    self.init(code: code, message: "\(phrase): \(detail)")
  }

  private init(_ error: SessionError) {
    switch error {
    case .unknownSession(let kind, let id):
      self.init(code: .unknownSession, message: "No open \(kind) with id \"\(id)\"")
    case .alreadyOpen(let kind, let id):
      self.init(code: .sessionAlreadyOpen, message: "A \(kind) with id \"\(id)\" is already open")
    case .tooManySessions(let limit):
      self.init(
        code: .limitExceeded,
        message: "Too many open sessions: the limit is \(limit) (--max-sessions)"
      )
    case .fieldTooLarge(let bytes, let limit, let field):
      self.init(
        code: .limitExceeded,
        message:
          "Field \"\(field)\" would hold \(bytes) bytes of tags and draft; the limit is \(limit) (--max-field-bytes); nothing was changed"
      )
    case .indexOutOfRange(let index, let count, let field, let member):
      self.init(
        .invalidParams,
        "`\(member)` \(index) is out of range: field \"\(field)\" has \(count) tags"
      )
    case .noMatchingTag(let tag, let field):
      self.init(.invalidParams, "`tag` \"\(tag)\" matches no tag of field \"\(field)\"")
    case .staleVersion(let current, let given, let field):
      self.init(
        code: .contentModified,
        message:
          "Field \"\(field)\" is at version \(current); the changes were made against version \(given)"
      )
    case .bufferVersionNotAfter(let current, let given, let field):
      self.init(
        .invalidParams,
        "`version` \(given) is not after \(current), the last version of field \"\(field)\"'s buffer: versions must increase"
      )
    case .syncedWithBuffer(let field):
      self.init(
        .invalidParams,
        "`field` \"\(field)\" is synced with an editor buffer: send field/didChange"
      )
    case .invalidEdit(let problem, let path):
      self.init(.invalidParams, "`\(path)` \(problem.explanation)")
    case .chipCountMismatch(let sizes, let tags, let field):
      self.init(
        .invalidParams,
        "`chipSizes` has \(sizes) entries but field \"\(field)\" has \(tags) tags"
      )
    case .unknownTitle(let title, let cloud):
      self.init(code: .unknownTag, message: "Cloud \"\(cloud)\" has no tag titled \"\(title)\"")
    case .unknownSelection(let title):
      self.init(.invalidParams, "`selection` names \"\(title)\", which is not a title of the cloud")
    case .sizeCountMismatch(let sizes, let tags, let cloud):
      self.init(
        .invalidParams,
        "`sizes` has \(sizes) entries but cloud \"\(cloud)\" has \(tags) tags"
      )
    case .tooManyCloudTags(let count, let limit):
      self.init(.invalidParams, "`tags` has \(count) tags; the limit is \(limit) (--max-tags)")
    case .document(let problem):
      self.init(.invalidParams, problem.explanation)
    case .noTagAt(let position, let uri):
      self.init(
        .invalidParams,
        "there is no tag at line \(position.line), character \(position.character) (counted from 0) of \(uri)"
      )
    case .cannotRename(let problem, let note):
      self.init(.invalidParams, "in note \(note), \(problem.description); nothing was renamed")
    case .duplicateTitle(let title, let index, let first, let path):
      self.init(
        .invalidParams,
        "`\(path)[\(index)].title` \"\(title)\" repeats `\(path)[\(first)]`; titles must be unique"
      )
    }
  }
}

extension DocumentError {
  var explanation: String {
    switch self {
    case .malformed(let line, let problem): "`text` line \(line) (counted from 0): \(problem)"
    case .lineOutOfRange(let line, let count):
      "`line` \(line) is past the text's last line, \(count - 1) (lines count from 0)"
    case .notAHeading(let line): "`line` \(line) is not an Org heading (stars, then a space)"
    case .notAnOrgTag(let tag, let index):
      "`tags[\(index)]` \"\(tag)\" cannot be an Org tag: Org tags hold only letters, digits, `_`, `@`, `#` and `%`"
    case .otherFrontMatter(let found, let asked):
      "`format` is \"\(asked.rawValue)\" but the text starts with \(found == .yaml ? "YAML front matter (`---`)" : "TOML front matter (`+++`)")"
    case .keyWithoutFrontMatter(let format):
      "`key` applies only to front matter (\"yaml\", \"toml\"); the text was read as \"\(format.rawValue)\""
    }
  }
}

extension TextEditError {
  var explanation: String {
    switch self {
    case .outOfRange(let p): "position \(p.line):\(p.character) is outside the text"
    case .insideCharacter(let p): "position \(p.line):\(p.character) falls inside a character"
    case .reversedRange(let r):
      "range ends (\(r.end.line):\(r.end.character)) before it starts (\(r.start.line):\(r.start.character))"
    }
  }
}
