import Waypoint

extension DropReason.Code {
  /// The crash-loop guard: the snapshot was restored too many times without the app confirming
  /// that its UI came up, so it is not restored again (it is kept, quarantined).
  public static let crashLoop = DropReason.Code(rawValue: "crashLoop")
  /// The store holding the snapshot could not be read; the message names the file and cause.
  public static let storeUnavailable = DropReason.Code(rawValue: "storeUnavailable")
}

extension DropReason {
  /// `DropReason.Code.crashLoop`: the snapshot was restored `unconfirmedRestores` times
  /// without the app confirming.
  public static func crashLoop(unconfirmedRestores: Int) -> Self {
    Self(
      .crashLoop,
      message:
        "crash loop: restored \(unconfirmedRestores) time\(unconfirmedRestores == 1 ? "" : "s") "
        + "without the app confirming, kept aside"
    )
  }

  /// `DropReason.Code.storeUnavailable`: `why` names the file and the cause.
  public static func storeUnavailable(_ why: String) -> Self {
    Self(.storeUnavailable, message: "store unavailable: \(why)")
  }
}
