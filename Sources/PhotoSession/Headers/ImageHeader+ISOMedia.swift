/// The ISO base media part of the header reader: HEIF/HEIC (`ispe` and `irot` of the primary
/// item) and Canon CR3 (`CMT1`, `CMT2` in Canon's metadata box).
extension ImageHeader {
  /// One box: its type, where its payload starts and where it ends.
  struct Box {
    var type: String
    var payload: Int
    var end: Int
  }

  func box(at offset: Int, within end: Int) throws(Failure) -> Box {
    let size32 = try u32(offset, big: true, "box size")
    try need(offset + 4, 4, "box type")
    let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
    var size = size32
    var payload = offset + 8
    if size32 == 1 {
      let high = try u32(offset + 8, big: true, "box large size")
      let low = try u32(offset + 12, big: true, "box large size")
      guard high < 0x7FFF else {
        throw .corrupt(offset: offset, reason: "a box is impossibly large")
      }
      size = high << 32 | low
      payload = offset + 16
    } else if size32 == 0 {
      size = end - offset
    }
    guard size >= payload - offset else {
      throw .corrupt(
        offset: offset, reason: "box '\(type)' has a size of \(size) that does not fit")
    }
    if offset + size > bytes.count { try need(offset, size, "box '\(type)'") }
    guard offset + size <= end else {
      throw .corrupt(
        offset: offset, reason: "box '\(type)' has a size of \(size) that does not fit")
    }
    return Box(type: type, payload: payload, end: offset + size)
  }

  func children(_ start: Int, _ end: Int) throws(Failure) -> [Box] {
    var result: [Box] = []
    var offset = start
    while offset + 8 <= end && result.count < 4096 {
      let child = try box(at: offset, within: end)
      result.append(child)
      offset = child.end
    }
    return result
  }

  mutating func parseISOBMFF() throws(Failure) {
    let top = try box(at: 0, within: Int.max / 2)
    guard top.type == "ftyp" else { throw .unsupported }
    try need(8, 4, "ftyp brand")
    let brand = String(decoding: bytes[8..<12], as: UTF8.self)
    let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
    let fileEnd = isComplete ? bytes.count : Int.max / 2
    if brand == "crx " {
      info.format = .cr3
      try parseCR3(from: top.end, end: fileEnd)
    } else if heifBrands.contains(brand) {
      info.format = .heif
      try parseHEIF(from: top.end, end: fileEnd)
    } else {
      throw .unsupported
    }
  }

  func topLevel(_ type: String, from start: Int, end: Int) throws(Failure) -> Box {
    var offset = start
    while true {
      let found = try box(at: offset, within: end)
      if found.type == type { return found }
      guard found.end > offset else { throw .corrupt(offset: offset, reason: "an empty box") }
      offset = found.end
    }
  }

  mutating func parseHEIF(from start: Int, end: Int) throws(Failure) {
    let meta = try topLevel("meta", from: start, end: end)
    try need(meta.payload, 4, "meta version")
    let boxes = try children(meta.payload + 4, min(meta.end, end))
    guard let pitm = boxes.first(where: { $0.type == "pitm" }) else {
      throw .corrupt(offset: meta.payload, reason: "the HEIF has no primary item (pitm)")
    }
    let pitmVersion = try u8(pitm.payload)
    let primary =
      pitmVersion == 0 ? try u16(pitm.payload + 4, big: true) : try u32(pitm.payload + 4, big: true)
    guard let iprp = boxes.first(where: { $0.type == "iprp" }) else {
      throw .corrupt(offset: meta.payload, reason: "the HEIF has no item properties (iprp)")
    }
    let iprpBoxes = try children(iprp.payload, iprp.end)
    guard let ipco = iprpBoxes.first(where: { $0.type == "ipco" }),
      let ipma = iprpBoxes.first(where: { $0.type == "ipma" })
    else {
      throw .corrupt(offset: iprp.payload, reason: "the HEIF has no ipco or ipma box")
    }
    let properties = try children(ipco.payload, ipco.end)
    let version = try u8(ipma.payload)
    let flags = try u32(ipma.payload, big: true) & 0xFFFFFF
    let entries = try u32(ipma.payload + 4, big: true)
    var offset = ipma.payload + 8
    for _ in 0..<min(entries, 65536) {
      let item = version < 1 ? try u16(offset, big: true) : try u32(offset, big: true)
      offset += version < 1 ? 2 : 4
      let count = try u8(offset)
      offset += 1
      for _ in 0..<count {
        let index: Int
        if flags & 1 != 0 {
          index = try u16(offset, big: true) & 0x7FFF
          offset += 2
        } else {
          index = try u8(offset) & 0x7F
          offset += 1
        }
        guard item == primary, index >= 1, index <= properties.count else { continue }
        let property = properties[index - 1]
        if property.type == "ispe" {
          info.width = try u32(property.payload + 4, big: true, "ispe width")
          info.height = try u32(property.payload + 8, big: true, "ispe height")
        } else if property.type == "irot" {
          // irot turns counter-clockwise; as an EXIF orientation: 0 up, 1 left, 2 down, 3 right.
          info.orientation = [1, 8, 3, 6][try u8(property.payload) & 3]
        }
      }
      if item == primary { break }
    }
    guard info.width != nil else {
      throw .corrupt(offset: ipma.payload, reason: "the HEIF primary item has no size (ispe)")
    }
  }

  mutating func parseCR3(from start: Int, end: Int) throws(Failure) {
    let moov = try topLevel("moov", from: start, end: end)
    let canon = EmbeddedPreview.canonMetadata
    for child in try children(moov.payload, moov.end) where child.type == "uuid" {
      try need(child.payload, 16, "uuid")
      guard bytes[child.payload..<child.payload + 16].elementsEqual(canon) else { continue }
      for part in try children(child.payload + 16, child.end) {
        if part.type == "CMT1" {
          try parseTIFF(base: part.payload, raw: true, limit: part.end)
        } else if part.type == "CMT2" {
          try parseTIFF(base: part.payload, raw: false, limit: part.end, exifOnly: true)
        }
      }
      return
    }
    throw .corrupt(offset: moov.payload, reason: "the CR3 has no Canon metadata box")
  }
}
