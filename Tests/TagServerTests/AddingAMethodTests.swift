import TagProtocol
import TagTestSupport
import Testing

@testable import TagServer

/// ARCHITECTURE.md's "Adding a method" holds for every method tagd serves: each step's file
/// names the method, and every file the checklist names exists.
@Suite struct AddingAMethodTests {
  static let root = packageRoot()

  static func text(_ path: String) -> String {
    String(decoding: Files.read(root + "/" + path) ?? [], as: UTF8.self)
  }

  /// The text of every file in `directory` (one level of subdirectories).
  static func texts(under directory: String) -> [String] {
    var result: [String] = []
    for name in Files.list(root + "/" + directory) {
      let path = directory + "/" + name
      if name.hasSuffix(".swift") || name.hasSuffix(".transcript") {
        result.append(text(path))
      } else if !name.contains(".") {
        result += Files.list(root + "/" + path).map { text(path + "/" + $0) }
      }
    }
    return result
  }

  static let methods: [(method: String, type: String)] =
    Server.requestTypes.map { ($0.method, String(describing: $0)) }
    + Server.notificationTypes.map { ($0.method, String(describing: $0)) }

  @Test func everyFileTheChecklistNamesExists() throws {
    let lines = Self.text("ARCHITECTURE.md").split(
      separator: "\n",
      omittingEmptySubsequences: false
    )
    let start = try #require(lines.firstIndex(of: "## Adding a method"))
    let checklist = lines[start...].joined(separator: "\n")
    let paths = checklist.split(separator: "`").enumerated().compactMap { index, part in
      index % 2 == 1 && part.contains("/") && !part.contains("<") && !part.contains(" ")
        ? String(part) : nil
    }
    #expect(paths.count >= 6)
    for path in paths {
      let full = Self.root + "/" + path.trimmingSuffix("/")
      #expect(Files.read(full) != nil || !Files.list(full).isEmpty, "\(path) exists")
    }
  }

  @Test func everyServedMethodFollowsTheChecklist() {
    let declarations = Self.texts(under: "Sources/TagProtocol")
    let methodsFile = Self.text("Sources/TagServer/Methods.swift")
    let readme = Self.text("Protocol/README.md") + Self.text("Protocol/cloud.md")
    let schema = Self.text("Protocol/schemas/tagd.schema.json")
    let transcripts = Self.texts(under: "Protocol/transcripts")
    let lifecycle = Self.text("Protocol/transcripts/lifecycle.transcript")
    let languages = Self.text("Protocol/transcripts/languages.transcript")
    for (method, type) in Self.methods {
      #expect(declarations.contains { $0.contains("\"\(method)\"") }, "1. \(method) declared")
      #expect(methodsFile.contains("\(type).self"), "2. \(type) served in Methods.swift")
      #expect(readme.contains("`\(method)`"), "3. \(method) in Protocol/README.md or cloud.md")
      #expect(schema.contains("\"\(method)\""), "3. \(method) in the schema")
      #expect(
        transcripts.contains { $0.contains("\"method\":\"\(method)\"") },
        "4. \(method) in a transcript"
      )
      #expect(lifecycle.contains("\"\(method)\""), "4. \(method) in lifecycle's method list")
      #expect(languages.contains("\"\(method)\""), "4. \(method) in languages' method list")
    }
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
