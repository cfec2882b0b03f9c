import TagCore
import TagTestSupport
import Testing

/// What tagd writes is read back by independent parsers.
///
/// PyYAML (YAML 1.1), ruamel.yaml (YAML 1.2) and Python's tomllib, in Debian's
/// `/usr/bin/python3`, read all documents of a run in one process. Skipped, with the reason
/// shown, when those modules are missing.
@Suite struct DocumentRoundTripTests {
  static let python = "/usr/bin/python3"

  /// Why the parsers cannot run here; nil when they can.
  static let unavailable: String? = {
    guard
      let child = try? ChildProcess(
        path: python,
        arguments: ["-c", "import yaml, ruamel.yaml, tomllib"]
      )
    else { return "\(python) cannot be started" }
    guard child.finish() == 0 else {
      return
        "\(python) lacks yaml, ruamel.yaml or tomllib (Debian: python3-yaml python3-ruamel.yaml)"
    }
    return nil
  }()

  /// Reads each JSON line {format, key, text, expected} and prints `ok`, or what differed.
  static let checker = #"""
    import json, re, sys, tomllib, yaml
    from ruamel.yaml import YAML
    ruamel = YAML(typ="safe", pure=True)
    def front(text, fence):
        if text.startswith("\ufeff"): text = text[1:]
        parts = re.split(r"(\r\n|\r|\n)", text)
        lines = parts[0::2]
        ends = ("---", "...") if fence == "---" else ("+++",)
        if lines[0].rstrip(" \t") != fence: return None  # no front matter: no tags
        for i in range(1, len(lines)):
            if lines[i].rstrip(" \t") in ends:
                return "\n".join(lines[1:i]) + "\n"
        raise ValueError("no closing fence")
    def tags(value):
        if value is None: return []
        if isinstance(value, str): return [value]
        return value
    for line in sys.stdin:
        doc = json.loads(line)
        results = {}
        try:
            if doc["format"] == "yaml":
                fm = front(doc["text"], "---")
                results["pyyaml"] = tags((yaml.safe_load(fm or "") or {}).get(doc["key"]))
                results["ruamel"] = tags((ruamel.load(fm or "") or {}).get(doc["key"]))
            else:
                results["tomllib"] = tags(tomllib.loads(front(doc["text"], "+++") or "").get(doc["key"]))
        except Exception as e:
            results["error"] = repr(e)
        bad = {k: v for k, v in results.items() if v != doc["expected"]}
        print("ok" if not bad else json.dumps({"text": doc["text"], "expected": doc["expected"], "got": bad}, ensure_ascii=False))
    """#

  /// Strings YAML and TOML writers must get right, and pieces for random ones.
  static let tricky = [
    "yes", "no", "on", "off", "y", "n", "Y", "N", "true", "True", "FALSE", "null", "Null", "~",
    "1.0", "0x1F", "0o17", "0b101", "1_000", ".inf", "-.inf", "+.INF", ".nan", ".NaN", "2024-01-02",
    "2024-1-2", "2024-01-02T10:00:00Z", "2024-01-02 10:00:00", "12:30", "1:2:3", "190:20:30.15",
    "a: b", "a:b", "a:", ":", "::", ":a", "#x", "a #b", "a#b", "-x", "- x", "-", "--", "---", "...",
    "[x]", "{y}", "*x", "&x", "!x", "%x", "@x", "`x`", "'q", "q'", "\"q", "q\"", "?x", "? x", "?",
    "|", ">", "|x", ">-", " lead", "trail ", " both ", "a\tb", "\tx", "line\nbreak", "cr\rx",
    "emoji😀", "😀", "中文", "", "é", "e\u{301}", "a,b", "a, b", ",", "<<", "=", "x\\y", "\\",
    "\\n", "\u{85}", "\u{2028}x", "\u{A0}x", "x\u{A0}", "\u{FEFF}x", "\u{7F}", "\u{1B}", "\u{0}",
    "\u{9F}", "plain", "two words", "project/alpha", "C++", "c#", "a'b\"c", "%", "@", "+1", "+",
    ".5", "5.", "1e3", "1E-3", "-1", "Yes", "NO", "oN", "0", "007", "1,000", "x: y: z", "~x",
    "a ~", "ok", "0.", "+0", "1__0", "0xG", "=x", "<<x", "a]", "a}", "a{b", "a[b", "}", "]",
  ]

  /// A seeded generator (SplitMix64), so a failure can be replayed.
  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  }

  static func tag(_ r: inout Random) -> String {
    switch r.below(4) {
    case 0, 1: return tricky[r.below(tricky.count)]
    case 2: return tricky[r.below(tricky.count)] + tricky[r.below(tricky.count)]
    default:
      let pieces = [
        "a", "B", " ", ":", "#", "-", "'", "\"", "\\", ",", "é", "😀", "1", ".", "\t", "\n",
      ]
      return (0..<(1 + r.below(5))).map { _ in pieces[r.below(pieces.count)] }.joined()
    }
  }

  static func tags(_ r: inout Random) -> [String] {
    (0..<r.below(6)).map { _ in tag(&r) }
  }

  /// The tags changed the way a user changes them: one added, removed or replaced, or all new.
  static func changed(_ old: [String], _ r: inout Random) -> [String] {
    var new = old
    switch r.below(4) {
    case 0: new.insert(tag(&r), at: r.below(new.count + 1))
    case 1 where !new.isEmpty: new.remove(at: r.below(new.count))
    case 2 where !new.isEmpty: new[r.below(new.count)] = tag(&r)
    default: new = tags(&r)
    }
    return new
  }

  static let yamlStarts = [
    "", "Body\n", "---\ntitle: T\ntags: [a, b]\n---\nBody\n",
    "---\ntags: [\n  a,\n  b,\n]\ntitle: T\n---\n",
    "---\ntags:\n- a\n- b\nx: 1\n---\n", "---\ntags:\n    - 'a'   # c\n    - \"b\"\n---\n",
    "---\ntags: one\n---\n", "---\ntitle: T\n---\n", "---\ntags:\n...\n", "---\ntags: []\n---\n",
    "\u{FEFF}---\r\ntitle: T\r\ntags: [a, b]\r\n---\r\nBody\r\n",
    "---\r\ntags:\r\n  - a\r\n---\r\n",
  ]
  static let tomlStarts = [
    "", "+++\ntitle = \"T\"\ntags = [\"a\", \"b\"]\n+++\n",
    "+++\ntags = [\n  'a',\n  \"b\", # c\n]\n+++\n",
    "+++\ntitle = \"T\"\n[extra]\nx = 1\n+++\n", "+++\r\ntags = []\r\n+++\r\n",
    "+++\ntags = \"one\"\n+++\n",
  ]

  static func json(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += "\\u00" + String(scalar.value, radix: 16).leftPadded(2)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  @Test(.disabled(if: unavailable != nil, Comment(rawValue: unavailable ?? "")))
  func independentParsersReadWhatTagdWrote() throws {
    var r = Random(state: 0x7A6D_2026)
    var lines: [String] = []
    for (format, starts) in [(DocumentFormat.yaml, Self.yamlStarts), (.toml, Self.tomlStarts)] {
      for start in starts {
        for _ in 0..<25 {
          var text = start
          var tags: [String] = []
          // Three changes in a row: each applies to what the previous one wrote.
          for _ in 0..<3 {
            tags = Self.changed(tags, &r)
            text = try setting(tags, in: text, format: format)
            #expect(
              try read(text, format: format) == tags,
              "tagd reads back what it wrote: \(text)"
            )
            let expected = "[" + tags.map(Self.json).joined(separator: ",") + "]"
            lines.append(
              #"{"format":"\#(format.rawValue)","key":"tags","text":\#(Self.json(text)),"expected":\#(expected)}"#
            )
          }
        }
      }
    }
    let failures = try Self.check(lines)
    #expect(
      failures.isEmpty,
      "\(failures.count) of \(lines.count) documents read differently:\n\(failures.prefix(10).joined(separator: "\n"))"
    )
  }

  /// tagd's reading of the hand-written YAML and TOML corpus is what the Python parsers read
  /// (every item there is a string for them; the non-string cases are decisions, not readings).
  @Test(.disabled(if: unavailable != nil, Comment(rawValue: unavailable ?? "")))
  func independentParsersReadTheCorpusAsTagdDoes() throws {
    var lines: [String] = []
    for c in DocumentReadTests.cases where c.format == .yaml || c.format == .toml {
      guard !c.name.contains("non-strings") else { continue }
      let tags = try read(c.text)
      let expected = "[" + tags.map(Self.json).joined(separator: ",") + "]"
      lines.append(
        #"{"format":"\#(c.format.rawValue)","key":"tags","text":\#(Self.json(c.text)),"expected":\#(expected)}"#
      )
    }
    #expect(lines.count >= 18)
    let failures = try Self.check(lines)
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  /// Runs the checker on `lines`; the lines it did not answer `ok` for.
  static func check(_ lines: [String]) throws -> [String] {
    let child = try ChildProcess(path: python, arguments: ["-c", checker])
    child.write(Array((lines.joined(separator: "\n") + "\n").utf8))
    let status = child.finish(seconds: 60)
    let stderr = String(decoding: child.stderr, as: UTF8.self)
    #expect(status == 0, "python: \(stderr)")
    let answers = child.stdout.split(separator: UInt8(ascii: "\n")).map {
      String(decoding: $0, as: UTF8.self)
    }
    #expect(answers.count == lines.count, "python answered \(answers.count) of \(lines.count)")
    return answers.filter { $0 != "ok" }
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
