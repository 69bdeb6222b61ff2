import Foundation
import Testing

@testable import WaypointCLI

/// `LineReader` reads the file in chunks into one buffer; lines must come out the same wherever
/// the chunks end.
@Suite("LineReader: lines, line numbers and the length limit across read chunks")
struct LineReaderTests {
  let directory = TemporaryDirectory()

  enum Outcome: Equatable {
    case lines([String])
    case tooLong(after: [String], number: Int)
  }

  func read(_ text: String, maxLineBytes: Int = 64, chunkBytes: Int) throws -> Outcome {
    let path = directory.path("lines-\(UUID().uuidString).txt")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    var reader = LineReader(handle: handle, maxLineBytes: maxLineBytes, chunkBytes: chunkBytes)
    var lines: [String] = []
    var number = 0
    do {
      while let (lineNumber, bytes) = try reader.next() {
        number += 1
        #expect(lineNumber == number)
        lines.append(String(decoding: bytes, as: UTF8.self))
      }
    } catch {
      guard case .lineTooLong(let number) = error else {
        Issue.record("unexpected \(error)")
        return .lines(lines)
      }
      return .tooLong(after: lines, number: number)
    }
    return .lines(lines)
  }

  @Test("every chunk size reads the same lines", arguments: [1, 2, 3, 7, 64, 1 << 20])
  func sameLinesAnyChunk(chunkBytes: Int) throws {
    let text = "first\nsecond\r\n\n  \r\n\rx\r\nlast without newline"
    #expect(
      try read(text, chunkBytes: chunkBytes)
        == .lines(["first", "second", "", "  ", "\rx", "last without newline"]))
    #expect(try read("", chunkBytes: chunkBytes) == .lines([]))
    #expect(try read("\n", chunkBytes: chunkBytes) == .lines([""]))
    #expect(try read("only\n", chunkBytes: chunkBytes) == .lines(["only"]))
    #expect(try read("a\r", chunkBytes: chunkBytes) == .lines(["a\r"]))
  }

  @Test("a line over the limit is refused with its number", arguments: [1, 5, 16, 1 << 20])
  func tooLong(chunkBytes: Int) throws {
    let limit = String(repeating: "x", count: 10)
    let over = limit + "y"
    // The limit counts a "\r" before the newline.
    let nine = String(limit.dropLast())
    #expect(
      try read("a\n\(limit)\n\(nine)\r\nb", maxLineBytes: 10, chunkBytes: chunkBytes)
        == .lines(["a", limit, nine, "b"]))
    #expect(
      try read("\(limit)\r\n", maxLineBytes: 10, chunkBytes: chunkBytes)
        == .tooLong(after: [], number: 1))
    #expect(
      try read("a\n\(over)\nb\n", maxLineBytes: 10, chunkBytes: chunkBytes)
        == .tooLong(after: ["a"], number: 2))
    #expect(
      try read("a\nb\n\(over)", maxLineBytes: 10, chunkBytes: chunkBytes)
        == .tooLong(after: ["a", "b"], number: 3))
    #expect(
      try read(String(repeating: "z", count: 5000), maxLineBytes: 10, chunkBytes: chunkBytes)
        == .tooLong(after: [], number: 1))
  }

  @Test("long lines grow the buffer past one chunk")
  func longLines() throws {
    let lines = (0..<50).map { String(repeating: String($0 % 10), count: $0 * 37) }
    #expect(
      try read(lines.joined(separator: "\n") + "\n", maxLineBytes: 4096, chunkBytes: 13)
        == .lines(lines))
  }
}
