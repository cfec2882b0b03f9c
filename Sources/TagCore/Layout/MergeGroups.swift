/// The merge groups of SPEC §3: tags whose frames are closer than a distance blend into one shape.
public enum MergeGroups {
  /// The connected components of the "closer than `mergeDistance`" relation.
  ///
  /// - Returns: groups of ascending indices, ordered by their first index; lone frames are groups
  ///   of one.
  public static func groups(of frames: [Frame], mergeDistance: Double = 10) -> [[Int]] {
    fatalError("unimplemented")
  }

  /// The length of the shortest segment joining two rectangles; 0 when they overlap or touch.
  public static func distance(_ a: Frame, _ b: Frame) -> Double {
    fatalError("unimplemented")
  }
}
