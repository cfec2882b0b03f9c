import JSONRPC
import TagServer
import TagTerminal
import TagTestSupport
import Testing

@testable import tagd

/// Parses `arguments`, recording the usage error as a test issue.
private func parse(_ arguments: [String]) -> Options? {
  do throws(UsageError) {
    return try Options(arguments: arguments)
  } catch {
    Issue.record("\(arguments) was refused: \(error.message)")
    return nil
  }
}

/// The usage error `arguments` give, or nil when they parse.
private func refusal(_ arguments: [String]) -> String? {
  do throws(UsageError) {
    _ = try Options(arguments: arguments)
    return nil
  } catch {
    return error.message
  }
}

@Suite struct OptionsTests {
  @Test func noArgumentsServeWithTheConfigDefaults() throws {
    let options = try #require(parse([]))
    #expect(options.command == .serve)
    #expect(options.framing == nil)
    #expect(options.config == ServerConfig())
    #expect(options.logLevel == .error)
    #expect(options.logFile == nil)
    #expect(options.clientProcessID == nil)
  }

  @Test func everyLimitFlagSetsItsLimit() throws {
    let options = try #require(
      parse([
        "--max-message-bytes=1000", "--max-header-bytes=200", "--max-depth=7",
        "--max-sessions=3", "--max-tags=4", "--max-tag-length=5", "--max-field-bytes=600",
      ])
    )
    #expect(
      options.config
        == ServerConfig(
          maxDepth: 7,
          maxSessions: 3,
          maxTags: 4,
          maxTagLength: 5,
          maxMessageBytes: 1000,
          maxHeaderBytes: 200,
          maxFieldBytes: 600
        )
    )
  }

  @Test(
    arguments: [
      ("auto", nil), ("content-length", .contentLength), ("lsp", .contentLength),
      ("ndjson", .newlineDelimited), ("newline", .newlineDelimited), ("jsonl", .newlineDelimited),
    ] as [(String, Framing?)]
  )
  func framing(_ value: String, _ expected: Framing?) throws {
    let options = try #require(parse(["--framing=content-length", "--framing=\(value)"]))
    #expect(options.framing == expected)
  }

  @Test func logProcessAndSwitches() throws {
    let options = try #require(
      parse(["--stdio", "--log=debug", "--log-file=tagd.log", "--clientProcessId=42"])
    )
    #expect(options.command == .serve)
    #expect(options.logLevel == .debug)
    #expect(options.logFile == "tagd.log")
    #expect(options.clientProcessID == 42)
    #expect(parse(["--client-process-id=7"])?.clientProcessID == 7)
    #expect(parse(["--version"])?.command == .version)
    #expect(parse(["--help"])?.command == .help)
    #expect(parse(["--max-depth=3", "-h"])?.command == .help)
  }

  @Test func trySubcommand() throws {
    let options = try #require(parse(["try", "--columns=20", "--script"]))
    #expect(options.command == .tryField)
    #expect(options.tryOptions.columns == 20)
    #expect(options.tryOptions.script)
    let plain = try #require(parse(["try"]))
    #expect(plain.tryOptions.columns == nil && !plain.tryOptions.script)
    #expect(parse(["try", "--help"])?.command == .help)
  }

  @Test(arguments: [
    (["--frobnicate"], #"unknown option "--frobnicate" (see tagd --help)"#),
    (["--help", "--frobnicate"], #"unknown option "--frobnicate" (see tagd --help)"#),
    (["try", "-h", "--bogus"], #"unknown option "--bogus" for tagd try (see tagd --help)"#),
    (["try", "--max-depth=3"], #"unknown option "--max-depth=3" for tagd try (see tagd --help)"#),
    (["--columns=3"], #"unknown option "--columns=3" (see tagd --help)"#),
    (["--max-depth"], "--max-depth needs a value: --max-depth=N"),
    (["--max-depth="], "--max-depth needs a value: --max-depth=N"),
    (["--max-depth=0"], #"--max-depth must be a positive integer, got "0""#),
    (["--max-tags=-3"], #"--max-tags must be a positive integer, got "-3""#),
    (["--max-sessions=1e3"], #"--max-sessions must be a positive integer, got "1e3""#),
    (
      ["--clientProcessId=2147483648"],
      #"--clientProcessId must be a positive integer, got "2147483648""#
    ),
    (["try", "--columns=10001"], #"--columns must be a positive integer, got "10001""#),
    (["--framing=xml"], #"--framing must be auto, content-length or ndjson, got "xml""#),
    (["--log=loud"], #"--log must be error, warning, info or debug, got "loud""#),
    (["--log-file"], "--log-file needs a value: --log-file=PATH"),
    (["--stdio=yes"], "--stdio takes no value, got --stdio=yes"),
    (["try", "--script=1"], "--script takes no value, got --script=1"),
  ])
  func mistakesAreUsageErrors(_ arguments: [String], _ message: String) {
    #expect(refusal(arguments) == message)
  }

  @Test func helpListsEveryFlagWithItsDefault() {
    let usage = Options.usage
    for flag in Options.serveFlags + Options.tryFlags {
      let listed = usage.contains("  \(flag.spelling) ") || usage.contains("  \(flag.spelling)\n")
      #expect(listed, "\(flag.name) missing from --help")
      if let defaultText = flag.defaultText {
        // The default may be wrapped onto the next line: compare without line breaks.
        let flat = usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("(default \(defaultText))."), "\(flag.name)'s default")
      }
    }
    #expect(usage.contains("(default 64 MiB)"))
    #expect(usage.contains("(default 1000000)"))
    #expect(usage.split(separator: "\n").allSatisfy { $0.count <= 98 })
  }

  @Test func defaultsComeFromTheConfigTypes() {
    let shown = Dictionary(
      uniqueKeysWithValues: Options.serveFlags.map { ($0.name, $0.defaultText) }
    )
    let config = ServerConfig()
    #expect(shown["--max-depth"] == "\(config.maxDepth)")
    #expect(shown["--max-sessions"] == "\(config.maxSessions)")
    #expect(shown["--max-tags"] == "\(config.maxTags)")
    #expect(shown["--max-tag-length"] == "\(config.maxTagLength)")
    #expect(shown["--max-field-bytes"] == byteText(config.maxFieldBytes))
    #expect(shown["--max-message-bytes"] == byteText(config.frameLimits.maxMessageBytes))
    #expect(shown["--max-header-bytes"] == byteText(config.frameLimits.maxHeaderBytes))
    #expect(byteText(64 << 20) == "64 MiB" && byteText(64 << 10) == "64 KiB")
    #expect(byteText(1000) == "1000" && byteText((1 << 20) + 1024) == "1025 KiB")
  }

  /// The README's `## Flags` table is exactly the rows the flag tables generate.
  @Test func readmeFlagTableMatchesTheFlagTable() throws {
    let readme = String(
      decoding: try #require(Files.read(packageRoot() + "/README.md")),
      as: UTF8.self
    )
    let section = try #require(readme.split(separator: "\n## ").first { $0.hasPrefix("Flags\n") })
    let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map(String.init)
    #expect(
      rows == Options.readmeRows,
      "README.md's flag table should read:\n\(Options.readmeRows.joined(separator: "\n"))"
    )
  }
}
