import Foundation

/// The sha256 of every file under `folder`, names included, one `sha256sum` line each in byte
/// order of the names: two folders with the same digest hold the same files byte for byte.
///
/// - Complexity: O(*b*) over the *b* bytes of the folder's files.
public func folderDigest(_ folder: String) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = [
    "-c", "cd \"$1\" && find . -type f | LC_ALL=C sort | xargs -d '\\n' sha256sum", "sh", folder,
  ]
  let out = Pipe()
  process.standardOutput = out
  try process.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self)
}
