import Foundation
public import Persistence

/// Writes an XMP rating and label into a photo's sidecar file, merging into an existing
/// sidecar, and reads them back.
///
/// darktable and digiKam name a sidecar after the whole file name (`photo.jpg.xmp`); Adobe
/// Lightroom, Bridge and Capture One replace the extension (`photo.xmp`) and read sidecars for
/// raw files only. An existing sidecar of either name is updated in place (its other fields
/// untouched); a new one is named by ``Naming``. The file is replaced atomically (temporary
/// file, fsync, rename, folder fsync), so a crash leaves the old sidecar or the new one.
public enum XMPSidecar {
  /// How a new sidecar is named.
  public enum Naming: String, Hashable, Sendable, CaseIterable, Codable {
    /// `photo.jpg.xmp`: darktable and digiKam (the default of both).
    case appendExtension
    /// `photo.xmp`: Lightroom, Bridge, Capture One (raw files); digiKam optionally.
    case replaceExtension
  }

  /// The sidecar paths that may belong to `photo`, in the order they are looked for.
  ///
  /// - Complexity: O(*m*), where *m* is the length of the path.
  public static func candidates(for photo: String, naming: Naming) -> [String] {
    var stem = photo
    let name = PathName.lastComponent(of: photo)
    if let dot = name.lastIndex(of: "."), dot != name.startIndex {
      stem = String(photo.dropLast(name.distance(from: dot, to: name.endIndex)))
    }
    let appended = [photo + ".xmp", photo + ".XMP"]
    let replaced = stem == photo ? [] : [stem + ".xmp", stem + ".XMP"]
    return naming == .appendExtension ? appended + replaced : replaced + appended
  }

  /// Sets `xmp:Rating` in the photo's sidecar, creating the sidecar when there is none.
  ///
  /// - Parameters:
  ///   - rating: The rating to set.
  ///   - photo: The photo's path.
  ///   - naming: How a new sidecar is named.
  ///   - cleanUp: Also remove temporary files a crash during an earlier write left next to the
  ///     sidecar (lists the folder, so only when resuming).
  ///   - syncFolder: Sync the folder after the rename; false when the caller syncs it later,
  ///     once for many sidecars.
  ///   - fileSystem: The file operations used.
  /// - Returns: The sidecar's path and whether it was written (false when it already had the
  ///   rating).
  /// - Throws: ``PhotoSessionError/Code/sidecarFailed`` when the existing sidecar is not an XMP
  ///   packet (it is left untouched) or the folder cannot be written (read-only).
  /// - Complexity: O(*s*), where *s* is the size of the sidecar (O(*f*) more for `cleanUp`,
  ///   *f* files in the folder).
  public static func setRating(
    _ rating: Int, forPhoto photo: String, naming: Naming = .appendExtension,
    cleanUp: Bool = false, syncFolder: Bool = true,
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) throws(PhotoSessionError) -> (path: String, written: Bool) {
    try set(
      rating: rating, label: nil, forPhoto: photo, naming: naming, cleanUp: cleanUp,
      syncFolder: syncFolder, fileSystem: fileSystem)
  }

  /// Sets `xmp:Rating` and `xmp:Label` (each when not nil) in the photo's sidecar, creating
  /// the sidecar when there is none; every other byte of an existing sidecar is kept.
  ///
  /// - Parameters:
  ///   - rating: The rating to set (-1 for a reject, 0 to 5 stars), or nil to leave it.
  ///   - label: The label to set (`Red`, ...), or nil to leave it.
  ///   - photo: The photo's path.
  ///   - naming: How a new sidecar is named.
  ///   - cleanUp: Also remove temporary files an earlier, interrupted write left.
  ///   - syncFolder: Sync the folder after the rename.
  ///   - fileSystem: The file operations used.
  /// - Returns: The sidecar's path and whether it was written (false when it already had
  ///   these values).
  /// - Throws: ``PhotoSessionError/Code/sidecarFailed`` as
  ///   ``setRating(_:forPhoto:naming:cleanUp:syncFolder:fileSystem:)``.
  /// - Complexity: O(*s*), where *s* is the size of the sidecar (O(*f*) more for `cleanUp`,
  ///   *f* files in the folder).
  public static func set(
    rating: Int?, label: String?, forPhoto photo: String, naming: Naming = .appendExtension,
    cleanUp: Bool = false, syncFolder: Bool = true,
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) throws(PhotoSessionError) -> (path: String, written: Bool) {
    let io = PhotoFiles(fileSystem)
    if cleanUp {
      let folder = PathName.directory(of: photo)
      let prefixes = candidates(for: photo, naming: naming).map {
        "." + PathName.lastComponent(of: $0) + ".tmp-"
      }
      for name in (try? io.names(in: folder)) ?? []
      where prefixes.contains(where: { name.hasPrefix($0) }) {
        io.removeQuietly(PathName.join(folder, name))
      }
    }
    let existing = try existingSidecar(for: photo, naming: naming, fileSystem: fileSystem)
    let path = existing?.path ?? candidates(for: photo, naming: naming)[0]
    var fields: [(String, String)] = []
    if let rating { fields.append(("Rating", String(rating))) }
    if let label { fields.append(("Label", label)) }
    var text = existing?.text ?? newPacket(fields)
    var changed = existing == nil
    for (name, value) in fields {
      if let merged = try merge(property: name, value: value, into: text, path: path) {
        text = merged
        changed = true
      }
    }
    guard changed else { return (path, false) }
    do {
      try io.writeAtomically(Array(text.utf8), to: path, syncFolder: syncFolder)
    } catch {
      throw PhotoSessionError(
        .sidecarFailed, path: path, errno: error.errno,
        description:
          "cannot write the sidecar \"\(path)\": \(error.errno.map { PhotoFiles.reason($0) } ?? error.description)"
      )
    }
    return (path, true)
  }

  /// The first existing sidecar of `photo` (a regular file among ``candidates(for:naming:)``)
  /// with its text, or nil.
  ///
  /// - Complexity: O(*s*), where *s* is the size of the sidecar.
  static func existingSidecar(
    for photo: String, naming: Naming,
    fileSystem: any Persistence.FileSystem = POSIXFileSystem()
  ) throws(PhotoSessionError) -> (path: String, text: String)? {
    let io = PhotoFiles(fileSystem)
    for candidate in candidates(for: photo, naming: naming) {
      if let status = try io.status(candidate), status.kind == .regular {
        return (candidate, String(decoding: try io.readAll(candidate), as: UTF8.self))
      }
    }
    return nil
  }

  /// The `xmp:Rating` and `xmp:Label` an XMP packet holds (attribute or element form), each
  /// nil when absent or (for the rating) not an integer from -1 to 5.
  ///
  /// - Complexity: O(*s*), where *s* is the length of the text.
  public static func read(_ text: String) -> (rating: Int?, label: String?) {
    let rating = valueRange(of: "Rating", in: text).flatMap { Int(text[$0].trimmingWhitespace) }
    let label = valueRange(of: "Label", in: text).map {
      String(text[$0].trimmingWhitespace)
    }
    return (
      rating.flatMap { (-1...5).contains($0) ? $0 : nil }, label?.isEmpty == false ? label : nil
    )
  }

  /// A new XMP packet holding only `fields` (`xmp:` property names and values).
  static func newPacket(_ fields: [(String, String)]) -> String {
    let attributes = fields.map { "\n   xmp:\($0.0)=\"\(escaped($0.1))\"" }.joined()
    return """
      <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
      <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Offload">
       <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about=""
          xmlns:xmp="http://ns.adobe.com/xap/1.0/"\(attributes)/>
       </rdf:RDF>
      </x:xmpmeta>
      <?xpacket end="w"?>

      """
  }

  /// A new XMP packet holding only the rating.
  static func newPacket(rating: Int) -> String {
    newPacket([("Rating", String(rating))])
  }

  /// `text` with the XML special characters escaped, for an attribute value.
  private static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      default: result.append(character)
      }
    }
    return result
  }

  /// The range of the value of `xmp:NAME`, as an attribute (`xmp:Rating="3"`) or an element
  /// (`<xmp:Rating>3</xmp:Rating>`), or nil.
  static func valueRange(of name: String, in text: String) -> Range<String.Index>? {
    for quote in ["\"", "'"] {
      var search = text.startIndex..<text.endIndex
      while let range = text.range(of: "xmp:\(name)=\(quote)", range: search) {
        // `xmp:Rating=` must not be the tail of another name (`MicrosoftPhoto:xmp:...`).
        let before =
          range.lowerBound == text.startIndex ? " " : text[text.index(before: range.lowerBound)]
        if before.isWhitespace {
          guard let close = text[range.upperBound...].firstIndex(of: Character(quote)) else {
            break
          }
          return range.upperBound..<close
        }
        search = range.upperBound..<text.endIndex
      }
    }
    if let open = text.range(of: "<xmp:\(name)>"),
      let close = text.range(of: "</xmp:\(name)>", range: open.upperBound..<text.endIndex)
    {
      return open.upperBound..<close.lowerBound
    }
    return nil
  }

  /// The sidecar text with `xmp:Rating` set, or nil when it already has that rating.
  static func merge(
    rating: Int, into text: String, path: String
  ) throws(PhotoSessionError) -> String? {
    try merge(property: "Rating", value: String(rating), into: text, path: path)
  }

  /// The sidecar text with `xmp:NAME` set to `value`, or nil when it already has that value.
  ///
  /// An attribute (`xmp:Rating="3"`) or element (`<xmp:Rating>3</xmp:Rating>`) is replaced;
  /// otherwise the attribute is added to the first `rdf:Description` (declaring the `xmp`
  /// namespace when the packet does not). Everything else is kept byte for byte.
  ///
  /// - Throws: ``PhotoSessionError/Code/sidecarFailed`` when the text has no `rdf:RDF`.
  static func merge(
    property name: String, value: String, into text: String, path: String
  ) throws(PhotoSessionError) -> String? {
    let value = escaped(value)
    if let range = valueRange(of: name, in: text) {
      if text[range].trimmingWhitespace == value { return nil }
      return text.replacingCharacters(in: range, with: value)
    }
    let declare =
      text.contains("xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"")
        || text.contains("xmlns:xmp='http://ns.adobe.com/xap/1.0/'")
      ? "" : " xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\""
    if let description = text.range(of: "<rdf:Description") {
      return text.replacingCharacters(
        in: description.upperBound..<description.upperBound,
        with: "\(declare) xmp:\(name)=\"\(value)\"")
    }
    if let rdf = text.range(of: "<rdf:RDF"),
      let end = text[rdf.upperBound...].firstIndex(of: ">")
    {
      let insert = text.index(after: end)
      return text.replacingCharacters(
        in: insert..<insert,
        with: "\n  <rdf:Description rdf:about=\"\"\(declare) xmp:\(name)=\"\(value)\"/>")
    }
    throw PhotoSessionError(
      .sidecarFailed, path: path,
      description:
        "the sidecar \"\(path)\" is not an XMP packet (no rdf:RDF element); it was left untouched")
  }
}

extension Substring {
  fileprivate var trimmingWhitespace: Substring {
    var result = self
    while let first = result.first, first.isWhitespace { result.removeFirst() }
    while let last = result.last, last.isWhitespace { result.removeLast() }
    return result
  }
}
