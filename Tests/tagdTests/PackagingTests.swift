import TagServer
import TagTestSupport
import Testing

/// The Debian packages carry the version `tagd --version` prints: debian/changelog's newest
/// entry must be `ServerConfig.currentVersion` (debian/rules checks the built binary too).
@Suite struct PackagingTests {
  @Test func debianChangelogIsAtTheCurrentVersion() throws {
    let changelog = String(
      decoding: try #require(Files.read(packageRoot() + "/debian/changelog")),
      as: UTF8.self
    )
    let first = changelog.split(separator: "\n").first.map(String.init) ?? ""
    #expect(
      first.hasPrefix("tagd (\(ServerConfig.currentVersion)) "),
      """
      debian/changelog starts "\(first)" but tagd is \(ServerConfig.currentVersion): add an entry \
      (dch -v \(ServerConfig.currentVersion) "…")
      """
    )
  }
}
