import TagTestSupport
import Testing
import VaultFiles

#if canImport(Glibc)
import Glibc
#endif

/// A note is replaced whole, with its mode, and never over a change made since it was read.
@Suite struct AtomicWriteTests {
  func status(_ path: String) -> stat {
    var result = stat()
    lstat(path, &result)
    return result
  }

  @Test func replacesTheFileKeepingItsMode() throws {
    let vault = TemporaryFolder()
    vault.write("n.md", "---\ntags: [a]\n---\n", mode: 0o640)
    chmod(vault.path("n.md"), 0o640)
    let read = try NoteFiles.read(vault.path("n.md")).get()
    try AtomicWrite.replace(
      vault.path("n.md"),
      original: read,
      with: Array("---\ntags: [b]\n---\n".utf8)
    )
    #expect(Files.read(vault.path("n.md")) == Array("---\ntags: [b]\n---\n".utf8))
    let after = status(vault.path("n.md"))
    #expect(after.st_mode & 0o7777 == 0o640)
    // A new file was renamed over the old one (never written in place), and none is left over.
    #expect(after.st_ino != read.stamp.inode)
    #expect(Files.list(vault.path) == ["n.md"])
  }

  @Test func aNoteChangedSinceItWasReadIsNotOverwritten() throws {
    let vault = TemporaryFolder()
    vault.write("n.md", "#abc\n")
    let read = try NoteFiles.read(vault.path("n.md")).get()

    // Same size, same modification time (set back), different bytes: only the bytes tell.
    let before = status(vault.path("n.md"))
    let descriptor = open(vault.path("n.md"), O_WRONLY)
    _ = Array("#xyz\n".utf8).withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    var times = [before.st_atim, before.st_mtim]
    futimens(descriptor, &times)
    close(descriptor)
    #expect(status(vault.path("n.md")).st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    #expect(throws: WriteError.changedOnDisk(path: vault.path("n.md"))) {
      try AtomicWrite.replace(vault.path("n.md"), original: read, with: Array("#new\n".utf8))
    }
    #expect(Files.read(vault.path("n.md")) == Array("#xyz\n".utf8))

    // Replaced by another program's save (a new inode, same bytes): refused as well.
    let again = try NoteFiles.read(vault.path("n.md")).get()
    vault.write(".other", "#xyz\n")
    rename(vault.path(".other"), vault.path("n.md"))
    #expect(throws: WriteError.changedOnDisk(path: vault.path("n.md"))) {
      try AtomicWrite.replace(vault.path("n.md"), original: again, with: Array("#new\n".utf8))
    }
    // Gone: refused, and not created again.
    let last = try NoteFiles.read(vault.path("n.md")).get()
    unlink(vault.path("n.md"))
    #expect(throws: WriteError.changedOnDisk(path: vault.path("n.md"))) {
      try AtomicWrite.replace(vault.path("n.md"), original: last, with: Array("#new\n".utf8))
    }
    #expect(Files.list(vault.path) == [])
  }

  @Test func aFolderThatCannotBeWrittenIsAFailureNotAChange() throws {
    let vault = TemporaryFolder()
    vault.write("ro/n.md", "#a\n")
    let read = try NoteFiles.read(vault.path("ro/n.md")).get()
    chmod(vault.path("ro"), 0o555)
    defer { chmod(vault.path("ro"), 0o755) }
    guard geteuid() != 0 else { return }  // root writes anyway
    #expect(throws: WriteError.self) {
      try AtomicWrite.replace(vault.path("ro/n.md"), original: read, with: Array("#b\n".utf8))
    }
    #expect(Files.read(vault.path("ro/n.md")) == Array("#a\n".utf8))
  }
}
