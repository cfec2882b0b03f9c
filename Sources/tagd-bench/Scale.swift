import JSONRPC

/// One row of the cost-vs-size table.
struct ScaleRow {
  /// What was measured: paste, field layout, cloud layout.
  var kind: ScaleKind
  /// The number of tags or chips.
  var size: Int
  /// Round trip in ms (request written → reply read).
  var roundTrip: Sample
  /// Server CPU time in ms over the same window (schedstat).
  var server: Sample
}

/// The three operations whose cost must grow linearly.
enum ScaleKind: String, CaseIterable {
  case paste = "paste into `field/change`"
  case fieldLayout = "`field/layout`"
  case cloudLayout = "`cloud/layout` with merge groups"
}

extension Bench {
  /// The sizes of the scaling table.
  var scaleSizes: [Int] { quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000] }

  /// Measures one operation at one size in a fresh tagd: one warm-up, then `runs` runs.
  func measureScale(_ kind: ScaleKind, size: Int) throws(BenchError) -> ScaleRow {
    let child = try startTagd()
    defer { child.finish() }
    let names = Workloads.tagNames(size)
    var id = 10
    let method: String
    let params: String
    let check: (JSONValue) -> String?
    switch kind {
    case .paste:
      method = "field/change"
      params = #"{"field":"p","text":"\#(names.joined(separator: ",")),"}"#
      check = { result in
        Verify.count(result, "tags") == size
          && Verify.count(result["outcome"] ?? .null, "added") == size
          ? nil : "the paste did not add \(size) tags"
      }
    case .fieldLayout:
      try call(
        child,
        id: 1,
        method: "field/open",
        params: #"{"field":"p","tags":\#(Workloads.stringArray(names))}"#
      ) { Verify.count($0, "tags") == size ? nil : "field/open did not add \(size) tags" }
      method = "field/layout"
      params = #"{"field":"p","width":800,"fieldHeight":20,"chipSizes":\#(Workloads.sizes(size))}"#
      check = { result in (Verify.count(result, "frames") ?? 0) >= size ? nil : "too few frames" }
    case .cloudLayout:
      try call(
        child,
        id: 1,
        method: "cloud/open",
        params: #"{"cloud":"c","tags":\#(Workloads.cloudTags(size))}"#
      ) { Verify.count($0, "tags") == size ? nil : "cloud/open did not keep \(size) tags" }
      method = "cloud/layout"
      params =
        #"{"cloud":"c","width":800,"sizes":\#(Workloads.sizes(size)),"transition":{"from":3,"to":18,"progress":0.5}}"#
      check = { result in
        guard Verify.count(result, "frames") == size, let groups = result["groups"]?.arrayValue
        else { return "wrong frames or no groups" }
        let grouped = groups.reduce(0) { $0 + ($1.arrayValue?.count ?? 0) }
        return grouped == size ? nil : "groups cover \(grouped) of \(size) tags"
      }
    }
    var roundTrips: [Double] = []
    var server: [Double] = []
    for run in 0...runs {
      if kind == .paste {
        id += 1
        try call(child, id: id, method: "field/open", params: #"{"field":"p"}"#)
      }
      id += 1
      let cpuBefore = Procfs.cpuNanoseconds(child.pid) ?? 0
      let elapsed = try call(child, id: id, method: method, params: params, check: check)
      let cpu = Double((Procfs.cpuNanoseconds(child.pid) ?? 0) - cpuBefore) / 1e6
      if kind == .paste {
        id += 1
        try call(child, id: id, method: "field/close", params: #"{"field":"p"}"#)
      }
      guard run > 0 else { continue }
      roundTrips.append(elapsed)
      server.append(cpu)
    }
    return ScaleRow(kind: kind, size: size, roundTrip: Sample(roundTrips), server: Sample(server))
  }
}
