import TagCore
import Testing

@Suite struct AnnouncementTests {
  @Test func nothingToSay() {
    #expect(Announcement.text(for: FieldOutcome(), tags: []) == nil)
    let empty = FieldOutcome(dropped: [DroppedCandidate(text: "", reason: .empty)])
    #expect(Announcement.text(for: empty, tags: []) == nil)
  }

  @Test func addedRemovedAndDropped() {
    var field = TagField(rules: FieldRules(maxTags: 3, maxTagLength: 4))
    let outcome = field.apply(.draftChanged("red, RED,green,blue,x,y,"))
    #expect(
      Announcement.text(for: outcome, tags: field.tags)
        == "Added red, blue and x. RED is already a tag, as red. green is longer than 4 characters. y was not added: the limit is 3 tags."
    )
    let removal = field.apply(.deletedBackward)
    #expect(Announcement.text(for: removal, tags: field.tags) == "Removed x.")
  }

  @Test func longListsAreCounted() {
    var field = TagField()
    let outcome = field.apply(.draftChanged("a,b,c,d,e,f,g,"))
    #expect(Announcement.text(for: outcome, tags: field.tags) == "Added 7 tags.")
  }
}
