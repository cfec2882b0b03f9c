/// The flow layout of SPEC §2: items left to right, wrapping onto new lines.
///
/// One engine with two policies: the tag field (chips narrowed to the width, a stretching text
/// field last) and the tag cloud (no narrowing, no field).
public enum FlowLayout {
  /// Lays out a tag field: chips in tag order, then the text field.
  ///
  /// - Parameters:
  ///   - chips: the measured size of each chip, in tag order.
  ///   - fieldHeight: the height of the text field.
  ///   - width: the available width, or nil for unbounded.
  ///   - spacing: the gap between items and between lines.
  ///   - fieldMinWidth: the text field's minimum width.
  /// - Returns: one frame per chip, then the field's frame; the size is the available width (or
  ///   the right-most edge when unbounded) by the lowest bottom edge.
  public static func field(
    chips: [Size],
    fieldHeight: Double,
    width: Double?,
    spacing: Double = 8,
    fieldMinWidth: Double = 96
  ) -> FlowResult {
    fatalError("unimplemented")
  }

  /// Lays out a tag cloud: the same flow without narrowing and without a text field.
  ///
  /// - Returns: one frame per item; the size is the right-most edge used by the lowest bottom edge.
  public static func cloud(_ sizes: [Size], width: Double?, spacing: Double = 16) -> FlowResult {
    fatalError("unimplemented")
  }
}
