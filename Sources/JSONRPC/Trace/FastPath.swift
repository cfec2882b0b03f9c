#if DEBUG
import Synchronization
#endif

/// The shortcuts that serve common messages, each beside a general path that answers alike.
///
/// Every shortcut marks itself with ``taken()``. In debug builds the marks are counted for the
/// code inside ``counting(_:)`` (that task only, so tests running side by side do not see each
/// other's counts), which lets a test fail when a shortcut stops being taken even though every
/// reply stays the same. In release builds ``taken()`` is empty.
public enum FastPath: Int, CaseIterable, Sendable {
  // MARK: Byte readers

  /// `Envelope.scanCall` classified a single call from its bytes (no `JSONValue` tree).
  case envelopeScan
  /// `FrameDecoder` recognised a plain `Content-Length: N` header block in one pass.
  case plainHeader
  /// A params string member without escapes, copied straight from the body.
  case plainStringMember
  /// A params string member with escapes, read by the scanner.
  case scannedStringMember
  /// A string in bytes already validated as JSON, delimited without validating it again.
  case trustedString
  /// A document's text decoded from validated bytes with its line starts, and no `String`.
  case decodedLines
  /// A params number member read by the scanner.
  case numberMember
  /// A params Boolean member read by the scanner.
  case boolMember
  /// A nested params object kept as byte ranges.
  case objectMember
  /// Sizes written `{"width":W,"height":H}`, matched as fixed runs and numbers.
  case compactSizes
  /// Sizes in any other spelling, read by the scanner without a tree.
  case scannedSizes
  /// LSP content changes in the shape editors write, matched as fixed runs, numbers and text.
  case compactContentChanges
  /// LSP content changes in any other spelling, read by the scanner without a tree.
  case contentChanges
  /// Params decoded with the server's record of members read (no object allocated per decode).
  case lentParamsUse

  // MARK: Writer shortcuts

  /// A short string stored a word (or two half-words) at a time.
  case shortString
  /// An integer written by digit pairs.
  case integerDigits
  /// A multiple of 1/16 written as its exact decimals.
  case sixteenths
  /// Another double written by the exact shortest-digit search.
  case shortestDigits
  /// The tags' JSON text kept by the session, copied as it is.
  case keptTagsText
  /// Tags added at the end copied from the tail of that text.
  case keptTagsTail
  /// An outcome that did nothing, written as one fragment.
  case emptyOutcome
  /// A `field/change` reply written from the field's session, with no result value made.
  case stateInPlace
  /// A Content-Length header whose reserved digits were right (the body did not move).
  case headerDigitsGuessed

  /// Marks this shortcut as taken (counted in debug builds inside ``counting(_:)``).
  @inlinable @inline(__always)
  public func taken() {
    #if DEBUG
    FastPath.count(self)
    #endif
  }

  #if DEBUG
  @usableFromInline
  static func count(_ path: FastPath) { counts?.add(path) }

  /// The counts of the ``counting(_:)`` scope this task is in, if any.
  @TaskLocal private static var counts: Counts?

  /// Counts per shortcut, safe to share between the threads of one scope.
  private final class Counts: Sendable {
    let values = Mutex([Int](repeating: 0, count: FastPath.allCases.count))

    func add(_ path: FastPath) {
      values.withLock { $0[path.rawValue] += 1 }
    }
  }

  /// Runs `body` and returns how many times each shortcut was taken while it ran on this task
  /// (debug builds only).
  public static func counting(_ body: () throws -> Void) rethrows -> [FastPath: Int] {
    let counts = Counts()
    try $counts.withValue(counts) { try body() }
    let values = counts.values.withLock { $0 }
    var result: [FastPath: Int] = [:]
    for path in allCases where values[path.rawValue] > 0 { result[path] = values[path.rawValue] }
    return result
  }
  #endif
}
