// A libFuzzer entry point for Persistence's decoders: the document envelope decoder (with the
// syntax scanner behind its error messages) and the journal reader (with its line parser).
// It is compiled together with the module's sources, so it reaches their internals:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -O -package-name Offload \
//     Sources/Persistence/*.swift Sources/Persistence/*/*.swift Tools/Fuzz/PersistenceFuzz.swift \
//     -o .build/persistence-fuzz
//   .build/persistence-fuzz -max_total_time=60 -max_len=4096
//
// A crash or a sanitizer report is a bug; thrown errors are the expected outcome.

import Foundation

/// A document shape with the kinds of members real documents have.
struct FuzzDocument: Codable {
  var title: String
  var items: [FuzzItem]
}

/// An item: numbers, optional parent, a date.
struct FuzzItem: Codable {
  var id: Int
  var text: String
  var parentId: Int?
  var createdAt: Date
  var score: Double?
}

let fuzzFormat = DocumentFormat<FuzzDocument>(
  name: "fuzz.document", version: 2,
  migrations: [
    Migration(from: 1) { data in
      var data = data
      data["title"] = data["title"] ?? .string("")
      return data
    }
  ])

let fuzzDecoder = CanonicalJSON.decoder()

/// libFuzzer's entry point: decodes one input as a document and as a journal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  do {
    _ = try DocumentCodec.decode(data, format: fuzzFormat, path: "input")
  } catch {
    precondition(error.offset.map { $0 >= 0 && $0 <= count } ?? true, "offset out of range")
  }
  let scan = JournalScan<FuzzItem>.scan(data, path: "input", decoder: fuzzDecoder)
  precondition(scan.validLength <= count, "valid prefix longer than the input")
  _ = try? JournalLine.parse(UnsafeRawBufferPointer(start: start, count: count))
  return 0
}
