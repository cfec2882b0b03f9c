import Testing

@testable import JSONRPC

/// Members are matched into their declared slots by their bytes, whatever their length or
/// spelling, the last of a repeated member stands, and the first undeclared one is kept.
@Suite struct DeclaredMembersTests {
  /// Names sharing their first eight bytes, a short one, and one of exactly eight.
  static let declared = DeclaredMembers([
    "initializationOptions", "initializationXYZ", "id", "capacity", "initial",
  ])

  /// The slots of `json` (an object) and the body's text of each declared member's value.
  static func values(_ json: String) -> (values: [String?], unknown: String?) {
    Array(json.utf8).withUnsafeBufferPointer { buffer in
      let body = MessageBytes(lendingValidated: buffer)
      guard let slots = body.slots(ofObjectAt: 0..<body.count, declared) else { return ([], nil) }
      let values = (0..<declared.names.count).map { slot in
        slots.value(slot).map(body.string)
      }
      let unknown = slots.unknown.map { body.key($0.key, hasEscapes: $0.hasEscapes) }
      return (values, unknown)
    }
  }

  @Test func eachMemberLandsInItsOwnSlot() {
    let (values, unknown) = Self.values(
      #"{"initializationXYZ":2,"id":"a","initializationOptions":{"x":[1]},"capacity":true,"initial":null}"#
    )
    #expect(values == [#"{"x":[1]}"#, "2", #""a""#, "true", "null"])
    #expect(unknown == nil)
  }

  @Test func aNameThatSharesItsFirstEightBytesIsNotTheDeclaredOne() {
    let (values, unknown) = Self.values(#"{"initializationOptionz":1,"initializ":2,"i":3}"#)
    #expect(values == [nil, nil, nil, nil, nil])
    #expect(unknown == "initializationOptionz")
  }

  @Test func escapedKeysMatchAsTheyRead() {
    let (values, unknown) = Self.values(#"{"\u0069d":1,"capa\u0063ity":2,"\u00e9":3}"#)
    #expect(values == [nil, nil, "1", "2", nil])
    #expect(unknown == "é")
  }

  @Test func theLastOfARepeatedMemberStands() {
    let (values, unknown) = Self.values(#"{"id":1,"zz":0,"id":"two","yy":0}"#)
    #expect(values[2] == #""two""#)
    #expect(unknown == "zz")
  }

  /// Names of every length up to 20, prefixes of one another, each matched only by itself:
  /// early in a body (its bytes loaded a word at a time, what follows masked off) and last (too
  /// near the end for that).
  @Test func everyLengthMatchesOnlyItself() {
    // Two declarations: a type declares at most 16 members.
    for lengths in [1...10, 11...20] {
      let names = lengths.map { String("abcdefghijklmnopqrst".prefix($0)) }
      let declared = DeclaredMembers(names)
      for (slot, name) in names.enumerated() {
        for json in [
          #"{"\#(name)":1,"\#(String(repeating: "z", count: 30))":2}"#, #"{"\#(name)":1}"#,
        ] {
          Array(json.utf8).withUnsafeBufferPointer { buffer in
            let body = MessageBytes(lendingValidated: buffer)
            let slots = body.slots(ofObjectAt: 0..<body.count, declared)
            #expect(slots?.value(slot) != nil, "\(name) in \(json)")
            #expect((0..<names.count).filter { slots?.value($0) != nil } == [slot])
          }
        }
      }
    }
  }

  @Test func treeKeysMatchTheSameSlots() {
    #expect(Self.declared.slot(of: "initializationXYZ") == 1)
    #expect(Self.declared.slot(of: "initializationXY") == nil)
    #expect(Self.declared.slot(of: "capacity") == 3)
  }

  /// The names of a declaration by cases are the cases' own spellings, in order.
  @Test func casesDeclareTheirNames() {
    enum Member: Int, CaseIterable { case field, contentChanges, `default` }
    #expect(
      DeclaredMembers(cases: Member.allCases).names == ["field", "contentChanges", "default"]
    )
  }
}
