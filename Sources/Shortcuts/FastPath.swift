#if DEBUG || TAGD_SHORTCUT_SWITCHES
import Synchronization
#endif

/// The one registry of shortcuts: every case is a shortcut, in any layer, beside a general path
/// that answers alike.
///
/// Every shortcut marks itself with ``taken()``. In debug builds the marks are counted for the
/// code inside ``counting(_:)`` (that task only, so tests running side by side do not see each
/// other's counts), which lets a test fail when a shortcut stops being taken even though every
/// reply stays the same. In release builds ``taken()`` is empty.
///
/// A shortcut with a switch asks ``isOn`` before it is taken. In release builds ``isOn`` is the
/// constant `true`; in debug builds a test switches shortcuts off for its own task
/// (``switchedOff(_:_:)``), and in builds with `-DTAGD_SHORTCUT_SWITCHES` (the measuring build,
/// BENCHMARKS.md) tagd switches off the ones named in `TAGD_SHORTCUTS_OFF` at start
/// (``switchOff(named:)``).
public enum FastPath: Int, CaseIterable, Sendable {
  // MARK: Byte readers

  /// `Envelope.scanCall` classified a single call from its bytes (no `JSONValue` tree).
  case envelopeScan
  /// `FrameDecoder` recognised a plain `Content-Length: N` header block in one pass.
  case plainHeader
  /// `FrameDecoder` took a body ending in `}` right before a header's `C` (or the end of what
  /// was read) as of the right length, in line.
  case messageBodyEnd
  /// `Envelope.scanCall` matched a body's start `{"jsonrpc":"2.0"` as two words.
  case versionPrefix
  /// A params string member without escapes, copied straight from the body.
  case plainStringMember
  /// A params string member with escapes, read by the scanner.
  case scannedStringMember
  /// A string of at most fifteen plain ASCII bytes found by the scanner with one or two word
  /// loads.
  case shortScannedString
  /// A plain integer of at most 18 digits read by the scanner from its digits alone.
  case shortInteger
  /// A string in bytes already validated as JSON, delimited without validating it again.
  case trustedString
  /// A document's text decoded from validated bytes with its line starts, and no `String`.
  case decodedLines
  /// A params number member read from its bytes (digits alone by a cursor, others by the scanner).
  case numberMember
  /// A params Boolean member read by the scanner.
  case boolMember
  /// A nested params object kept as byte ranges.
  case objectMember
  /// Sizes written `{"width":W,"height":H}`, matched as fixed runs and numbers.
  case compactSizes
  /// LSP content changes in the shape editors write, matched as fixed runs, numbers and text.
  case compactContentChanges
  /// A `field/didChange` decoded in the pass that validates its body
  /// (`FieldDidChangeNotification.scan`): no member ranges, no `Params`, no second walk.
  case pulledDidChange

  // MARK: Writer shortcuts

  /// A string without escapes checked and stored a word (or two half-words) at a time.
  case shortString
  /// An integer written by digit pairs.
  case integerDigits
  /// A multiple of 1/16 written as its exact decimals.
  case sixteenths
  /// The tags' JSON text kept by the session, copied as it is.
  case keptTagsText
  /// Tags added at the end copied from the tail of that text.
  case keptTagsTail
  /// A keystroke's reply copies the session's text of its prompt, tags and `"text":` name.
  case keptStateMiddle
  /// A `TextEdit` whose range is on line 0 (a `field/didUpdate`'s), its lines written in the runs.
  case lineZeroEdit
  /// An outcome that did nothing, written as one fragment.
  case emptyOutcome
  /// A `field/change` reply written from the field's session, with no result value made.
  case stateInPlace
  /// A Content-Length header whose reserved digits were right (the body did not move).
  case headerDigitsGuessed

  // MARK: TagCore

  /// A draft typed or deleted at its end is checked for separators only where it changed
  /// (`TagField.extendsPlainDraft`), not split again whole.
  case plainDraftExtension
  /// The sync mirror tells the field its draft was typed or deleted at its end
  /// (`TagField.applyDraftEditedAtEnd`), so that ``plainDraftExtension`` compares no prefix.
  case draftEndEdit
  /// A piece of the field's text made a candidate straight from its bytes when its ends are
  /// ASCII (`FieldText.candidate`), not through `String`'s Unicode trimming and case mappings.
  case asciiCandidate
  /// A text whose ends are ASCII and not whitespace is its own trim (`FieldText.trimmed`).
  case asciiTrimmedEnds
  /// An ASCII key hashed from its bytes (`KeyIndex.hash`), without the scalar-by-scalar image.
  case asciiKeyHash
  /// An ASCII text's caseless key is its lowercase (`CaselessKey.fold`), without the Unicode
  /// case mappings.
  case asciiCaselessFold
  /// Printable ASCII is one terminal cell per byte (`DisplayWidth.cells`), without clusters.
  case printableASCIIWidth
  /// A large paste's separators counted eight bytes a step (`FieldText.Pieces.bound`) when
  /// they are at most four ASCII bytes, not looked up byte by byte.
  case wordSeparatorCount
  /// The next byte that may end a piece found eight bytes a step (`FieldText.Pieces.next`) when
  /// the separators are at most four ASCII bytes, not looked up byte by byte.
  case wordSeparatorSearch
  /// Edits to a one-line ASCII mirror checked with characters as byte offsets
  /// (`EditorBuffer.plainEditsFit`), without converting positions through `TextOffsets`.
  case plainMirrorEdits
  /// A deletion that ends the mirror's cells within its last run, not inserted (Backspace, the
  /// client applying a deletion of consumed text), made in place (`EditorBuffer.removedAtEnd`),
  /// without the general `splice` of the runs.
  case mirrorDeletionAtEnd
  /// A keystroke typed or deleted at the end of a one-line ASCII mirror with nothing pending
  /// (`EditorBuffer.keystrokeAtEnd`), without the general path's checks and loop.
  case mirrorKeystroke
  /// The client applying the deletion of a whole buffer the rule consumed
  /// (`EditorBuffer.deletedAllConsumed`), without `realize` and the general path's checks.
  case mirrorAppliedCommit

  /// A response's integer id written with the `{"jsonrpc":"2.0","id":` before it after one
  /// capacity check (`JSONWriter.beginMessage`), not as a fragment and a value.
  case integerID

  // MARK: TagServer

  /// The field a message names found where the previous lookup found it (`Server.withField`),
  /// without hashing its id: a keystroke usually names the field the last one did.
  case lastFieldLookup
  /// A keystroke's field id, when it is the one the previous message named, kept from that
  /// message (its bytes compared), not made into a new `String` (`FieldChangeRequest.decode`;
  /// `FieldDidChangeNotification.scan`, against the server's kept notification).
  case lastFieldID

  /// Marks this shortcut as taken (counted in debug builds inside ``counting(_:)``).
  @inlinable @inline(__always)
  public func taken() {
    #if DEBUG
    FastPath.count(self)
    #endif
  }

  /// Whether this shortcut may be taken: always in release builds; see the type's documentation.
  @inlinable @inline(__always)
  public var isOn: Bool {
    #if DEBUG || TAGD_SHORTCUT_SWITCHES
    FastPath.isOn(self)
    #else
    true
    #endif
  }

  #if DEBUG || TAGD_SHORTCUT_SWITCHES
  @usableFromInline
  static func isOn(_ path: FastPath) -> Bool {
    var off = switchedOff.load(ordering: .relaxed)
    #if DEBUG
    off |= offHere
    #endif
    return off & (1 << path.rawValue) == 0
  }

  /// The shortcuts switched off for the whole process, a bit per case.
  private static let switchedOff = Atomic<UInt64>(0)

  /// Switches off, for the whole process, the shortcuts named in `list` (case names separated
  /// by commas); returns the first name that is no case (nothing is then switched off).
  public static func switchOff(named list: String) -> Substring? {
    var bits: UInt64 = 0
    for name in list.split(separator: ",") {
      guard let path = allCases.first(where: { "\($0)" == name }) else { return name }
      bits |= 1 << path.rawValue
    }
    switchedOff.bitwiseOr(bits, ordering: .relaxed)
    return nil
  }
  #endif

  #if DEBUG
  @usableFromInline
  static func count(_ path: FastPath) { counts?.add(path) }

  /// The counts of the ``counting(_:)`` scope this task is in, if any.
  @TaskLocal private static var counts: Counts?

  /// The shortcuts ``switchedOff(_:_:)`` switched off for this task, a bit per case.
  @TaskLocal private static var offHere: UInt64 = 0

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

  /// Runs `body` with `path` switched off on this task (debug builds only): where the shortcut
  /// has a switch, the general path beside it answers instead.
  public static func switchedOff<T>(_ path: FastPath, _ body: () throws -> T) rethrows -> T {
    try $offHere.withValue(offHere | 1 << path.rawValue) { try body() }
  }
  #endif
}
