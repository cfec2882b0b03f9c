import TagCore
import VaultFiles

/// `tagd rename FROM TO [DIR] [--dry-run]`.
enum RenameCommand {
  /// A note the rename changes: what was read and the edits.
  struct Planned: Sendable {
    var file: NoteFile
    var original: NoteBytes
    var plan: NoteRename.Plan
  }

  /// What renaming found in one note.
  enum Outcome: Sendable {
    case untouched
    case planned(Planned)
    case refused(RenameError)
    case skipped(SkipReason)
  }

  static func run(_ request: Request) -> Int32 {
    let listing: VaultListing
    do {
      listing = try VaultListing(root: request.directory)
    } catch {
      Output.error.write("tagd rename: \(error)\n")
      return 2
    }
    let (from, to) = (request.from, request.to)
    let outcomes = NoteFiles.map(
      listing.notes,
      threads: request.threads,
      maxBytes: request.maxNoteBytes
    ) {
      file,
      result -> Outcome in
      switch result {
      case .failure(let reason): return .skipped(reason)
      case .success(let note):
        do throws(RenameError) {
          let plan = try NoteRename.plan(
            DocumentText(utf8: note.bytes, lineStarts: nil),
            kind: file.kind.noteKind,
            from: from,
            to: to
          )
          return plan.edits.isEmpty
            ? .untouched : .planned(Planned(file: file, original: note, plan: plan))
        } catch {
          return .refused(error)
        }
      }
    }
    var planned: [Planned] = []
    var refusals: [String] = []
    var problems: [String] = listing.skipped.map {
      "tagd: skipped \(visible($0.relativePath)): \($0.reason)\n"
    }
    for (file, outcome) in zip(listing.notes, outcomes) {
      switch outcome {
      case .untouched: break
      case .planned(let note): planned.append(note)
      case .refused(let error):
        refusals.append(
          "tagd rename: \(visible(file.relativePath)): \(visible(error.description))\n"
        )
      case .skipped(let reason):
        problems.append("tagd: skipped \(visible(file.relativePath)): \(reason)\n")
      }
    }
    for problem in problems { Output.error.write(problem) }
    guard refusals.isEmpty else {
      for refusal in refusals { Output.error.write(refusal) }
      Output.error.write("tagd rename: nothing written\n")
      return 1
    }
    if request.dryRun {
      for note in planned {
        Output.standard.write(
          UnifiedDiff.diff(path: note.file.relativePath, note.original.bytes, note.plan.edits)
        )
      }
      return 0
    }
    let results = AtomicWrite.replaceAll(
      planned.map {
        Replacement(
          path: $0.file.writePath,
          original: $0.original,
          bytes: UnifiedDiff.apply($0.plan.edits, to: $0.original.bytes)
        )
      }
    )
    var written = 0
    var merged = 0
    var status: Int32 = 0
    var report = ""
    for (note, result) in zip(planned, results) {
      switch result {
      case .success:
        written += 1
        if note.plan.merged { merged += 1 }
        report += visible(note.file.relativePath) + "\n"
      case .failure(.changedOnDisk):
        status = 1
        Output.error.write(
          "tagd rename: \(visible(note.file.relativePath)) changed on disk since it was read; "
            + "not written\n"
        )
      case .failure(.failed(let error)):
        status = 1
        Output.error.write("tagd rename: \(visible(note.file.relativePath)): \(error)\n")
      }
    }
    let notes = written == 1 ? "1 note" : "\(written) notes"
    let merges = merged == 0 ? "" : " (\(merged) merged into an existing \(visible(to)))"
    report += "renamed \(visible(from)) to \(visible(to)) in \(notes)\(merges)\n"
    Output.standard.write(report)
    return status
  }
}
