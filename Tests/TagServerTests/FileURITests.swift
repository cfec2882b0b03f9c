import TagProtocol
import Testing

/// `FileURI.path(ofURI:)`: what LSP clients send, and what is not a local file.
@Suite struct FileURITests {
  @Test(arguments: [
    ("file:///notes/a/n.md", "/notes/a/n.md"),
    ("FILE:///notes/a/n.md", "/notes/a/n.md"),
    ("File://localhost/notes/a/n.md", "/notes/a/n.md"),
    ("file://LOCALHOST/x", "/x"),
    ("file:///a%20b/caf%C3%A9.md", "/a b/café.md"),
    ("file:///a/caf%c3%a9.md", "/a/café.md"),
    ("file:///a/./b//c/", "/a/b/c"),
    ("file:///a/n.md?x=1", "/a/n.md"),
    ("file:///a/n.md#top", "/a/n.md"),
    ("file:///notes/café.md", "/notes/café.md"),
  ])
  func localPaths(uri: String, path: String) {
    #expect(FileURI.path(ofURI: uri) == path)
  }

  @Test(arguments: [
    "http:///a", "file:/a", "file://host/a", "file://", "file:a", "file:///a%2", "file:///a%zz",
    "file:///a%FF", "file:///a%00b", "untitled:Untitled-1", "fil", "",
  ])
  func notLocalPaths(uri: String) {
    #expect(FileURI.path(ofURI: uri) == nil)
  }

  /// A path written as a URI reads back as the same path.
  @Test(arguments: ["/a b/c#d?e.md", "/é/ü%.org", "/x"])
  func roundTrip(path: String) {
    #expect(FileURI.path(ofURI: FileURI.uri(ofPath: path)) == path)
  }
}
