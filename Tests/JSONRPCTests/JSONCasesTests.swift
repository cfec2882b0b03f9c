import JSONRPC
import Testing

/// One case of the project's own accept/reject table.
///
/// The table holds the essentials of RFC 8259 that the public JSONTestSuite checks, so a plain
/// clone (without ../shared/jsontestsuite) still tests them. Numbers, escapes, UTF-8 and depth have their own tables in JSONReaderTests.swift.
struct JSONCase: Sendable, CustomTestStringConvertible {
  var text: String
  var valid: Bool
  var testDescription: String { (valid ? "accepts " : "rejects ") + text.debugDescription }
}

private func accept(_ text: String) -> JSONCase { JSONCase(text: text, valid: true) }
private func reject(_ text: String) -> JSONCase { JSONCase(text: text, valid: false) }

let jsonCases: [JSONCase] = [
  // Any value is a JSON text, not only objects and arrays.
  accept("{}"), accept("[]"), accept("null"), accept("true"), accept("false"), accept("0"),
  accept(#""""#), accept("-0.0e+0"),
  // The four whitespace characters, around and inside values.
  accept(" \t\r\n[ \t\r\n1 \t\r\n, \t\r\n{ \t\r\n\"a\" \t\r\n: \t\r\n2 \t\r\n} \t\r\n] \t\r\n"),
  // Nesting, empty members, duplicate keys (last wins: tested in JSONReaderTests).
  accept(#"[[],{},[[]],{"a":{"b":[null]}}]"#), accept(#"{"":0,"a":[],"a":1}"#),
  // Strings hold anything but raw controls, quotes and backslashes: DEL, U+2028, noncharacters.
  accept("[\"\u{7F}\u{2028}\u{2029}\u{FFFF}\u{10FFFF}\"]"), accept(#"["\/\u0000\uFFFF"]"#),
  // Numbers at the edges of the grammar.
  accept("[-1, 1.0, 1e5, 1E-5, 1e+5, 0.5, 10]"),

  // Empty or whitespace-only text.
  reject(""), reject(" "), reject("\n"),
  // Unbalanced or misplaced brackets.
  reject("["), reject("]"), reject("{"), reject("}"), reject("[}"), reject("{]"), reject("[[]"),
  reject("[]]"), reject(#"{"a":1}}"#),
  // Commas and colons out of place.
  reject("[,]"), reject("[1,]"), reject("[,1]"), reject("[1,,2]"), reject(#"{"a":1,}"#),
  reject(#"{,"a":1}"#), reject(#"{"a"}"#), reject(#"{"a":}"#), reject(#"{"a"::1}"#),
  reject(#"{"a",1}"#), reject(#"{:1}"#), reject("[1:2]"),
  // Keys must be strings.
  reject("{a:1}"), reject("{1:1}"), reject("{'a':1}"), reject("{null:1}"),
  // Only the three lowercase literals.
  reject("True"), reject("NULL"), reject("nul"), reject("truex"), reject("[undefined]"),
  reject("NaN"), reject("Infinity"), reject("-Infinity"),
  // Numbers outside the grammar.
  reject("+1"), reject(".5"), reject("1."), reject("1.e5"), reject("01"), reject("-01"),
  reject("0x1F"), reject("1e"), reject("1e+"), reject("--1"), reject("1_000"), reject("- 1"),
  // Strings outside the grammar.
  reject("'a'"), reject(#"""#), reject(#""abc"#), reject(#""\""#), reject(#""\a""#),
  reject(#""\u12""#), reject(#""\U0041""#), reject("\"\t\""), reject("\"\u{1F}\""),
  // Not JSON at all: comments, a byte order mark, trailing text, two texts, other spaces.
  reject("[1] // c"), reject("/* c */ 1"), reject("\u{FEFF}[]"), reject("[] x"), reject("1 2"),
  reject("[]\u{0}"), reject("\u{A0}1"), reject("\u{C}1"),
]

@Test(arguments: jsonCases)
func ownJSONCase(_ test: JSONCase) {
  let result = Result { () throws(JSONParseError) in try JSONReader.parse(Array(test.text.utf8)) }
  switch (result, test.valid) {
  case (.success, true), (.failure, false): break
  case (.success(let value), false): Issue.record("accepted as \(value)")
  case (.failure(let error), true): Issue.record("rejected: \(error)")
  }
}
