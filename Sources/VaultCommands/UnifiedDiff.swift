public import TagCore

/// A unified diff (`diff -u` style, 3 lines of context) of a text and the same text with
/// `edits` applied, built straight from the edits: only the lines they touch are compared.
public enum UnifiedDiff {
  /// `bytes` with `edits` applied (edits not overlapping, in any order).
  public static func apply(_ edits: [DocumentEdit], to bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + 64)
    var at = 0
    for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      result += bytes[at..<edit.range.lowerBound]
      result += edit.newText.utf8
      at = edit.range.upperBound
    }
    result += bytes[at...]
    return result
  }

  /// The diff of `bytes` and `bytes` with `edits` applied, labelled `a/PATH` and `b/PATH`;
  /// empty when the edits change nothing.
  public static func diff(
    path: String,
    _ bytes: [UInt8],
    _ edits: [DocumentEdit],
    context: Int = 3
  ) -> [UInt8] {
    let lines = lineRanges(bytes)
    let sorted = edits.sorted { $0.range.lowerBound < $1.range.lowerBound }
    // Each change: the old lines it covers and the new lines that replace them.
    var changes: [(old: Range<Int>, new: [ArraySlice<UInt8>])] = []
    var index = 0
    while index < sorted.count {
      var first = line(containing: sorted[index].range.lowerBound, lines)
      var last = line(
        containing: max(sorted[index].range.upperBound - 1, sorted[index].range.lowerBound),
        lines
      )
      var group = [sorted[index]]
      index += 1
      while index < sorted.count, line(containing: sorted[index].range.lowerBound, lines) <= last {
        let edit = sorted[index]
        last = max(
          last,
          line(containing: max(edit.range.upperBound - 1, edit.range.lowerBound), lines)
        )
        group.append(edit)
        index += 1
      }
      first = max(0, first)
      let start = lines[first].lowerBound
      let end = lines[last].upperBound
      let shifted = group.map {
        DocumentEdit(
          range: ($0.range.lowerBound - start)..<($0.range.upperBound - start),
          newText: $0.newText
        )
      }
      let region = apply(shifted, to: Array(bytes[start..<end]))
      if region[...] == bytes[start..<end] { continue }
      let newLines = lineRanges(region).map { region[$0] }
      changes.append((first..<(last + 1), newLines.filter { !$0.isEmpty }))
    }
    guard !changes.isEmpty else { return [] }
    var out: [UInt8] = Array("--- a/\(path)\n+++ b/\(path)\n".utf8)
    var delta = 0  // new line number minus old line number, before the current hunk
    var hunkStart = 0
    while hunkStart < changes.count {
      var hunkEnd = hunkStart + 1
      while hunkEnd < changes.count,
        changes[hunkEnd].old.lowerBound - changes[hunkEnd - 1].old.upperBound <= 2 * context
      {
        hunkEnd += 1
      }
      let oldFrom = max(0, changes[hunkStart].old.lowerBound - context)
      let oldTo = min(lines.count, changes[hunkEnd - 1].old.upperBound + context)
      var body: [UInt8] = []
      var oldCount = 0
      var newCount = 0
      var at = oldFrom
      var hunkDelta = 0
      for change in changes[hunkStart..<hunkEnd] {
        while at < change.old.lowerBound {
          emit(" ", bytes[lines[at]], to: &body)
          at += 1
          oldCount += 1
          newCount += 1
        }
        for old in change.old {
          emit("-", bytes[lines[old]], to: &body)
          oldCount += 1
        }
        for new in change.new {
          emit("+", new, to: &body)
          newCount += 1
        }
        hunkDelta += change.new.count - change.old.count
        at = change.old.upperBound
      }
      while at < oldTo {
        emit(" ", bytes[lines[at]], to: &body)
        at += 1
        oldCount += 1
        newCount += 1
      }
      let newFrom = oldFrom + delta
      out += Array("@@ -\(range(oldFrom, oldCount)) +\(range(newFrom, newCount)) @@\n".utf8)
      out += body
      delta += hunkDelta
      hunkStart = hunkEnd
    }
    return out
  }

  /// A hunk's range as GNU diff writes it: 1-based start, count omitted when 1, and the line
  /// before when empty.
  private static func range(_ start: Int, _ count: Int) -> String {
    switch count {
    case 0: "\(start),0"
    case 1: "\(start + 1)"
    default: "\(start + 1),\(count)"
    }
  }

  private static func emit(_ mark: String, _ line: ArraySlice<UInt8>, to out: inout [UInt8]) {
    out += mark.utf8
    out += line
    if line.last != 0x0A { out += Array("\n\\ No newline at end of file\n".utf8) }
  }

  /// The byte range of each line, its `\n` included (the last may lack one; an empty text has
  /// one empty line).
  static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    var start = 0
    for (offset, byte) in bytes.enumerated() where byte == 0x0A {
      result.append(start..<(offset + 1))
      start = offset + 1
    }
    if start < bytes.count || result.isEmpty { result.append(start..<bytes.count) }
    return result
  }

  /// The index of the line holding byte `offset` (the last line for the end of the text).
  private static func line(containing offset: Int, _ lines: [Range<Int>]) -> Int {
    var low = 0
    var high = lines.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lines[mid].lowerBound <= offset { low = mid } else { high = mid - 1 }
    }
    return low
  }
}
