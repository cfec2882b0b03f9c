import TagTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `tagd rename` on real folders: what it writes reads back in the notes' own parsers, every
/// other byte is kept, and no note is ever half-written or written over a change.
@Suite struct VaultRenameTests {
  static let python = "/usr/bin/python3"
  static let hostile = packageRoot() + "/Tests/vault/hostile.py"

  /// Why the hostile-vault checks cannot run here; nil when they can.
  static let unavailable: String? = {
    guard
      let child = try? ChildProcess(
        path: python,
        arguments: ["-c", "import yaml, ruamel.yaml, tomllib"]
      ),
      child.finish() == 0
    else {
      return
        "\(python) lacks yaml, ruamel.yaml or tomllib (Debian: python3-yaml python3-ruamel.yaml)"
    }
    guard let emacs = try? ChildProcess(path: "/usr/bin/emacs", arguments: ["--batch", "-Q"]),
      emacs.finish() == 0
    else { return "/usr/bin/emacs cannot run (Debian: emacs-nox)" }
    return nil
  }()

  /// Runs `hostile.py` with `arguments`; returns its status and output.
  static func script(_ arguments: [String]) throws -> (status: Int32?, output: String) {
    let child = try ChildProcess(path: python, arguments: [hostile] + arguments)
    let status = child.finish(seconds: 120)
    return (status, String(decoding: child.stdout + child.stderr, as: UTF8.self))
  }

  /// Renames tried on the hostile vault: (from, to, accepted); a refused one has a note that
  /// cannot hold the new tag (an Org note: `.`, space, `:`, `-`, `/`).
  static let renames: [(String, String, Bool)] = [
    ("work", "yes", true), ("café", "naïve", true), ("a", "x", true), ("-x", "#x", true),
    ("1.0", "say 'hi'", true), ("yes", "null", true), ("a/b", "q", true), ("it's", "a: b", true),
    ("null", "1.0", false), ("work", "a: b", false), ("work", "-lead", false),
    ("WORK", "a/b", false),
  ]

  /// Each rename on a fresh hostile vault: accepted ones must read back right with every other
  /// byte kept; refused ones must leave every note as it was (checked in one Python run, one
  /// Emacs).
  @Test(.disabled(if: unavailable != nil, Comment(rawValue: unavailable ?? "")))
  func hostileVaultRenames() throws {
    let folder = TemporaryFolder("tagd-hostile")
    let vaults = Self.renames.indices.map { folder.path("v\($0)") }
    let generated = try Self.script(["generate"] + vaults)
    #expect(generated.status == 0, "\(generated.output)")
    var cases: [String] = []
    for ((from, to, accepted), vault) in zip(Self.renames, vaults) {
      let result = try runTagd(["rename", "--", from, to, vault])
      if accepted {
        #expect(result.status == 0, "\(from) -> \(to): \(result.stderr)")
      } else {
        #expect(result.status == 1, "\(from) -> \(to)")
        #expect(result.stderr.contains("cannot be written"), "\(from) -> \(to)")
        #expect(result.stderr.hasSuffix("tagd rename: nothing written\n"))
      }
      cases.append(
        #"{"dir":"\#(vault)","from":\#(json(from)),"to":\#(json(to)),"accepted":\#(accepted)}"#
      )
    }
    folder.write("cases.json", "[" + cases.joined(separator: ",") + "]")
    let check = try Self.script(["verify-all", folder.path("cases.json")])
    #expect(check.output == "ok\n")
    #expect(check.status == 0)
  }

  /// `text` as a JSON string (the tags here need only quotes and backslashes escaped).
  func json(_ text: String) -> String {
    "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
  }

  /// Every file of `folder` (dot files aside) and its bytes.
  static func contents(_ folder: String, _ relative: String = "") -> [String: [UInt8]] {
    var result: [String: [UInt8]] = [:]
    for name in Files.list(folder + relative) where !name.hasPrefix(".") {
      let path = relative + "/" + name
      var status = stat()
      lstat(folder + path, &status)
      if status.st_mode & S_IFMT == S_IFDIR {
        result.merge(contents(folder, path)) { a, _ in a }
      } else {
        result[path] = Files.read(folder + path)
      }
    }
    return result
  }

  @Test(.disabled(if: unavailable != nil, Comment(rawValue: unavailable ?? "")))
  func dryRunPrintsADiffThatPatchTurnsIntoTheRename() throws {
    let folder = TemporaryFolder("tagd-diff")
    _ = try Self.script(["generate", folder.path("renamed")])
    _ = try Self.script(["generate", folder.path("patched")])
    let before = Self.contents(folder.path("patched"))
    let dry = try runTagd(["rename", "work", "yes", folder.path("patched"), "--dry-run"])
    #expect(dry.status == 0)
    #expect(dry.stdout.hasPrefix("--- a/"))
    #expect(Self.contents(folder.path("patched")) == before, "--dry-run wrote")
    folder.write("work.diff", dry.stdout)
    let patch = try ChildProcess(
      path: "/usr/bin/patch",
      arguments: ["-s", "-p1", "-d", folder.path("patched"), "-i", folder.path("work.diff")]
    )
    #expect(patch.finish() == 0, "\(String(decoding: patch.stdout + patch.stderr, as: UTF8.self))")
    #expect(try runTagd(["rename", "work", "yes", folder.path("renamed")]).status == 0)
    let renamed = Self.contents(folder.path("renamed"))
    #expect(renamed != before)
    #expect(Self.contents(folder.path("patched")) == renamed)
  }

  @Test func aNoteChangedOnDiskAfterItWasReadIsNotOverwritten() throws {
    let vault = TemporaryFolder("tagd-race")
    vault.write("a.md", "---\ntags: [work]\n---\n")
    vault.write("b.md", "---\ntags: [work]\n---\n")
    vault.write("c.md", "---\ntags: [work]\n---\n")
    let fifo = vault.path(".pause")
    #expect(mkfifo(fifo, 0o600) == 0)
    let child = try ChildProcess(
      path: "/usr/bin/env",
      arguments: [
        "TAGD_TEST_PAUSE_BEFORE_WRITE=" + fifo, tagdPath(), "rename", "work", "job", vault.path,
      ]
    )
    // tagd names each note it is about to write, then waits for `FIFO.go`; b.md is changed
    // meanwhile.
    var named: [String] = []
    for _ in 0..<3 {
      let reader = open(fifo, O_RDONLY)
      var line: [UInt8] = []
      var byte: UInt8 = 0
      while read(reader, &byte, 1) == 1 { line.append(byte) }
      close(reader)
      let path = String(decoding: line, as: UTF8.self).trimmingSuffix("\n")
      named.append(path)
      if path == vault.path("b.md") { vault.write("b.md", "---\ntags: [work, mine]\n---\n") }
      close(creat(fifo + ".go", 0o600))
    }
    let status = child.finish()
    #expect(named == ["a.md", "b.md", "c.md"].map(vault.path))
    #expect(status == 1)
    let stderr = String(decoding: child.stderr, as: UTF8.self)
    #expect(stderr.contains("b.md changed on disk since it was read; not written"))
    #expect(Files.read(vault.path("b.md")) == Array("---\ntags: [work, mine]\n---\n".utf8))
    #expect(Files.read(vault.path("a.md")) == Array("---\ntags: [job]\n---\n".utf8))
    #expect(Files.read(vault.path("c.md")) == Array("---\ntags: [job]\n---\n".utf8))
    #expect(
      String(decoding: child.stdout, as: UTF8.self)
        == "a.md\nc.md\nrenamed work to job in 2 notes\n"
    )
  }

  @Test func notesOutsideTheFolderAreNeverTouched() throws {
    let outside = TemporaryFolder("tagd-outside")
    outside.write("o.md", "#work\n")
    let vault = TemporaryFolder("tagd-vault")
    vault.write("real/n.md", "#work\n")
    symlink(outside.path("o.md"), vault.path("out.md"))
    symlink(vault.path("real/n.md"), vault.path("in.md"))
    symlink(outside.path, vault.path("outdir"))
    let result = try runTagd(["rename", "work", "job", vault.path])
    #expect(result.status == 0)
    #expect(Files.read(outside.path("o.md")) == Array("#work\n".utf8))
    #expect(Files.read(vault.path("real/n.md")) == Array("#job\n".utf8))
    // The link inside the folder is still a link, to the renamed note.
    var status = stat()
    lstat(vault.path("in.md"), &status)
    #expect(status.st_mode & S_IFMT == S_IFLNK)
    #expect(result.stdout == "real/n.md\nrenamed work to job in 1 note\n")
  }

  /// `kill -9` while `tagd rename` waits before its first replace leaves its new files
  /// (`.NAME.tagd-XXXXXX`) beside the notes; the next rename writing into that folder removes
  /// those over a minute old, and nothing else: not a fresh one (a rename still running), not
  /// a name that only looks alike, not a folder.
  @Test func leftoversOfAKilledRenameAreRemovedByTheNextWrite() throws {
    let vault = TemporaryFolder("tagd-litter")
    for name in ["a", "b", "c"] { vault.write("\(name).md", "---\ntags: [work]\n---\n") }
    let fifo = vault.path(".pause")
    #expect(mkfifo(fifo, 0o600) == 0)
    let child = try ChildProcess(
      path: "/usr/bin/env",
      arguments: [
        "TAGD_TEST_PAUSE_BEFORE_WRITE=" + fifo, tagdPath(), "rename", "work", "job", vault.path,
      ]
    )
    let reader = open(fifo, O_RDONLY)
    var byte: UInt8 = 0
    while read(reader, &byte, 1) == 1 {}
    close(reader)
    kill(child.pid, SIGKILL)
    _ = child.waitExit(seconds: 10)
    let isLeftover = { (name: String) in name.hasPrefix(".") && name.contains(".md.tagd-") }
    let leftovers = Files.list(vault.path).filter(isLeftover)
    #expect(leftovers.count == 3, "\(Files.list(vault.path))")
    // Aged past the minute, as after a crash long ago.
    for name in leftovers {
      var times = [timeval(tv_sec: time(nil) - 120, tv_usec: 0), timeval()]
      times[1] = times[0]
      #expect(utimes(vault.path(name), &times) == 0)
    }
    // Kept: a fresh one, look-alikes (old too), a folder of that name.
    let kept = [
      ".a.md.tagd-fresh1", ".a.md.tagd-abc", ".a.md.tagd-ABCDEF", "a.md.tagd-abcdef",
      ".a.md.tagd-abcdefg", ".a.md.tmp-abcdef", ".folder.tagd-abcdef",
    ]
    for name in kept.dropLast() { vault.write(name, "keep\n") }
    #expect(mkdir(vault.path(kept.last ?? ""), 0o700) == 0)
    for name in kept.dropFirst() {
      var times = [timeval(tv_sec: time(nil) - 120, tv_usec: 0), timeval()]
      times[1] = times[0]
      #expect(utimes(vault.path(name), &times) == 0)
    }
    unlink(fifo)
    #expect(try runTagd(["rename", "work", "job", vault.path]).status == 0)
    let after = Set(Files.list(vault.path))
    #expect(after == Set(["a.md", "b.md", "c.md"] + kept), "\(after.sorted())")
    #expect(Files.read(vault.path("a.md")) == Array("---\ntags: [job]\n---\n".utf8))
  }

  /// A note of the kill test: its bytes before and after renaming `work` to `job`.
  static func killNote(_ index: Int) -> (old: [UInt8], new: [UInt8]) {
    let filler = String(repeating: "Some words of note \(index). ", count: 8)
    let old = "---\ntitle: Note \(index)\ntags: [work, t\(index % 50)]\n---\n\(filler)\n#work\n"
    return (Array(old.utf8), Array(old.replacing("work", with: "job").utf8))
  }

  /// Writes the kill test's vault: `count` notes, every third one without the tag.
  static func killVault(_ vault: TemporaryFolder, count: Int) {
    for index in 0..<count {
      let note = killNote(index)
      vault.write(
        "d\(index % 20)/n\(index).md",
        index % 3 == 2 ? Array("#other \(index)\n".utf8) : note.old
      )
    }
  }

  /// Checks that every note holds exactly its old or its new bytes; returns how many are new.
  static func wholeNotes(_ vault: TemporaryFolder, count: Int) -> Int {
    var renamed = 0
    for index in 0..<count {
      let bytes = Files.read(vault.path("d\(index % 20)/n\(index).md"))
      if index % 3 == 2 {
        #expect(bytes == Array("#other \(index)\n".utf8))
        continue
      }
      let note = killNote(index)
      #expect(bytes == note.old || bytes == note.new, "n\(index).md is neither old nor new")
      if bytes == note.new { renamed += 1 }
    }
    return renamed
  }

  @Test func killDuringRenameLeavesEveryNoteWholeOldOrNew() throws {
    let count = slowTests ? 6000 : 2000
    // Deterministically between two writes: paused before the 300th, killed there.
    do {
      let vault = TemporaryFolder("tagd-kill")
      Self.killVault(vault, count: count)
      let fifo = vault.path(".pause")
      #expect(mkfifo(fifo, 0o600) == 0)
      let child = try ChildProcess(
        path: "/usr/bin/env",
        arguments: [
          "TAGD_TEST_PAUSE_BEFORE_WRITE=" + fifo, tagdPath(), "rename", "work", "job", vault.path,
        ]
      )
      for step in 0..<300 {
        let reader = open(fifo, O_RDONLY)
        var byte: UInt8 = 0
        while read(reader, &byte, 1) == 1 {}
        close(reader)
        if step == 299 {
          kill(child.pid, SIGKILL)
        } else {
          close(creat(fifo + ".go", 0o600))
        }
      }
      _ = child.waitExit(seconds: 10)
      #expect(Self.wholeNotes(vault, count: count) == 299)
      // The leftovers are dot files: a second run finishes the job.
      #expect(try runTagd(["rename", "work", "job", vault.path]).status == 0)
      #expect(Self.wholeNotes(vault, count: count) == count - count / 3)
    }
    // At arbitrary instants: timed from a whole run, killed at fractions of it.
    let vault = TemporaryFolder("tagd-kill")
    Self.killVault(vault, count: count)
    let start = now()
    #expect(try runTagd(["rename", "work", "job", vault.path]).status == 0)
    let whole = now() - start
    for fraction in slowTests ? [0.3, 0.5, 0.7, 0.8, 0.9, 0.95] : [0.6, 0.9] {
      let vault = TemporaryFolder("tagd-kill")
      Self.killVault(vault, count: count)
      let child = try ChildProcess(
        path: tagdPath(),
        arguments: ["rename", "work", "job", vault.path]
      )
      usleep(UInt32(whole * fraction * 1e6))
      kill(child.pid, SIGKILL)
      _ = child.waitExit(seconds: 10)
      _ = Self.wholeNotes(vault, count: count)
    }
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
