import Foundation
import JSONRPC
import Testing

/// JSONTestSuite's `test_parsing` cases: `y_` must parse, `n_` must fail, `i_` must terminate.
enum JSONTestSuite {
  /// The folder: `../shared/jsontestsuite/test_parsing` next to the package root, else `/work/shared/…`.
  static let folder: String? = {
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { root.deleteLastPathComponent() }
    let candidates = [
      root.deletingLastPathComponent().appendingPathComponent("shared/jsontestsuite/test_parsing")
        .path,
      "/work/shared/jsontestsuite/test_parsing",
    ]
    return candidates.first { FileManager.default.fileExists(atPath: $0) }
  }()

  static let files: [String] = {
    guard let folder else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted()
  }()

  static func cases(_ prefix: String) -> [String] {
    files.filter { $0.hasPrefix(prefix) }
  }

  static func bytes(_ name: String) -> [UInt8] {
    guard let folder, let data = FileManager.default.contents(atPath: folder + "/" + name) else {
      return []
    }
    return [UInt8](data)
  }
}

@Test func jsonTestSuiteIsPresent() {
  #expect(JSONTestSuite.folder != nil, "jsontestsuite/test_parsing not found next to the package")
  #expect(JSONTestSuite.cases("y_").count >= 95)
  #expect(JSONTestSuite.cases("n_").count >= 188)
  #expect(JSONTestSuite.cases("i_").count >= 35)
}

@Test(arguments: JSONTestSuite.cases("y_"))
func acceptsValid(_ name: String) throws {
  _ = try JSONReader.parse(JSONTestSuite.bytes(name))
}

@Test(arguments: JSONTestSuite.cases("n_"))
func rejectsInvalid(_ name: String) {
  #expect(throws: JSONParseError.self) { try JSONReader.parse(JSONTestSuite.bytes(name)) }
}

@Test(arguments: JSONTestSuite.cases("i_"))
func terminatesOnImplementationDefined(_ name: String) {
  _ = try? JSONReader.parse(JSONTestSuite.bytes(name))
}
