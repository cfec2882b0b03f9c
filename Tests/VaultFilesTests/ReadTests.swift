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
