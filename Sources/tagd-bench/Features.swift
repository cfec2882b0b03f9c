import JSONRPC

/// The SPEC §6 figures (issue 12): suggestions over a 100,000-entry vocabulary, one keystroke
/// at a time, and undo and redo of a 100,000-tag paste.
///
/// Kept apart from the issue-5 figures (its own section of BENCHMARKS.md, inserted before the
/// hand-written part), so the two sets can change independently.
struct FeatureRow {
  /// What was measured.
  var name: String
  /// How many items the operation touched (entries, tags).
  var size: Int
  /// Round trip in ms (request written → reply read).
  var roundTrip: Sample
  /// Server CPU time in ms over the same window.
  var server: Sample
}

extension Bench {
  /// The vocabulary: "alpha bravo 17" style entries, three words each, all distinct.
  static func vocabulary(_ count: Int) -> [String] {
    let words = [
      "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
      "kilo", "lima", "mike", "november", "oscar", "papa",
    ]
    return (0..<count).map { n in "\(words[n % 16]) \(words[(n / 16) % 16]) \(n)" }
  }

  /// The keystrokes of the suggestion figure: each a draft followed by `field/suggest`.
  static let suggestQueries = [
    "a", "al", "alp", "alpha", "alpha b", "alpha br", "alpha bravo 1", "d", "de", "del", "delta e",
    "ec", "eg", "hg", "np", "kl", "12", "4711", "ov", "xq",
  ]

  func measureFeatures() throws(BenchError) -> [FeatureRow] {
    let entries = quick ? 10_000 : 100_000
    var rows: [FeatureRow] = []
    rows.append(contentsOf: try measureSuggestions(entries: entries))
    for size in quick ? [10_000] : [10_000, 100_000] {
      rows.append(contentsOf: try measureUndo(size: size))
    }
    rows.append(contentsOf: try measureDocuments())
    return rows
  }

  /// `field/setSuggestions` with `entries` entries, then typing: per keystroke a `field/change`
  /// and a `field/suggest` for the new draft; the figure is the `field/suggest` alone.
  private func measureSuggestions(entries: Int) throws(BenchError) -> [FeatureRow] {
    let child = try startTagd()
    defer { child.finish() }
    let vocabulary = Workloads.stringArray(Self.vocabulary(entries))
    try call(child, id: 1, method: "field/open", params: #"{"field":"s"}"#)
    var id = 10
    var builds: [Double] = []
    var buildCPU: [Double] = []
    var trips: [Double] = []
    var cpu: [Double] = []
    for run in 0...runs {
      id += 1
      let before = Procfs.cpuNanoseconds(child.pid) ?? 0
      let elapsed = try call(
        child,
        id: id,
        method: "field/setSuggestions",
        params: #"{"field":"s","suggestions":\#(vocabulary)}"#
      )
      let spent = Double((Procfs.cpuNanoseconds(child.pid) ?? 0) - before) / 1e6
      if run > 0 {
        builds.append(elapsed)
        buildCPU.append(spent)
      }
      for query in Self.suggestQueries {
        id += 1
        try call(
          child,
          id: id,
          method: "field/change",
          params: #"{"field":"s","text":"\#(query)"}"#
        )
        id += 1
        let cpuBefore = Procfs.cpuNanoseconds(child.pid) ?? 0
        let trip = try call(
          child,
          id: id,
          method: "field/suggest",
          params: #"{"field":"s","limit":10}"#
        ) { result in
          guard let items = result["items"]?.arrayValue, items.count <= 10 else {
            return "no items for \(query)"
          }
          // Every query but the last has matches in this vocabulary.
          return items.isEmpty && query != "xq" ? "no suggestions for \(query)" : nil
        }
        let used = Double((Procfs.cpuNanoseconds(child.pid) ?? 0) - cpuBefore) / 1e6
        if run > 0 {
          trips.append(trip)
          cpu.append(used)
        }
      }
    }
    return [
      FeatureRow(
        name: "`field/setSuggestions` (index built)",
        size: entries,
        roundTrip: Sample(builds),
        server: Sample(buildCPU)
      ),
      FeatureRow(
        name: "`field/suggest` per keystroke (\(Self.suggestQueries.count) queries)",
        size: entries,
        roundTrip: Sample(trips),
        server: Sample(cpu)
      ),
    ]
  }

  /// A paste of `size` tags, then `field/undo` (all removed) and `field/redo` (all back).
  private func measureUndo(size: Int) throws(BenchError) -> [FeatureRow] {
    let child = try startTagd()
    defer { child.finish() }
    let paste = #"{"field":"u","text":"\#(Workloads.tagNames(size).joined(separator: ",")),"}"#
    var id = 10
    var undoTrips: [Double] = []
    var undoCPU: [Double] = []
    var redoTrips: [Double] = []
    var redoCPU: [Double] = []
    for run in 0...runs {
      id += 1
      try call(child, id: id, method: "field/open", params: #"{"field":"u"}"#)
      id += 1
      try call(child, id: id, method: "field/change", params: paste) { result in
        Verify.count(result, "tags") == size ? nil : "the paste did not add \(size) tags"
      }
      for (method, want) in [("field/undo", 0), ("field/redo", size)] {
        id += 1
        let before = Procfs.cpuNanoseconds(child.pid) ?? 0
        let trip = try call(child, id: id, method: method, params: #"{"field":"u"}"#) { result in
          Verify.count(result, "tags") == want ? nil : "\(method) left the wrong tags"
        }
        let used = Double((Procfs.cpuNanoseconds(child.pid) ?? 0) - before) / 1e6
        guard run > 0 else { continue }
        if want == 0 {
          undoTrips.append(trip)
          undoCPU.append(used)
        } else {
          redoTrips.append(trip)
          redoCPU.append(used)
        }
      }
      id += 1
      try call(child, id: id, method: "field/close", params: #"{"field":"u"}"#)
    }
    return [
      FeatureRow(
        name: "`field/undo` of a paste",
        size: size,
        roundTrip: Sample(undoTrips),
        server: Sample(undoCPU)
      ),
      FeatureRow(
        name: "`field/redo` of a paste",
        size: size,
        roundTrip: Sample(redoTrips),
        server: Sample(redoCPU)
      ),
    ]
  }
}

enum FeatureReport {
  /// The BENCHMARKS.md section for `rows`.
  static func section(_ rows: [FeatureRow]) -> String {
    var out = """
      ## SPEC §6: suggestions, undo and documents

      Round trip and server CPU in ms, medians with min–max. A `field/suggest` row is one
      keystroke's query (the draft after a `field/change`, limit 10) against the whole
      vocabulary; its target is well under 1 ms of server time. Undo and redo of a paste should
      cost the same per tag at every size (linear, not quadratic). A `document/…` row sends the
      whole document (its size in bytes in the second column) in each request; its target is
      linear and at most 2 ms of server time for 1 MB.

      | operation | entries, tags or bytes | round trip | server CPU | CPU per entry, tag or byte |
      |---|---|---|---|---|

      """
    for row in rows {
      let perItem = row.server.median * 1e6 / Double(max(row.size, 1))
      let digits = row.name.hasPrefix("`document/") ? 2 : 0
      let perUnit =
        row.name.hasPrefix("`field/suggest`") ? "—" : "\(Format.fixed(perItem, digits)) ns"
      out +=
        "| \(row.name) | \(Format.count(row.size)) | \(Format.sample(row.roundTrip, 3, "ms")) | \(Format.sample(row.server, 3, "ms")) | \(perUnit) |\n"
    }
    return out + "\n"
  }
}
