import TagServer

@testable import tagd

extension Server {
  /// Handles `event`, then does at once, on this thread, the file work it asks for (the
  /// executable's worker does it on background threads) and hands the server what it found,
  /// until no work is left: a replayed transcript sees each vault indexed before its next
  /// message.
  mutating func handleNow(_ event: ServerEvent, into outbox: inout Outbox) {
    handle(event, into: &outbox)
    while !outbox.vaultTasks.isEmpty {
      let tasks = outbox.vaultTasks
      outbox.vaultTasks = []
      for task in tasks {
        for case .event(let found) in VaultWorker.run(task, watch: false) {
          handle(found, into: &outbox)
        }
      }
    }
  }
}
