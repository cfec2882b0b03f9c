/// The public JSONTestSuite's `test_parsing` cases, when a copy sits beside the checkout.
///
/// Looked for only at `../shared/jsontestsuite/test_parsing` relative to the package root (CI
/// puts it there). A plain clone has no such folder: the tests that need it are then skipped
/// with a visible reason, and the project's own cases in Tests/JSONRPCTests/JSONCasesTests.swift
/// cover the essentials.
public enum JSONTestSuite {
  /// Why suite tests are skipped on a machine without it (the text of the skip).
  public static let absentReason =
    "JSONTestSuite not beside the checkout (../shared/jsontestsuite/test_parsing); "
    + "the project's own JSON cases still run"

  /// The folder, or nil when it is not there.
  public static let folder: String? = {
    let candidate = packageRoot() + "/../shared/jsontestsuite/test_parsing"
    return Files.list(candidate).isEmpty ? nil : candidate
  }()

  /// Whether the suite is present.
  public static var isPresent: Bool { folder != nil }

  /// The `.json` case names, sorted; empty when the suite is absent.
  public static let names: [String] = {
    guard let folder else { return [] }
    return Files.list(folder).filter { $0.hasSuffix(".json") }
  }()

  /// The cases whose name starts with `prefix` (`y_` must parse, `n_` must fail, `i_` either).
  public static func cases(_ prefix: String) -> [String] {
    names.filter { $0.hasPrefix(prefix) }
  }

  /// The bytes of case `name` (empty when unreadable).
  public static func bytes(_ name: String) -> [UInt8] {
    guard let folder else { return [] }
    return Files.read(folder + "/" + name) ?? []
  }
}
