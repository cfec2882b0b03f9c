import TagTestSupport
import Testing
import VaultFiles

#if canImport(Glibc)
import Glibc
#endif

/// The walk keeps SPEC §6d's rules: which names are notes, which entries are skipped, where
/// symbolic links may lead.
@Suite struct WalkTests {
  @Test func notesAreMarkdownAndOrgFilesOutsideDotEntries() throws {
    let vault = TemporaryFolder()
    for name in [
      "a.md", "b.markdown", "c.org", "d.txt", "e.MD", "mdfile", ".hidden.md", ".git/x.md",
      "sub/f.md", "sub/.trash/g.md", "sub/deeper/h.org", "a-c.md", "a/b.md",
    ] {
      vault.write(name, "x\n")
    }
    let listing = try VaultListing(root: vault.path)
    #expect(
      listing.notes.map(\.relativePath) == [
        "a-c.md", "a.md", "a/b.md", "b.markdown", "c.org", "sub/deeper/h.org", "sub/f.md",
      ]
    )
    #expect(
      listing.notes.map(\.kind) == [
        .markdown, .markdown, .markdown, .markdown, .org, .org, .markdown,
      ]
    )
    #expect(listing.notes.first?.path == vault.path + "/a-c.md")
    #expect(listing.folders == ["", "a", "sub", "sub/deeper"])
    #expect(listing.skipped.isEmpty)
  }

  @Test func linksAreFollowedOnlyInsideTheRoot() throws {
    let outside = TemporaryFolder()
    outside.write("secret.md", "#secret\n")
    outside.write("dir/also.md", "#secret\n")
    let vault = TemporaryFolder()
    vault.write("notes/real.md", "#a\n")
    vault.write("other/in.md", "#b\n")
    symlink(outside.path("secret.md"), vault.path("out.md"))
    symlink(outside.path("dir"), vault.path("outdir"))
    symlink(vault.path("other"), vault.path("notes/linked"))  // inside: followed
    symlink(vault.path("notes/real.md"), vault.path("alias.md"))  // same note twice
    symlink("../notes", vault.path("notes/loop"))  // a loop back up
    symlink(vault.path("nowhere.md"), vault.path("dangling.md"))
    let listing = try VaultListing(root: vault.path)
    // `other` is read under its own path; the link to it is the same folder, listed once.
    #expect(listing.notes.map(\.relativePath) == ["notes/real.md", "other/in.md"])
    #expect(listing.folders == ["", "notes", "other"])
    let skipped = Dictionary(
      uniqueKeysWithValues: listing.skipped.map { ($0.relativePath, $0.reason) }
    )
    #expect(skipped["out.md"] == .linkLeavesRoot(target: outside.path("secret.md")))
    #expect(skipped["outdir"] == .linkLeavesRoot(target: outside.path("dir")))
    #expect(skipped["alias.md"] == .sameFile(as: "notes/real.md"))
    #expect(skipped["dangling.md"] != nil)
    #expect(listing.skipped.count == 4)
  }

  @Test func aLinkedFolderInsideTheRootIsReadThroughTheLink() throws {
    let vault = TemporaryFolder()
    vault.write(".store/n.md", "#a\n")
    symlink(vault.path(".store"), vault.path("shown"))
    let listing = try VaultListing(root: vault.path)
    #expect(listing.notes.map(\.relativePath) == ["shown/n.md"])
    // Writes go to the real file, so the link stays a link.
    let real = try #require(listing.notes.first?.realPath)
    #expect(real.hasSuffix("/.store/n.md"))
  }

  @Test func aMissingRootIsAnError() {
    let vault = TemporaryFolder()
    #expect(throws: VaultFileError.self) { try VaultListing(root: vault.path("missing")) }
  }
}
