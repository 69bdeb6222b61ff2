import Foundation

/// Progress of a long command, on stderr: drawn only when stderr is a terminal and the work has
/// run for more than a second, redrawn at most ten times a second, and erased when done.
final class Progress {
  private let console: Console
  private let label: String
  private let elapsed: () -> Duration
  private var lastDrawn: Duration?
  /// Whether a progress line is on the screen.
  private(set) var isVisible = false

  /// - Parameter elapsed: The time since the work started; by default measured from now (tests
  ///   pass their own).
  init(console: Console, label: String, elapsed: (() -> Duration)? = nil) {
    self.console = console
    self.label = label
    let start = ContinuousClock.now
    self.elapsed = elapsed ?? { ContinuousClock.now - start }
  }

  /// Reports that `count` items are done.
  func update(_ count: Int) {
    guard console.errIsTerminal else { return }
    let now = elapsed()
    guard now >= .seconds(1) else { return }
    if let lastDrawn, now - lastDrawn < .milliseconds(100) { return }
    lastDrawn = now
    console.writeErr(Data("\r\u{1B}[K\(label): \(count)".utf8))
    isVisible = true
  }

  /// Erases the progress line, if one was drawn.
  func finish() {
    guard isVisible else { return }
    console.writeErr(Data("\r\u{1B}[K".utf8))
    isVisible = false
  }
}
