import TagTestSupport
import Testing
import VaultFiles

#if canImport(Glibc)
import Glibc
#endif

/// Reading notes: the size limit, the UTF-8 check, and the threads giving what one thread gives.
@Suite struct ReadTests {
  @Test func limitsAndEncodingAreChecked() throws {
    let vault = TemporaryFolder()
    vault.write("big.md", [UInt8](repeating: UInt8(ascii: "a"), count: 1001))
    vault.write("fits.md", [UInt8](repeating: UInt8(ascii: "a"), count: 1000))
    vault.write("latin1.md", [0x23, 0x63, 0x61, 0x66, 0xE9, 0x0A])  // "#caf\xE9\n"
    vault.write("bom.md", [0xEF, 0xBB, 0xBF] + Array("#tag\n".utf8))
    vault.write("surrogate.md", [0x61, 0xED, 0xA0, 0x80])
    #expect(
      NoteFiles.read(vault.path("big.md"), maxBytes: 1000)
        == .failure(.tooLarge(size: 1001, limit: 1000))
    )
    #expect((try? NoteFiles.read(vault.path("fits.md"), maxBytes: 1000).get().bytes.count) == 1000)
    #expect(NoteFiles.read(vault.path("latin1.md")) == .failure(.invalidUTF8(offset: 4)))
    #expect(NoteFiles.read(vault.path("surrogate.md")) == .failure(.invalidUTF8(offset: 1)))
    let bom = try NoteFiles.read(vault.path("bom.md")).get()
    #expect(bom.bytes == [0xEF, 0xBB, 0xBF] + Array("#tag\n".utf8))
    #expect(bom.stamp.size == 8)
    #expect(NoteFiles.read(vault.path("missing.md")) == .failure(.unreadable(errno: ENOENT)))
  }

  @Test func utf8CheckAgreesWithTheStandardLibrary() {
    var random = SplitMix64(seed: 7)
    let pieces: [[UInt8]] = [
      [0x61], [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xC0, 0x80],
      [0xED, 0xA0, 0x80],
      [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80, 0x80], [0x80], [0xFF], [0xC3], [0xF0, 0x9F],
      [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49],
    ]
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0..<12, using: &random) {
        bytes += pieces.randomElement(using: &random)!
      }
      let valid = String(validating: bytes, as: UTF8.self) != nil
      let firstBad = UTF8Check.firstInvalid(bytes)
      #expect((firstBad == nil) == valid, "\(bytes)")
      if let firstBad {
        // Everything before the reported byte is valid.
        #expect(String(validating: bytes[..<firstBad], as: UTF8.self) != nil, "\(bytes)")
      }
    }
  }

  @Test func threadsReadWhatOneThreadReads() throws {
    let vault = TemporaryFolder()
    for i in 0..<700 {
      vault.write("n\(i / 100)/note\(i).md", i % 97 == 0 ? [0xFF] : Array("#t\(i)\n".utf8))
    }
    let listing = try VaultListing(root: vault.path)
    #expect(listing.notes.count == 700)
    let read: @Sendable (NoteFile, Result<NoteBytes, SkipReason>) -> String = { note, result in
      switch result {
      case .success(let bytes):
        note.relativePath + ":" + String(decoding: bytes.bytes, as: UTF8.self)
      case .failure(let reason): note.relativePath + ":" + reason.description
      }
    }
    let one = NoteFiles.map(listing.notes, threads: 1, read)
    let four = NoteFiles.map(listing.notes, threads: 4, read)
    #expect(one == four)
    #expect(one.count == 700)
    #expect(one.filter { $0.contains("not valid UTF-8") }.count == 8)
    #expect(one.contains("n3/note350.md:#t350\n"))
  }
}
