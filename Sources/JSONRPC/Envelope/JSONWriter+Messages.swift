extension JSONWriter {
  /// Writes a success response `{"jsonrpc":"2.0","id":…,"result":…}`; `result` writes one value.
  public mutating func response(id: RequestID?, result: (inout JSONWriter) -> Void) {
    beginMessage(id: id)
    fragment(#","result":"#)
    result(&self)
    endObject()
  }

  /// Writes `{"jsonrpc":"2.0","id":…`, the start of a response: a writer goes on with
  /// `,"result":` and the result (a field's reply keeps them in one run), or `,"error":`, then
  /// ``endObject()``.
  public mutating func beginMessage(id: RequestID?) {
    let prefix: StaticString = #"{"jsonrpc":"2.0","id":"#
    guard FastPath.integerID.isOn, case .integer(let number)? = id else {
      fragment(prefix)
      return self.id(id)
    }
    FastPath.integerID.taken()
    let (length, out) = (prefix.utf8CodeUnitCount, reserve(prefix.utf8CodeUnitCount + 20))
    Self.copy(prefix.utf8Start, to: out, count: length)
    written += length + Self.writeDecimal(number, to: out + length)
    needsComma = true
  }

  /// Writes an error response; `id` nil is written as `"id":null`.
  public mutating func errorResponse(id: RequestID?, error: ResponseError) {
    beginMessage(id: id)
    fragment(#","error":"#)
    self.error(error)
    endObject()
  }

  /// Writes an error object `{code, message, data?}`.
  public mutating func error(_ error: ResponseError) {
    beginObject()
    key("code")
    integer(error.code.rawValue)
    key("message")
    string(error.message)
    if let data = error.data {
      key("data")
      value(data)
    }
    endObject()
  }

  /// Writes a notification; `params` writes one value.
  public mutating func notification(method: String, params: (inout JSONWriter) -> Void) {
    fragment(#"{"jsonrpc":"2.0","method":"#)
    string(method)
    fragment(#","params":"#)
    params(&self)
    endObject()
  }

  /// Writes a request id.
  public mutating func id(_ id: RequestID?) {
    switch id {
    case nil: null()
    case .integer(let number)?: integer(number)
    case .double(let number)?: double(number)
    case .string(let text)?: string(text)
    }
  }
}
