import TagCore
import Testing

@Suite struct TagCloudTests {
  let tags = [
    CloudTag(title: "swift", tint: "orange"), CloudTag(title: "rust"), CloudTag(title: "go"),
  ]

  @Test func repeatedTitlesAreRefusedAndNamed() {
    #expect(TagCloud(tags: tags + [CloudTag(title: "rust")]) == nil)
    let repeated = TagCloud.firstRepeatedTitle(in: tags + [CloudTag(title: "rust")])
    #expect(repeated?.index == 3 && repeated?.first == 1)
    #expect(TagCloud.firstRepeatedTitle(in: tags) == nil)
  }

  @Test func toggleSelectsAndDeselects() throws {
    var cloud = try #require(TagCloud(tags: tags))
    let result1 = cloud.toggle("rust")
    #expect(result1 == true)
    let result2 = cloud.toggle("swift")
    #expect(result2 == true)
    #expect(cloud.selectedTitles == ["swift", "rust"])
    let result3 = cloud.toggle("rust")
    #expect(result3 == false)
    #expect(cloud.selectedTitles == ["swift"])
    let result4 = cloud.toggle("zig")
    #expect(result4 == nil)
    #expect(cloud.selectedTitles == ["swift"])
  }

  @Test func selectReplacesTheSelectionOrNamesTheUnknownTitle() throws {
    var cloud = try #require(TagCloud(tags: tags, selection: ["go"]))
    let result5 = cloud.select(["swift", "rust"])
    #expect(result5 == nil)
    #expect(cloud.selectedTitles == ["swift", "rust"])
    let result6 = cloud.select(["go", "zig"])
    #expect(result6 == "zig")
    #expect(cloud.selectedTitles == ["swift", "rust"])
  }

  @Test func replacingTagsKeepsTheSelectionOfRemainingTitles() throws {
    var cloud = try #require(TagCloud(tags: tags, selection: ["go", "rust"]))
    let result7 = cloud.replaceTags([CloudTag(title: "go"), CloudTag(title: "zig")])
    #expect(result7)
    #expect(cloud.selectedTitles == ["go"])
    #expect(cloud.index(of: "zig") == 1)
    let result8 = cloud.replaceTags([CloudTag(title: "a"), CloudTag(title: "a")])
    #expect(!result8)
    #expect(cloud.tags.map(\.title) == ["go", "zig"])
  }

  @Test func initialSelectionOfUnknownTitlesIsDropped() throws {
    let cloud = try #require(TagCloud(tags: tags, selection: ["go", "nope"]))
    #expect(cloud.selectedTitles == ["go"])
  }
}

@Suite struct SpacingTransitionTests {
  let sizes = [40.0, 40, 60, 50, 30, 70].map { Size(width: $0, height: 20) }

  @Test(arguments: [150.0, 100, 1000])
  func endsAreExactlyTheEndLayouts(width: Double) {
    let transition = SpacingTransition(from: 3, to: 18)
    #expect(
      transition.frames(of: sizes, width: width, progress: 0)
        == FlowLayout.cloud(sizes, width: width, spacing: 3)
    )
    #expect(
      transition.frames(of: sizes, width: width, progress: 1)
        == FlowLayout.cloud(sizes, width: width, spacing: 18)
    )
    #expect(
      transition.frames(of: sizes, width: width, progress: -2)
        == FlowLayout.cloud(sizes, width: width, spacing: 3)
    )
  }

  @Test func endsKeepTheSeedOrderOnFractionalSizes() {
    // Both ends are the cloud flow in the seed's order, x' = x + (width + spacing):
    // at 0.1: x1 = 0 + (0.1 + 0.1) = 0.2, x2 = 0.2 + (0.3 + 0.1) = 0.2 + 0.4 = 0.6000000000000001
    // at 3:   x1 = 0 + (0.1 + 3) = 3.1,  x2 = 3.1 + (0.3 + 3) = 3.1 + 3.3 = 6.4
    let sizes = [0.1, 0.3, 0.1].map { Size(width: $0, height: 0.1) }
    let transition = SpacingTransition(from: 0.1, to: 3)
    let start = transition.frames(of: sizes, width: nil, progress: 0).frames
    let end = transition.frames(of: sizes, width: nil, progress: 1).frames
    #expect(start.map(\.x) == [0, 0.2, 0.6000000000000001])
    #expect(end.map(\.x) == [0, 3.1, 6.4])
    let middle = transition.frames(of: sizes, width: nil, progress: 0.5).frames
    #expect(middle[2].x == 0.5 * 0.6000000000000001 + 0.5 * 6.4)
  }

  @Test func framesMoveOnStraightLinesBetweenTheEnds() {
    let transition = SpacingTransition(from: 3, to: 18)
    let start = FlowLayout.cloud(sizes, width: 150, spacing: 3).frames
    let end = FlowLayout.cloud(sizes, width: 150, spacing: 18).frames
    for progress in [0.25, 0.5, 0.75] {
      let frames = transition.frames(of: sizes, width: 150, progress: progress).frames
      for i in sizes.indices {
        #expect(frames[i].x == (1 - progress) * start[i].x + progress * end[i].x)
        #expect(frames[i].y == (1 - progress) * start[i].y + progress * end[i].y)
        #expect(frames[i].width == sizes[i].width)
      }
    }
  }
}
