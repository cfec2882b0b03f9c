public import JSONRPC

/// Every request tagd answers, decoded once at the edge into a typed case.
public enum ClientRequest: Sendable {
  case initialize(InitializeRequest)
  case shutdown(ShutdownRequest)
  case fieldOpen(FieldOpenRequest)
  case fieldChange(FieldChangeRequest)
  case fieldSubmit(FieldSubmitRequest)
  case fieldDeleteBackward(FieldDeleteBackwardRequest)
  case fieldAddTags(FieldAddTagsRequest)
  case fieldRemoveTag(FieldRemoveTagRequest)
  case fieldState(FieldStateRequest)
  case fieldLayout(FieldLayoutRequest)
  case fieldClose(FieldCloseRequest)
  case cloudOpen(CloudOpenRequest)
  case cloudToggle(CloudToggleRequest)
  case cloudSelect(CloudSelectRequest)
  case cloudSetTags(CloudSetTagsRequest)
  case cloudState(CloudStateRequest)
  case cloudLayout(CloudLayoutRequest)
  case cloudClose(CloudCloseRequest)
}

/// Every notification tagd acts on, decoded once at the edge into a typed case.
public enum ClientNotification: Hashable, Sendable {
  case initialized(InitializedNotification)
  case exit(ExitNotification)
  case cancelRequest(CancelRequestNotification)
  case setTrace(SetTraceNotification)
  case fieldDidChange(FieldDidChangeNotification)
}

/// The one map from method strings to message types.
public enum MessageRegistry {
  typealias Decoder<T> = @Sendable (Params) throws(ParamsError) -> T

  static let requests: [String: Decoder<ClientRequest>] = [
    InitializeRequest.method: { p throws(ParamsError) in .initialize(try .init(params: p)) },
    ShutdownRequest.method: { p throws(ParamsError) in .shutdown(try .init(params: p)) },
    FieldOpenRequest.method: { p throws(ParamsError) in .fieldOpen(try .init(params: p)) },
    FieldChangeRequest.method: { p throws(ParamsError) in .fieldChange(try .init(params: p)) },
    FieldSubmitRequest.method: { p throws(ParamsError) in .fieldSubmit(try .init(params: p)) },
    FieldDeleteBackwardRequest.method: { p throws(ParamsError) in
      .fieldDeleteBackward(try .init(params: p))
    },
    FieldAddTagsRequest.method: { p throws(ParamsError) in .fieldAddTags(try .init(params: p)) },
    FieldRemoveTagRequest.method: { p throws(ParamsError) in .fieldRemoveTag(try .init(params: p))
    },
    FieldStateRequest.method: { p throws(ParamsError) in .fieldState(try .init(params: p)) },
    FieldLayoutRequest.method: { p throws(ParamsError) in .fieldLayout(try .init(params: p)) },
    FieldCloseRequest.method: { p throws(ParamsError) in .fieldClose(try .init(params: p)) },
    CloudOpenRequest.method: { p throws(ParamsError) in .cloudOpen(try .init(params: p)) },
    CloudToggleRequest.method: { p throws(ParamsError) in .cloudToggle(try .init(params: p)) },
    CloudSelectRequest.method: { p throws(ParamsError) in .cloudSelect(try .init(params: p)) },
    CloudSetTagsRequest.method: { p throws(ParamsError) in .cloudSetTags(try .init(params: p)) },
    CloudStateRequest.method: { p throws(ParamsError) in .cloudState(try .init(params: p)) },
    CloudLayoutRequest.method: { p throws(ParamsError) in .cloudLayout(try .init(params: p)) },
    CloudCloseRequest.method: { p throws(ParamsError) in .cloudClose(try .init(params: p)) },
  ]

  static let notifications: [String: Decoder<ClientNotification>] = [
    InitializedNotification.method: { p throws(ParamsError) in .initialized(try .init(params: p)) },
    ExitNotification.method: { p throws(ParamsError) in .exit(try .init(params: p)) },
    CancelRequestNotification.method: { p throws(ParamsError) in
      .cancelRequest(try .init(params: p))
    },
    SetTraceNotification.method: { p throws(ParamsError) in .setTrace(try .init(params: p)) },
    FieldDidChangeNotification.method: { p throws(ParamsError) in
      .fieldDidChange(try .init(params: p))
    },
  ]

  /// All request method names, sorted (for `initialize`'s capabilities).
  public static var requestMethods: [String] { requests.keys.sorted() }
  /// All notification method names, sorted.
  public static var notificationMethods: [String] { notifications.keys.sorted() }

  /// Decodes a request: nil when the method is unknown.
  public static func request(
    method: String,
    params: JSONValue?
  ) -> Result<ClientRequest, ParamsError>? {
    guard let decode = requests[method] else { return nil }
    do throws(ParamsError) {
      return .success(try decode(try Params(params)))
    } catch {
      return .failure(error)
    }
  }

  /// Decodes a notification: nil when the method is unknown.
  public static func notification(
    method: String,
    params: JSONValue?
  ) -> Result<ClientNotification, ParamsError>? {
    guard let decode = notifications[method] else { return nil }
    do throws(ParamsError) {
      return .success(try decode(try Params(params)))
    } catch {
      return .failure(error)
    }
  }
}
