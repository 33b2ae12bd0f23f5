/// How companion files are recognised and grouped.
enum Companion {
  /// Extensions of files that belong to a photo but are not images themselves: sidecars,
  /// edit files and videos (``VideoFormat``).
  static let extensions: Set<String> = Set(["xmp", "aae"] + VideoFormat.extensions.keys)

  /// Whether `name` is a sidecar, edit file or video.
  static func isCompanion(_ name: String) -> Bool {
    guard let dot = name.lastIndex(of: ".") else { return false }
    return extensions.contains(name[name.index(after: dot)...].lowercased())
  }

  /// Whether `path` is an XMP sidecar (`NAME.xmp`, `NAME.EXT.xmp`): a file a rating rewrites.
  static func isSidecar(_ path: String) -> Bool {
    path.lowercased().hasSuffix(".xmp")
  }

  /// The grouping key of a relative path: its folder and its lowercased name without the
  /// companion extension and the image or video extension (`A.png.xmp`, `A.xmp`, `a.PNG`,
  /// `a.mov.xmp` → `a`).
  static func stem(_ path: String) -> String {
    var name = Substring(path.lowercased())
    let start = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.startIndex
    for strip in [true, false] {
      guard let dot = name[start...].lastIndex(of: "."), dot > start else { break }
      let tail = name[name.index(after: dot)...]
      let media =
        ImageFormat(fileExtension: tail) != nil || VideoFormat.extensions[String(tail)] != nil
      if strip ? extensions.contains(String(tail)) : media {
        name = name[..<dot]
      }
    }
    return String(name)
  }

  /// The order in which a card's images are preferred as the one shown.
  static func rank(_ format: ImageFormat) -> Int {
    switch format {
    case .jpeg, .heif, .png: 0
    case .cr2, .cr3, .nef, .arw, .dng, .raf, .orf, .rw2: 1
    default: 2
    }
  }
}
