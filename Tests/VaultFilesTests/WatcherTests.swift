import TagTestSupport
import Testing
import VaultFiles

#if canImport(Glibc)
import Glibc
#endif

/// The watcher reports what changed under the vault through a pollable descriptor.
@Suite struct WatcherTests {
  /// Polls the watcher's descriptor until `done` holds for what has been drained so far (or
  /// 5 s pass); returns everything drained, merged in order.
  func collect(_ watcher: VaultWatcher, until done: (VaultChanges) -> Bool) -> VaultChanges {
    var all = VaultChanges()
    for _ in 0..<250 {
      var descriptor = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
      if poll(&descriptor, 1, 20) > 0 {
        let batch = watcher.drain()
        all.changed += batch.changed
        all.removed += batch.removed
        all.removedFolders += batch.removedFolders
        all.overflowed = all.overflowed || batch.overflowed
        all.vocabularyChanged = all.vocabularyChanged || batch.vocabularyChanged
      }
      if done(all) { break }
    }
    return all
  }

  /// The root's `.tagd.toml` is the one dot entry reported (written, replaced by a rename,
  /// removed); one in a subfolder is not the vault's and is not.
  @Test func theVocabularyIsReported() throws {
    let vault = TemporaryFolder()
    vault.write("sub/x.md", "#x\n")
    let watcher = try VaultWatcher(root: vault.path)
    vault.write("sub/.tagd.toml", "deny = []\n")
    vault.write(".other", "x\n")
    vault.write("a.md", "#a\n")
    let unrelated = collect(watcher) { !$0.changed.isEmpty }
    #expect(!unrelated.vocabularyChanged && unrelated.changed == [vault.path("a.md")])
    vault.write(".tagd.toml", "deny = [\"a\"]\n")
    #expect(collect(watcher) { $0.vocabularyChanged }.vocabularyChanged)
    vault.write(".tagd.new", "deny = [\"b\"]\n")
    #expect(rename(vault.path(".tagd.new"), vault.path(".tagd.toml")) == 0)
    #expect(collect(watcher) { $0.vocabularyChanged }.vocabularyChanged)
    unlink(vault.path(".tagd.toml"))
    let removed = collect(watcher) { $0.vocabularyChanged }
    #expect(removed.vocabularyChanged && removed.changed.isEmpty && removed.removed.isEmpty)
  }

  @Test func writesRemovalsAndNewFoldersAreReported() throws {
    let vault = TemporaryFolder()
    vault.write("a.md", "#a\n")
    vault.write("old/b.md", "#b\n")
    let watcher = try VaultWatcher(root: vault.path)
    #expect(watcher.watchedFolders == 2)
    #expect(watcher.drain().isEmpty)

    vault.write("a.md", "#a2\n")
    vault.write("notes.txt", "not a note\n")
    vault.write(".hidden.md", "dot\n")
    let first = collect(watcher) { !$0.changed.isEmpty }
    #expect(first.changed == [vault.path("a.md")])
    #expect(first.removed.isEmpty)

    // A folder made with notes in it at once: the notes written before its watch existed
    // are reported as well, and later writes inside it too.
    vault.write("new/deep/c.md", "#c\n")
    let second = collect(watcher) { $0.changed.contains(vault.path("new/deep/c.md")) }
    #expect(second.changed == [vault.path("new/deep/c.md")])
    vault.write("new/deep/d.org", "* H :x:\n")
    let third = collect(watcher) { !$0.changed.isEmpty }
    #expect(third.changed == [vault.path("new/deep/d.org")])

    unlink(vault.path("a.md"))
    TemporaryFolder.remove(vault.path("old"))
    let fourth = collect(watcher) { !$0.removed.isEmpty && !$0.removedFolders.isEmpty }
    #expect(fourth.removed.contains(vault.path("a.md")))
    #expect(fourth.removedFolders.contains(vault.path("old")))
    #expect(!fourth.overflowed)
  }

  @Test func eventsOfOneNoteAreCoalesced() throws {
    let vault = TemporaryFolder()
    let watcher = try VaultWatcher(root: vault.path)
    // Many writes, then a removal, then nothing: one "removed".
    for i in 0..<20 { vault.write("n.md", "#v\(i)\n") }
    vault.write("m.md", "#m\n")
    unlink(vault.path("n.md"))
    var pending = pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0)
    #expect(poll(&pending, 1, 5000) == 1)
    let changes = watcher.drain()
    #expect(changes.removed == [vault.path("n.md")])
    #expect(changes.changed == [vault.path("m.md")])
    // A note renamed into place (as editors and `tagd rename` save) is one change.
    vault.write(".m.md.tmp", "#m2\n")
    rename(vault.path(".m.md.tmp"), vault.path("m.md"))
    let renamed = collect(watcher) { !$0.changed.isEmpty }
    #expect(renamed.changed == [vault.path("m.md")])
    #expect(renamed.removed.isEmpty)
  }
}
