import JSONRPC
import Synchronization

/// Which members of each params object one decoding read: strict params by use.
///
/// A params type declares its members once, by reading them in `init(params:)`; a member that
/// `init` never asks for is unknown and refused with -32602 naming it and, when one is close,
/// the name it was probably meant to be (`did you mean "tags"?`): a typo never becomes a silent
/// default. An object can be opened to any member (LSP's `initialize` and its `capabilities`,
/// which grow with every LSP version) with ``Params/acceptAnyMember()``.
///
/// The usual decoding is one pass that marks each member it reads. Only when that pass fails
/// or leaves a member unread does a second, **diagnosing** pass run the same `init` again: its
/// accessors never throw (a bad value is noted and a neutral one returned, so `init` goes on to
/// ask for every name it knows), and it records the names asked of each object. The answer is
/// then what checking each object's members when it is opened would give: the first object,
/// in the order they were opened before the first bad value, with a member nobody asked for
/// names that member; otherwise the first pass's own result or error stands.
///
/// The server keeps one for its first passes and lends it with each message's params
/// (``ParamsSource/bytes(_:_:reusing:)``), so that decoding a keystroke allocates no object; a
/// decoding that finds it in use (or has none) makes its own. Sendable because only the one
/// decoding that took it (an atomic exchange) touches its other state.
public final class ParamsUse: @unchecked Sendable {
  /// What the first pass keeps of one opened object: which members were read.
  struct Reads {
    /// Bit `i` set: member `i` was read (members past 64 are never marked: they send the
    /// decoding to the diagnosing pass, which compares names).
    var read: UInt64 = 0
    /// The bits of every member; nil when there are more than 64 (never all read).
    let all: UInt64?
    /// Any member is accepted.
    var open = false

    init(members count: Int) {
      all = count > 64 ? nil : count == 64 ? ~0 : (1 << UInt64(count)) - 1
    }

    /// Every member was read, or any is accepted.
    var done: Bool { open || read == all }
  }

  /// What the diagnosing pass keeps of one opened object.
  struct Record {
    var bytes: ParamsObject
    var at: ParamsPath
    /// The names asked of this object, in the order first asked.
    var asked: [String] = []
  }

  /// Whether this is the diagnosing pass.
  let diagnosing: Bool
  /// Whether a decoding is using it.
  private let busy = Atomic(false)
  /// The root object's reads, kept apart so that a flat request allocates no array.
  private var root = Reads(members: 0)
  private var nested: [Reads] = []
  private var count = 0
  private var records: [Record] = []
  /// How many objects were open at the first bad value of the diagnosing pass.
  private var openAtFirstRefusal: Int?

  init(diagnosing: Bool) {
    self.diagnosing = diagnosing
  }

  /// One to lend to first passes, one after another.
  public convenience init() {
    self.init(diagnosing: false)
  }

  /// Takes this first-pass record for one decoding, emptied; false when a decoding has it.
  func take() -> Bool {
    guard !diagnosing, !busy.exchange(true, ordering: .acquiring) else { return false }
    root = Reads(members: 0)
    // Only a decoding that opened a nested object left any (a flat one touches no array).
    if count > 1 { nested.removeAll(keepingCapacity: true) }
    count = 0
    return true
  }

  /// Gives it back after the decoding.
  func giveBack() {
    busy.store(false, ordering: .releasing)
  }

  /// Registers an object; returns its slot.
  func open(_ bytes: ParamsObject, at: ParamsPath) -> Int {
    let reads = Reads(members: bytes.count)
    if count == 0 { root = reads } else { nested.append(reads) }
    if diagnosing { records.append(Record(bytes: bytes, at: at)) }
    count += 1
    return count - 1
  }

  /// Notes that member `index` of object `slot` was read.
  @inline(__always)
  func read(_ index: Int, of slot: Int) {
    guard index < 64 else { return }
    if slot == 0 {
      root.read |= 1 << UInt64(index)
    } else {
      nested[slot - 1].read |= 1 << UInt64(index)
    }
  }

  /// Notes that `key` was asked of object `slot` (diagnosing pass).
  func asked(_ key: String, of slot: Int) {
    if !records[slot].asked.contains(key) { records[slot].asked.append(key) }
  }

  /// Object `slot` accepts any member.
  func acceptAnyMember(_ slot: Int) {
    if slot == 0 { root.open = true } else { nested[slot - 1].open = true }
  }

  /// Throws `error` on the first pass; on the diagnosing pass notes where the first bad value
  /// was and returns, for the caller to go on with a neutral value.
  func refuse(_ error: ParamsError) throws(ParamsError) {
    guard diagnosing else { throw error }
    if openAtFirstRefusal == nil { openAtFirstRefusal = count }
  }

  /// Whether every member of every object was read (or accepted).
  var readEveryMember: Bool {
    guard count == 0 || root.done else { return false }
    guard count > 1 else { return true }
    let nested = self.nested
    for reads in nested where !reads.done { return false }
    return true
  }

  /// The unknown-member error the diagnosing pass found, if any.
  func unknownMember() -> ParamsError? {
    for (slot, record) in records.enumerated().prefix(openAtFirstRefusal ?? records.count) {
      let open = slot == 0 ? root.open : nested[slot - 1].open
      if open { continue }
      for index in 0..<record.bytes.count {
        let key = record.bytes.key(at: index)
        if !record.asked.contains(key) {
          return unknown(key, at: record.at.text, known: record.asked)
        }
      }
    }
    return nil
  }
}

extension Params {
  /// Runs `read` (a type's `init(params:)`, keeping its value) on the params in `source`,
  /// refusing every member `read` never asked for.
  @usableFromInline
  static func decode(
    _ source: ParamsSource,
    _ read: (Params) throws(ParamsError) -> Void
  ) throws(ParamsError) {
    let root = try ParamsObject.root(source)
    let use: ParamsUse
    if case .bytes(_, _, let lent?) = source, lent.take() {
      FastPath.lentParamsUse.taken()
      use = lent
    } else {
      use = ParamsUse(diagnosing: false)
    }
    defer { use.giveBack() }
    do throws(ParamsError) {
      try read(Params(root, use: use))
    } catch {
      try diagnose(root, read)
      throw error
    }
    if !use.readEveryMember { try diagnose(root, read) }
  }

  /// Runs `read` again on a diagnosing pass; throws the unknown-member error it finds.
  static func diagnose(
    _ root: ParamsObject,
    _ read: (Params) throws(ParamsError) -> Void
  ) throws(ParamsError) {
    let diagnosis = ParamsUse(diagnosing: true)
    try? read(Params(root, use: diagnosis))
    if let unknown = diagnosis.unknownMember() { throw unknown }
  }
}

/// The error for an unknown member `key` of the object at `path` whose known members are
/// `known`.
func unknown(_ key: String, at path: String, known: [String]) -> ParamsError {
  let full = path.isEmpty ? key : "\(path).\(key)"
  var problem = "is not a known member"
  if let near = nearest(to: key, among: known) {
    problem += "; did you mean \"\(near)\"?"
  } else if !known.isEmpty {
    problem += " (known: \(known.map { "`\($0)`" }.joined(separator: ", ")))"
  }
  return ParamsError(path: full, problem: problem)
}

/// The known name closest to `key`: equal ignoring ASCII case, or at most two edits away
/// (one for short names).
func nearest(to key: String, among names: [String]) -> String? {
  let folded = key.lowercased()
  if let same = names.first(where: { $0.lowercased() == folded }) { return same }
  var best: (name: String, distance: Int)?
  for name in names {
    let distance = editDistance(
      Array(folded.unicodeScalars),
      Array(name.lowercased().unicodeScalars)
    )
    let allowed = name.count <= 4 ? 1 : 2
    if distance <= allowed, distance < (best?.distance ?? .max) { best = (name, distance) }
  }
  return best?.name
}

/// Levenshtein distance (insertions, deletions, substitutions and adjacent transpositions).
func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var previous2 = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let cost = a[i - 1] == b[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        current[j] = min(current[j], previous2[j - 2] + 1)
      }
    }
    (previous2, previous, current) = (previous, current, previous2)
  }
  return previous[b.count]
}
