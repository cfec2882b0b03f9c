import JSONRPC
import TagTestSupport
import Testing

// JSONTestSuite's `test_parsing` cases: `y_` must parse, `n_` must fail, `i_` must terminate.
// They run only when the public suite sits beside the checkout (CI); otherwise they are skipped
// with JSONTestSuite.absentReason, and JSONCasesTests.swift covers the essentials.

@Suite(.enabled(if: JSONTestSuite.isPresent, Comment(rawValue: JSONTestSuite.absentReason)))
struct JSONTestSuiteTests {
  @Test func jsonTestSuiteIsComplete() {
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
}
