import TagTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built tagd with `arguments` (and `environment` entries, through `/usr/bin/env`);
/// returns the exit status, stdout and stderr.
func runTagd(
  _ arguments: [String],
  environment: [String] = []
) throws -> (status: Int32?, stdout: String, stderr: String) {
  let child =
    environment.isEmpty
    ? try ChildProcess(path: tagdPath(), arguments: arguments)
    : try ChildProcess(path: "/usr/bin/env", arguments: environment + [tagdPath()] + arguments)
  let status = child.finish(seconds: 120)
  return (
    status, String(decoding: child.stdout, as: UTF8.self),
    String(decoding: child.stderr, as: UTF8.self)
  )
}

/// `tagd tags`, `tagd check`, `tagd rename` (SPEC §6f) on real folders.
@Suite struct VaultCommandTests {
  @Test(arguments: [
    ["rename"], ["rename", "a"], ["rename", "a", "b", "dir", "extra"], ["tags", "--bogus"],
    ["check", "a", "b"], ["tags", "--max-note-bytes=0"], ["tags", "--dry-run"],
    ["rename", "a", "b", "--json"], ["check", "--max-note-bytes=x"], ["rename", "", "b"],
  ])
  func usageErrorsExitTwoWithTheUsage(arguments: [String]) throws {
    let result = try runTagd(arguments)
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("tagd \(arguments[0]): "))
    #expect(result.stderr.contains("\n\nUsage: tagd \(arguments[0]) "))
  }

  @Test(arguments: ["tags", "check", "rename"])
  func helpPrintsTheUsage(command: String) throws {
    let result = try runTagd([command, "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("Usage: tagd \(command) "))
    #expect(result.stdout.contains("--max-note-bytes=N"))
    #expect(result.stderr == "")
  }

  /// A small vault with variant spellings in both kinds of note.
  static func smallVault() -> TemporaryFolder {
    let vault = TemporaryFolder("tagd-vault")
    vault.write("a.md", "---\ntags: [Work, home]\n---\nCafé 😀 #work and #idea\n")
    vault.write("b.org", "#+FILETAGS: :work:\n* Heading :home:Idea:\n")
    vault.write("sub/c.md", "---\ntags:\n  - work\n  - WORK\n---\n")
    vault.write(".hidden/d.md", "#secret\n")
    vault.write("big.md", String(repeating: "#big ", count: 300))
    vault.write("latin1.md", [0x23, 0x63, 0x61, 0x66, 0xE9, 0x0A])
    vault.write(".tagd.toml", "deny = [\"idea\"]\n[aliases]\nhouse = \"home\"\n")
    vault.write("e.md", "#house\n")
    return vault
  }

  @Test func tagsListsEachTagOnceMostUsedFirst() throws {
    let vault = Self.smallVault()
    let result = try runTagd(["tags", vault.path, "--max-note-bytes=1000"])
    #expect(result.status == 0)
    #expect(result.stdout == "3\twork\n2\thome\n2\tidea\n1\thouse\n")
    #expect(
      result.stderr
        == "tagd: skipped big.md: larger than the note size limit (1500 bytes, limit 1000)\n"
        + "tagd: skipped latin1.md: not valid UTF-8 (byte 4)\n"
    )
    let json = try runTagd(["tags", "--json", vault.path, "--max-note-bytes=1000"])
    #expect(
      json.stdout
        == #"{"tags":[{"tag":"work","notes":3,"spellings":[{"text":"work","notes":3},{"text":"Work","notes":1},{"text":"WORK","notes":1}]},{"tag":"home","notes":2,"spellings":[{"text":"home","notes":2}]},{"tag":"idea","notes":2,"spellings":[{"text":"idea","notes":1},{"text":"Idea","notes":1}]},{"tag":"house","notes":1,"spellings":[{"text":"house","notes":1}]}]}"#
        + "\n"
    )
  }

  @Test func checkPrintsPathLineColumnCodeAndMessage() throws {
    let vault = Self.smallVault()
    let result = try runTagd(["check", vault.path, "--max-note-bytes=1000"])
    #expect(result.status == 1)
    // Columns count characters: `Café 😀 #work and #` is 18 of them (22 bytes) before `idea`.
    #expect(
      result.stdout == """
        a.md:2:8: tag-variant: `Work` is spelled `work` in the vault (3 notes)
        a.md:4:19: tag-not-allowed: `idea` is denied by the vault's vocabulary (.tagd.toml)
        b.org:2:17: tag-not-allowed: `Idea` is denied by the vault's vocabulary (.tagd.toml)
        b.org:2:17: tag-variant: `Idea` is spelled `idea` in the vault (2 notes)
        e.md:1:2: tag-alias: `house` is an alias of `home`
        sub/c.md:4:5: tag-repeated: `WORK` repeats `work`, already in this list (line 3)

        """
    )
    let clean = TemporaryFolder("tagd-vault")
    clean.write("a.md", "---\ntags: [work]\n---\n#work\n")
    let ok = try runTagd(["check", clean.path])
    #expect(ok.status == 0)
    #expect(ok.stdout == "")
    let json = try runTagd(["check", "--json", clean.path])
    #expect(json.stdout == #"{"diagnostics":[]}"# + "\n")
  }

  @Test func aMissingFolderIsNamed() throws {
    // A folder inside this test's own temporary folder that was never made.
    let folder = TemporaryFolder("tagd-vault")
    let missing = folder.path + "/not-made"
    let result = try runTagd(["tags", missing])
    #expect(result.status == 2)
    #expect(result.stderr.contains(missing))
  }
}

/// The README's "Your notes" section shows real output: each `console` block's command is run
/// on the sample vault and must print exactly what the README says.
@Suite struct ReadmeVaultTests {
  /// The section's blocks: the command's arguments (after the binary) and the output shown.
  static func blocks() -> [(arguments: [String], output: String)] {
    let readme = String(decoding: Files.read(packageRoot() + "/README.md") ?? [], as: UTF8.self)
    guard let start = readme.firstRange(of: "\n## Your notes\n") else { return [] }
    let rest = readme[start.upperBound...]
    let section = rest[..<(rest.firstRange(of: "\n## ")?.lowerBound ?? rest.endIndex)]
    var result: [(arguments: [String], output: String)] = []
    for piece in section.split(separator: "```console\n", omittingEmptySubsequences: false)
      .dropFirst()
    {
      guard let end = piece.firstRange(of: "```\n") else { continue }
      let lines = piece[..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
      guard let command = lines.first, command.hasPrefix("$ .build/debug/tagd ") else { continue }
      let arguments = command.dropFirst("$ .build/debug/tagd ".count).split(separator: " ").map {
        $0 == "Protocol/examples/vault" ? packageRoot() + "/Protocol/examples/vault" : String($0)
      }
      result.append((arguments, lines.dropFirst().joined(separator: "\n")))
    }
    return result
  }

  @Test func theReadmeShowsWhatTheCommandsPrint() throws {
    let blocks = Self.blocks()
    #expect(blocks.map { $0.arguments.first } == ["tags", "check", "rename"])
    let vault = packageRoot() + "/Protocol/examples/vault"
    let before = VaultRenameTests.contents(vault)
    #expect(before.count == 8)
    for block in blocks {
      let result = try runTagd(block.arguments)
      #expect(result.stdout == block.output, "tagd \(block.arguments.joined(separator: " "))")
      #expect(result.stderr == "")
      #expect(result.status == (block.arguments.first == "check" ? 1 : 0))
    }
    #expect(VaultRenameTests.contents(vault) == before)
  }
}
