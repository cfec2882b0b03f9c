import JSONRPC

/// The tag field behind `tagd try`: turns keys into requests to the tagd child and keeps the
/// ``FieldView`` up to date with the replies.
///
/// Uses the synchronous request path: the terminal owns its draft and sends it whole with
/// `field/change`, waiting for each reply (and a fresh `field/layout`) before the next key.
final class TrySession {
  /// The field id used with the child.
  static let fieldID = "try"

  /// How many suggestions are shown under the field.
  static let suggestionLimit = 5

  private let child: TagdChild
  private(set) var view = FieldView()
  private(set) var columns: Int
  private var lastWasEscape = false
  private let suggests: Bool

  /// Initializes the child and opens an empty field laid out `columns` cells wide, with
  /// `suggestions` as its vocabulary.
  init(child: TagdChild, columns: Int, suggestions: [String] = []) throws(TryError) {
    self.child = child
    self.columns = max(1, columns)
    suggests = !suggestions.isEmpty
    // Suggestion ranges in code points, which map to characters without UTF-16 arithmetic.
    _ = try child.request(
      "initialize",
      [
        "processId": .null,
        "capabilities": ["general": ["positionEncodings": ["utf-32"]]],
      ]
    )
    try child.notify("initialized", [:])
    let params: JSONValue =
      suggests
      ? [
        "field": .string(Self.fieldID),
        "options": ["suggestions": .array(suggestions.map(JSONValue.string))],
      ]
      : ["field": .string(Self.fieldID)]
    view.apply(state: try child.request("field/open", params))
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
      view.highlighted = nil
    case .down:
      guard !view.suggestions.isEmpty else { break }
      view.highlighted = min((view.highlighted ?? -1) + 1, view.suggestions.count - 1)
    case .up:
      guard let index = view.highlighted else { break }
      view.highlighted = index > 0 ? index - 1 : nil
    case .tab:
      guard !view.suggestions.isEmpty else { break }
      try take(view.suggestions[view.highlighted ?? 0].text)
    case .enter where view.highlighted != nil:
      if let index = view.highlighted { try take(view.suggestions[index].text) }
    case .enter where view.selection != nil:
      // Enter on a selected chip edits it: its text comes back into the draft.
      if let selected = view.selection {
        view.selection = nil
        try update(
          "field/editTag",
          ["field": .string(Self.fieldID), "index": .integer(Int64(selected))]
        )
      }
    case .undo:
      view.selection = nil
      try update("field/undo", ["field": .string(Self.fieldID)])
    case .redo:
      view.selection = nil
      try update("field/redo", ["field": .string(Self.fieldID)])
    case .altLeft, .altRight:
      guard let selected = view.selection else { break }
      let target = key == .altLeft ? selected - 1 : selected + 1
      guard view.tags.indices.contains(target) else { break }
      try update(
        "field/moveTag",
        [
          "field": .string(Self.fieldID), "from": .integer(Int64(selected)),
          "to": .integer(Int64(target)),
        ]
      )
      view.selection = target
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

  /// Takes a suggestion: typed with a separator after it, so it is committed with the typed-tag
  /// rules and the draft it replaces comes back with one undo.
  private func take(_ suggestion: String) throws(TryError) {
    view.highlighted = nil
    view.selection = nil
    if suggestion.contains(",") || suggestion.contains("\n") || suggestion.contains("\r") {
      try update("field/addTags", ["field": .string(Self.fieldID), "tags": [.string(suggestion)]])
      try change("")
    } else {
      try change(suggestion + ",")
    }
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

  /// Sends a request that answers with FieldState, then lays the field out again and asks for
  /// suggestions for the new draft.
  private func update(_ method: String, _ params: JSONValue) throws(TryError) {
    let draftBefore = view.draft
    view.apply(state: try child.request(method, params))
    try relayout()
    guard suggests else { return }
    if view.draft != draftBefore { view.highlighted = nil }
    if view.draft.allSatisfy(\.isWhitespace) {
      view.suggestions = []
      view.highlighted = nil
    } else {
      view.apply(
        suggestions: try child.request(
          "field/suggest",
          [
            "field": .string(Self.fieldID), "limit": .integer(Int64(Self.suggestionLimit)),
          ]
        )
      )
    }
  }

  private func relayout() throws(TryError) {
    let params: JSONValue = [
      "field": .string(Self.fieldID),
      "width": .integer(Int64(columns)),
      "cells": ["left": .string(TryScreen.chipLeft), "right": .string(TryScreen.chipRight)],
      "fieldHeight": 1,
      "spacing": 1,
      "fieldMinWidth": 10,
    ]
    view.apply(layout: try child.request("field/layout", params))
  }
}
