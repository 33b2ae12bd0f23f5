import Foundation
public import Persistence

/// Writes an XMP rating into a photo's sidecar file, merging into an existing sidecar.
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
  ///   - fileSystem: The file operations; the real ones by default.
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
    var existing: (String, String)?
    for candidate in candidates(for: photo, naming: naming) {
      if let status = try io.status(candidate), status.kind == .regular {
        let text = String(decoding: try io.readAll(candidate), as: UTF8.self)
        existing = (candidate, text)
        break
      }
    }
    let path = existing?.0 ?? candidates(for: photo, naming: naming)[0]
    let merged: String?
    if let (_, text) = existing {
      merged = try merge(rating: rating, into: text, path: path)
    } else {
      merged = newPacket(rating: rating)
    }
    guard let merged else { return (path, false) }
    do {
      try io.writeAtomically(Array(merged.utf8), to: path, syncFolder: syncFolder)
    } catch {
      throw PhotoSessionError(
        .sidecarFailed, path: path, errno: error.errno,
        description:
          "cannot write the sidecar \"\(path)\": \(error.errno.map { PhotoFiles.reason($0) } ?? error.description)"
      )
    }
    return (path, true)
  }

  /// A new XMP packet holding only the rating.
  static func newPacket(rating: Int) -> String {
    """
    <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
    <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Offload">
     <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about=""
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
       xmp:Rating="\(rating)"/>
     </rdf:RDF>
    </x:xmpmeta>
    <?xpacket end="w"?>

    """
  }

  /// The sidecar text with `xmp:Rating` set, or nil when it already has that rating.
  ///
  /// An attribute (`xmp:Rating="3"`) or element (`<xmp:Rating>3</xmp:Rating>`) is replaced;
  /// otherwise the attribute is added to the first `rdf:Description` (declaring the `xmp`
  /// namespace when the packet does not). Everything else is kept byte for byte.
  ///
  /// - Throws: ``PhotoSessionError/Code/sidecarFailed`` when the text has no `rdf:RDF`.
  static func merge(
    rating: Int, into text: String, path: String
  ) throws(PhotoSessionError) -> String? {
    let value = String(rating)
    for quote in ["\"", "'"] {
      if let range = text.range(of: "xmp:Rating=\(quote)") {
        guard let close = text[range.upperBound...].firstIndex(of: Character(quote)) else { break }
        if text[range.upperBound..<close] == value { return nil }
        return text.replacingCharacters(in: range.upperBound..<close, with: value)
      }
    }
    if let open = text.range(of: "<xmp:Rating>"),
      let close = text.range(of: "</xmp:Rating>", range: open.upperBound..<text.endIndex)
    {
      if text[open.upperBound..<close.lowerBound].trimmingWhitespace == value { return nil }
      return text.replacingCharacters(in: open.upperBound..<close.lowerBound, with: value)
    }
    let declare =
      text.contains("xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"")
        || text.contains("xmlns:xmp='http://ns.adobe.com/xap/1.0/'")
      ? "" : " xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\""
    if let description = text.range(of: "<rdf:Description") {
      return text.replacingCharacters(
        in: description.upperBound..<description.upperBound,
        with: "\(declare) xmp:Rating=\"\(value)\"")
    }
    if let rdf = text.range(of: "<rdf:RDF"),
      let end = text[rdf.upperBound...].firstIndex(of: ">")
    {
      let insert = text.index(after: end)
      return text.replacingCharacters(
        in: insert..<insert,
        with: "\n  <rdf:Description rdf:about=\"\"\(declare) xmp:Rating=\"\(value)\"/>")
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
