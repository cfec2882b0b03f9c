import JSONRPC
import TagCore
import TagProtocol

/// Why a well-formed request could not be carried out on the sessions.
enum SessionError: Error, Hashable {
  case unknownSession(kind: String, id: String)
  case alreadyOpen(kind: String, id: String)
  case tooManySessions(limit: Int)
  case fieldTooLarge(bytes: Int, limit: Int, field: String)
  case indexOutOfRange(index: Int, count: Int, field: String)
  case noMatchingTag(String, field: String)
  case staleVersion(current: Int, given: Int, field: String)
  case invalidEdit(TextEditError, path: String)
  case chipCountMismatch(sizes: Int, tags: Int, field: String)
  case unknownTitle(String, cloud: String)
  case duplicateTitle(String, index: Int, first: Int, path: String)
}

/// Everything a request handler can fail with.
enum RequestError: Error, Hashable {
  case params(ParamsError)
  case session(SessionError)
}

extension ResponseError {
  /// The one place where tagd's errors become JSON-RPC codes and messages.
  init(_ error: RequestError) {
    switch error {
    case .params(let params):
      self.init(code: .invalidParams, message: params.description)
    case .session(let session):
      self.init(session)
    }
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
    case .indexOutOfRange(let index, let count, let field):
      self.init(
        code: .invalidParams,
        message:
          "Invalid params: `index` \(index) is out of range: field \"\(field)\" has \(count) tags"
      )
    case .noMatchingTag(let tag, let field):
      self.init(
        code: .invalidParams,
        message: "Invalid params: `tag` \"\(tag)\" matches no tag of field \"\(field)\""
      )
    case .staleVersion(let current, let given, let field):
      self.init(
        code: .contentModified,
        message:
          "Field \"\(field)\" is at version \(current); the changes were made against version \(given)"
      )
    case .invalidEdit(let problem, let path):
      self.init(code: .invalidParams, message: "Invalid params: `\(path)` \(problem.explanation)")
    case .chipCountMismatch(let sizes, let tags, let field):
      self.init(
        code: .invalidParams,
        message:
          "Invalid params: `chipSizes` has \(sizes) entries but field \"\(field)\" has \(tags) tags"
      )
    case .unknownTitle(let title, let cloud):
      self.init(code: .unknownTag, message: "Cloud \"\(cloud)\" has no tag titled \"\(title)\"")
    case .duplicateTitle(let title, let index, let first, let path):
      self.init(
        code: .invalidParams,
        message:
          "Invalid params: `\(path)[\(index)].title` \"\(title)\" repeats `\(path)[\(first)]`; titles must be unique"
      )
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
