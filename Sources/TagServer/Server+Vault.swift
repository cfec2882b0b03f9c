import JSONRPC
import TagCore
import TagProtocol

// SPEC §6d: the vaults, their index, the editor's open notes, and the requests parked until
// the index is ready. Everything here is pure: file work is asked of the executable as
// ``VaultTask``s in the outbox, and its outcome comes back as ``ServerEvent``s.

extension Server {
  // MARK: Vaults

  /// Starts serving the folders named by `uris` as vaults (URIs that name no local folder are
  /// logged and skipped).
  mutating func addVaults(_ uris: [String], outbox: inout Outbox) {
    for uri in uris {
      guard let path = FileURI.path(ofURI: uri) else {
        outbox.log(.warning, "ignored workspace folder \(uri): not a file:// URI of a local folder")
        continue
      }
      addVault(path: path, outbox: &outbox)
    }
  }

  /// Starts serving the folder at `path` as a vault.
  mutating func addVault(path: String, outbox: inout Outbox) {
    let path = FileURI.normalized(path)
    guard !vault.roots.values.contains(where: { $0.path == path }) else { return }
    let number = vault.nextVault
    vault.nextVault += 1
    vault.roots[number] = VaultState.Root(path: path)
    outbox.vaultTasks.append(.index(vault: number, root: path))
    outbox.log(.info, "vault \(path): indexing")
  }

  /// Stops serving the folders named by `uris`.
  mutating func removeVaults(_ uris: [String], outbox: inout Outbox) {
    for uri in uris {
      guard let path = FileURI.path(ofURI: uri),
        let number = vault.roots.first(where: { $0.value.path == path })?.key
      else {
        outbox.log(.warning, "ignored removed workspace folder \(uri): not a vault")
        continue
      }
      let root = vault.roots.removeValue(forKey: number)
      vault.vocabularies[number] = nil
      outbox.vaultTasks.append(.forget(vault: number))
      let state = vault
      vault.removeNotes { root?.holds($0) == true && state.vault(holding: $0) == nil }
      outbox.log(.info, "vault \(path): no longer served")
    }
    answerParked(outbox: &outbox)
  }

  // MARK: Events from the executable

  /// Handles what the executable's file work found.
  mutating func handle(vaultEvent event: ServerEvent, into outbox: inout Outbox) {
    defer { publishDiagnostics(outbox: &outbox) }
    switch event {
    case .notesRead(let notes):
      for note in notes
      where vault.open[note.path] == nil && vault.vault(holding: note.path) != nil {
        vault.update(note.path, tags: note.tags, title: note.title)
      }
    case .notesGone(let paths):
      for gone in paths {
        if vault.open[gone] == nil { vault.remove(gone) }
        // A folder: every note below it (one pass over the names, only for folders gone).
        if NoteKind(fileName: gone) == nil {
          let prefix = gone + "/"
          vault.removeNotes { $0.hasPrefix(prefix) }
        }
      }
    case .vaultIndexed(let number, let paths):
      guard let root = vault.roots[number] else { return }
      let found = Set(paths)
      vault.removeNotes { root.holds($0) && !found.contains($0) }
      if !root.indexed {
        vault.roots[number]?.indexed = true
        outbox.log(.info, "vault \(root.path): \(found.count) notes indexed")
      }
      answerParked(outbox: &outbox)
    case .vocabularyRead(let number, let text):
      guard let root = vault.roots[number] else { return }
      vault.vocabularies[number] = nil
      guard let text else { return }
      do throws(VocabularyError) {
        vault.vocabularies[number] = try Vocabulary.parse(text)
      } catch {
        outbox.log(
          .warning,
          "vault \(root.path): .tagd.toml \(error.description); the vault is served without a vocabulary"
        )
      }
    case .rereadDone(let ticket):
      vault.rereading.remove(ticket)
      answerParked(outbox: &outbox)
    case .textsRead(let ticket, let texts):
      guard let at = vault.parked.firstIndex(where: { $0.ticket == ticket }) else { return }
      let parked = vault.parked.remove(at: at)
      vault.delivered = [:]
      for text in texts { vault.delivered[text.path] = text.bytes }
      answer(parked.request, id: parked.id, outbox: &outbox)
      vault.delivered = [:]
      finishIfClosing(outbox: &outbox)
    default:
      return
    }
  }

  // MARK: Parking

  /// Answers `request` now, or parks it until the index is ready.
  ///
  /// Returns whether it was answered.
  mutating func answerOrPark<R: ServedRequest>(
    _ request: R,
    id: RequestID,
    outbox: inout Outbox
  ) -> Bool {
    guard R.needsIndex, !vault.isReady else {
      return answer(request, id: id, outbox: &outbox)
    }
    vault.parked.append(VaultState.Parked(id: id, request: request, ticket: nil))
    outbox.log(.debug, "parked \(R.method) until the vaults are indexed")
    return false
  }

  /// Answers `request`, or parks it again while the notes' texts it needs are read.
  ///
  /// Returns whether it was answered.
  @discardableResult
  mutating func answer<R: ServedRequest>(
    _ request: R,
    id: RequestID,
    outbox: inout Outbox
  ) -> Bool {
    if vault.delivered.isEmpty, let paths = request.notesToRead(on: self), !paths.isEmpty {
      let ticket = vault.ticket()
      vault.parked.append(VaultState.Parked(id: id, request: request, ticket: ticket))
      outbox.vaultTasks.append(.readTexts(ticket: ticket, paths: paths))
      return false
    }
    do throws(RequestError) {
      let result = try request.perform(on: &self, outbox: &outbox)
      outbox.write { $0.response(id: id) { $0.write(result) } }
    } catch {
      outbox.write { $0.errorResponse(id: id, error: ResponseError(error)) }
    }
    return true
  }

  /// Answers the requests parked for the index, in arrival order, once every vault is indexed.
  mutating func answerParked(outbox: inout Outbox) {
    guard vault.isReady else { return }
    let waiting = vault.parked.filter { $0.ticket == nil }
    vault.parked.removeAll { $0.ticket == nil }
    for parked in waiting { answer(parked.request, id: parked.id, outbox: &outbox) }
    finishIfClosing(outbox: &outbox)
  }

  /// stdin ended: exit now, or once the parked requests are answered.
  mutating func inputClosed(outbox: inout Outbox) {
    guard vault.parked.isEmpty else {
      vault.closing = true
      outbox.log(.info, "stdin closed; answering \(vault.parked.count) parked requests first")
      return
    }
    outbox.log(.info, "stdin closed; exiting")
    outbox.exitCode = lifecycle == .shutDown ? 0 : 1
  }

  private mutating func finishIfClosing(outbox: inout Outbox) {
    guard vault.closing, vault.parked.isEmpty else { return }
    vault.closing = false
    inputClosed(outbox: &outbox)
  }

  // MARK: Open notes

  /// The editor opened `uri`: its text is the note's from now on.
  mutating func opened(_ n: DidOpenTextDocumentNotification, outbox: inout Outbox) {
    guard let path = notePath(n.uri, outbox: &outbox) else { return }
    vault.open[path] = VaultState.OpenNote(
      text: n.text,
      version: n.version,
      kind: NoteKind(fileName: path) ?? .markdown,
      uri: n.uri
    )
    reindexOpen(path, outbox: &outbox)
  }

  /// The editor changed an open note.
  mutating func changed(_ n: DidChangeTextDocumentNotification, outbox: inout Outbox) {
    guard let path = notePath(n.uri, outbox: &outbox) else { return }
    guard var note = vault.open[path] else {
      outbox.log(.warning, "ignored textDocument/didChange of \(n.uri): it was never opened")
      return
    }
    do throws(TextEditError) {
      note.text = try TextOffsets.apply(n.changes, to: note.text, encoding: positionEncoding)
      note.version = n.version
      vault.open[path] = note
      reindexOpen(path, outbox: &outbox)
    } catch {
      outbox.log(
        .warning,
        "ignored textDocument/didChange of \(n.uri) (version \(n.version)): \(error.explanation); send the whole text to resynchronise"
      )
    }
  }

  /// The editor saved an open note (with its text when the client includes it).
  mutating func saved(_ n: DidSaveTextDocumentNotification, outbox: inout Outbox) {
    guard let path = notePath(n.uri, outbox: &outbox), let text = n.text else { return }
    vault.open[path]?.text = text
    reindexOpen(path, outbox: &outbox)
  }

  /// The editor closed a note: it is read from the disk again.
  mutating func closed(_ n: DidCloseTextDocumentNotification, outbox: inout Outbox) {
    guard let path = notePath(n.uri, outbox: &outbox) else { return }
    clearDiagnostics(of: path, outbox: &outbox)
    guard vault.open.removeValue(forKey: path) != nil else {
      outbox.log(.warning, "ignored textDocument/didClose of \(n.uri): it was never opened")
      return
    }
    if vault.vault(holding: path) != nil { reread([path], outbox: &outbox) }
  }

  /// The client saw files change on disk.
  mutating func watchedFilesChanged(
    _ n: DidChangeWatchedFilesNotification,
    outbox: inout Outbox
  ) {
    var paths: [String] = []
    for uri in n.uris {
      guard let path = FileURI.path(ofURI: uri) else {
        outbox.log(.warning, "ignored watched-file change of \(uri): not a file:// URI")
        continue
      }
      if let (number, root) = vault.roots.first(where: {
        VaultState.Root.vocabularyPath(of: $0.value.path) == path
      }) {
        outbox.vaultTasks.append(.readVocabulary(vault: number, root: root.path))
        continue
      }
      if vault.open[path] == nil, vault.vault(holding: path) != nil { paths.append(path) }
    }
    if !paths.isEmpty { reread(paths, outbox: &outbox) }
  }

  /// Asks for `paths` to be read again; requests that need the index wait until they are.
  private mutating func reread(_ paths: [String], outbox: inout Outbox) {
    let ticket = vault.ticket()
    vault.rereading.insert(ticket)
    outbox.vaultTasks.append(.reread(ticket: ticket, paths: paths))
  }

  /// The path of note `uri`, or nil (logged) when it names no local file.
  private func notePath(_ uri: String, outbox: inout Outbox) -> String? {
    guard let path = FileURI.path(ofURI: uri) else {
      outbox.log(.debug, "not indexed: \(uri) is not a file:// URI")
      return nil
    }
    return path
  }

  /// Indexes the open note at `path` from the editor's text, then publishes what changed.
  private mutating func reindexOpen(_ path: String, outbox: inout Outbox) {
    defer { publishDiagnostics(outbox: &outbox) }
    guard let note = vault.open[path], vault.vault(holding: path) != nil,
      NoteKind(fileName: path) != nil
    else { return }
    let reading = NoteReader.read(note.text, kind: note.kind, title: true)
    vault.update(path, tags: reading.tags, title: reading.title)
  }

  // MARK: Queries

  /// `vault/tags`.
  func vaultTags(prefix: String?, limit: Int?) -> VaultTagsResult {
    VaultTagsResult(tags: vault.index.tags(prefix: prefix, limit: limit))
  }

  /// `vault/notes`.
  func vaultNotes(_ request: VaultNotesRequest) -> VaultNotesResult {
    let match: VaultIndex.Match = request.match == .any ? .any : .all
    return VaultNotesResult(
      notes: vault.index.notes(carrying: request.tags, match: match).map {
        (FileURI.uri(ofPath: $0), vault.index.title(of: $0))
      }
    )
  }
}
