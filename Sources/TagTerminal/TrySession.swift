import JSONRPC

/// The tag field behind `tagd try`: turns keys into requests to the tagd child and keeps the
/// ``FieldView`` up to date with the replies.
///
/// Uses the synchronous request path: the terminal owns its draft and sends it whole with
/// `field/change`, waiting for each reply (and a fresh `field/layout`) before the next key.
final class TrySession {
  /// The field id used with the child.
  static let fieldID = "try"

  private let child: TagdChild
  private(set) var view = FieldView()
  private(set) var columns: Int
  private var lastWasEscape = false

  /// Initializes the child and opens an empty field laid out `columns` cells wide.
  init(child: TagdChild, columns: Int) throws(TryError) {
    self.child = child
    self.columns = max(1, columns)
    _ = try child.request("initialize", ["processId": .null, "capabilities": [:]])
    try child.notify("initialized", [:])
    view.apply(state: try child.request("field/open", ["field": .string(Self.fieldID)]))
    view.status = ""
    try relayout()
  }

  /// Handles one key; returns false when the user asked to quit.
  ///
  /// Errors that tagd reports for a request are shown in the status line; only a broken
  /// conversation with the child is thrown.
  func handle(_ key: TerminalKey) throws(TryError) -> Bool {
    let escape = key == .escape
    defer { lastWasEscape = escape }
    do throws(TryError) {
      return try perform(key)
    } catch {
      guard case .response = error else { throw error }
      view.status = error.description
      return true
    }
  }

  /// Lays the field out again for a new terminal width.
  func resize(columns: Int) throws(TryError) {
    guard columns != self.columns else { return }
    self.columns = max(1, columns)
    try relayout()
  }

  private func perform(_ key: TerminalKey) throws(TryError) -> Bool {
    switch key {
    case .endOfInput, .interrupt:
      return false
    case .escape:
      if lastWasEscape { return false }
      view.selection = nil
    case .delete:
      if let selected = view.selection { try remove(selected) }
    case .text("x") where view.selection != nil:
      if let selected = view.selection { try remove(selected) }
    case .backspace where view.selection != nil:
      if let selected = view.selection { try remove(selected) }
    case .text(let text):
      view.selection = nil
      try change(view.draft + text)
    case .paste(let text):
      view.selection = nil
      try change(view.draft + text)
    case .enter:
      view.selection = nil
      try update("field/submit", ["field": .string(Self.fieldID)])
    case .backspace where !view.draft.isEmpty:
      var draft = view.draft
      draft.removeLast()  // one grapheme cluster, as a text box deletes
      try change(draft)
    case .backspace:
      try update("field/deleteBackward", ["field": .string(Self.fieldID)])
    case .left:
      guard !view.tags.isEmpty else { break }
      view.selection = max(0, (view.selection ?? view.tags.count) - 1)
    case .right:
      guard let selected = view.selection else { break }
      view.selection = selected + 1 < view.tags.count ? selected + 1 : nil
    }
    return true
  }

  private func change(_ text: String) throws(TryError) {
    try update("field/change", ["field": .string(Self.fieldID), "text": .string(text)])
  }

  private func remove(_ index: Int) throws(TryError) {
    try update(
      "field/removeTag",
      ["field": .string(Self.fieldID), "index": .integer(Int64(index))]
    )
  }

  /// Sends a request that answers with FieldState, then lays the field out again.
  private func update(_ method: String, _ params: JSONValue) throws(TryError) {
    view.apply(state: try child.request(method, params))
    try relayout()
  }

  private func relayout() throws(TryError) {
    let params: JSONValue = [
      "field": .string(Self.fieldID),
      "width": .integer(Int64(columns)),
      "cells": ["padding": 4],
      "fieldHeight": 1,
      "spacing": 1,
      "fieldMinWidth": 10,
    ]
    view.apply(layout: try child.request("field/layout", params))
  }
}
