import JSONRPC

/// The SPEC §6b figures: reading and setting the tags of a large document, whose whole text
/// travels in each request (issue 19: linear, at most 2 ms of server time for 1 MB).
extension Bench {
  /// A document of about `bytes` bytes as a JSON string: YAML front matter with three tags,
  /// then Markdown lines (with accents and emoji), and an Org heading with tags on its last
  /// line; with that line's number.
  static func document(bytes: Int) -> (json: String, lastLine: Int) {
    var text = #"---\ntitle: \"Bench\"\ntags: [alpha, 'beta', gamma]\n---\n"#
    let line = #"Lorem ipsum dolor sit amet, café 😀 — a line of the body, \"quoted\".\n"#
    text.reserveCapacity(bytes + 200)
    var lines = 4
    while text.utf8.count < bytes {
      text += line
      lines += 1
    }
    text += "* TODO The last heading                                                :a:b:"
    return ("\"" + text + "\"", lines)
  }

  func measureDocuments() throws(BenchError) -> [FeatureRow] {
    var rows: [FeatureRow] = []
    for bytes in quick ? [100_000] : [100_000, 1_000_000] {
      let (text, last) = Self.document(bytes: bytes)
      let cases: [(name: String, method: String, params: String, check: (JSONValue) -> String?)] = [
        (
          "`document/tags`, YAML front matter", "document/tags", #"{"text":\#(text)}"#,
          { $0["tags"]?.arrayValue?.count == 3 ? nil : "not the three tags" }
        ),
        (
          "`document/setTags`, YAML front matter (one added)", "document/setTags",
          #"{"text":\#(text),"tags":["alpha","beta","gamma","delta"]}"#,
          { $0["edits"]?.arrayValue?.count == 1 ? nil : "not one edit" }
        ),
        (
          "`document/tags`, Org heading on the last line", "document/tags",
          #"{"text":\#(text),"line":\#(last)}"#,
          { $0["tags"]?.arrayValue?.count == 2 ? nil : "not the heading's two tags" }
        ),
        (
          "`document/setTags`, Org heading on the last line", "document/setTags",
          #"{"text":\#(text),"line":\#(last),"tags":["a","b","c"]}"#,
          { $0["edits"]?.arrayValue?.count == 1 ? nil : "not one edit" }
        ),
      ]
      let child = try startTagd()
      defer { child.finish() }
      var id = 10
      for c in cases {
        var trips: [Double] = []
        var cpu: [Double] = []
        for run in 0...(runs * 4) {
          id += 1
          let before = Procfs.cpuNanoseconds(child.pid) ?? 0
          let trip = try call(child, id: id, method: c.method, params: c.params, check: c.check)
          let used = Double((Procfs.cpuNanoseconds(child.pid) ?? 0) - before) / 1e6
          guard run > 0 else { continue }
          trips.append(trip)
          cpu.append(used)
        }
        rows.append(
          FeatureRow(name: c.name, size: bytes, roundTrip: Sample(trips), server: Sample(cpu))
        )
      }
    }
    return rows
  }
}
