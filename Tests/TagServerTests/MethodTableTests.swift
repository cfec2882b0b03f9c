import TagProtocol
import Testing

@testable import TagServer

/// The method table finds every method by its exact UTF-8 and nothing else: names that differ
/// in one byte anywhere (the first, the last, the middle of a long one), in case or in length.
@Suite struct MethodTableTests {
  static let names =
    Server.requestTypes.map { $0.method } + Server.notificationTypes.map { $0.method }

  func lookUp(_ name: String) -> Int? {
    let table = MethodTable(Self.names.enumerated().map { ($0.element, $0.offset) })
    return Array(name.utf8).span.withUnsafeBufferPointer { table[$0.span] }
  }

  @Test(arguments: names)
  func everyNameIsFoundAndNoNearMiss(name: String) {
    #expect(lookUp(name) == Self.names.firstIndex(of: name))
    var bytes = Array(name.utf8)
    for index in bytes.indices {
      let kept = bytes[index]
      bytes[index] = kept ^ 0x01
      let changed = String(decoding: bytes, as: UTF8.self)
      if !Self.names.contains(changed) { #expect(lookUp(changed) == nil, "\(changed)") }
      bytes[index] = kept
    }
    for other in [String(name.dropLast()), name + " ", " " + name, name.uppercased()]
    where !Self.names.contains(other) {
      #expect(lookUp(other) == nil, "\(other)")
    }
  }

  @Test func theEmptyNameAndUnknownNamesAreNotFound() {
    for name in ["", "f", "field/", "field/changes", "workspace/didChangeWorkspaceFolderz"] {
      #expect(lookUp(name) == nil, "\(name)")
    }
  }
}
