import Foundation
import Offload
import Persistence
public import PhotoSession

/// A throw-away store with a session over generated photos and sample lists and plans, for
/// `offloadctl serve --demo`.
public enum WebDemo {
  /// Where the demo lives, and the environment its server must use.
  public struct Prepared: Sendable {
    /// The store folder.
    public var store: String
    /// The folder of generated photos (the page's root).
    public var photos: String
    /// The environment with the demo's own Trash (`XDG_DATA_HOME` inside the folder), so a
    /// commit in the demo never touches the user's Trash.
    public var environment: [String: String]
  }

  /// Writes `count` photos (gradients in landscape, portrait and square shapes) into
  /// `folder/photos`, starts a session over them in the store `folder/store`, and adds the
  /// sample collections of `WorkspaceDemo.sample(in:)` (a list, a nested plan, a trip
  /// itinerary) to that store.
  ///
  /// - Throws: `PhotoSessionError` when the photos or the collections cannot be written or the
  ///   session started.
  /// - Complexity: O(*count* · *p*) for photos of *p* pixels.
  public static func prepare(
    in folder: String, count: Int = 24, environment: [String: String]
  ) throws(PhotoSessionError) -> Prepared {
    let photos = folder + "/photos"
    var environment = environment
    environment["XDG_DATA_HOME"] = folder + "/data"
    let files = POSIXFileSystem()
    do {
      try files.makeDirectories(photos, permissions: 0o755)
    } catch {
      throw PhotoSessionError(
        .writeFailed, path: photos, description: "cannot create the demo folder \"\(photos)\"")
    }
    let shapes = [(400, 300), (300, 400), (360, 360), (448, 252)]
    for index in 0..<count {
      let (width, height) = shapes[index % shapes.count]
      let bytes = PNGImage.gradient(
        width: width, height: height, hue: Double(index) / Double(count))
      let name = photos + "/demo-" + (index < 9 ? "0" : "") + String(index + 1) + ".png"
      do {
        try files.writeAtomically(Data(bytes), to: name, syncFolder: false)
      } catch {
        throw PhotoSessionError(.writeFailed, path: name, description: "cannot write \"\(name)\"")
      }
    }
    let store = folder + "/store"
    let sessions = PhotoSessions.store(root: store, environment: environment)
    _ = try sessions.start(
      folder: photos, options: FolderScanOptions(ordering: .modificationTime))
    do {
      try WorkspaceDemo.sample(in: store)
    } catch {
      throw PhotoSessionError(
        .writeFailed, path: store, description: "cannot write the demo collections: \(error)")
    }
    return Prepared(store: store, photos: photos, environment: environment)
  }
}

/// Real PNG files written from scratch: RGB, stored (uncompressed) deflate blocks.
enum PNGImage {
  private static func be32(_ v: UInt32) -> [UInt8] {
    [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
  }

  /// A PNG of `width` × `height` RGB pixels from `pixel(x, y)`.
  ///
  /// - Complexity: O(*width* · *height*).
  static func make(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> [UInt8] {
    var raw: [UInt8] = []
    raw.reserveCapacity((width * 3 + 1) * height)
    for y in 0..<height {
      raw.append(0)
      for x in 0..<width {
        let (r, g, b) = pixel(x, y)
        raw += [r, g, b]
      }
    }
    var z: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
      let count = min(65_535, raw.count - offset)
      let last: UInt8 = offset + count == raw.count ? 1 : 0
      z += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF)]
      z.append(UInt8((~count >> 8) & 0xFF))
      z += raw[offset..<offset + count]
      offset += count
    } while offset < raw.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    z += be32(b << 16 | a)
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let body = Array(type.utf8) + data
      return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body))
    }
    let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0]
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
      + chunk("IDAT", z) + chunk("IEND", [])
  }

  /// A diagonal gradient around `hue` (0 to 1) with a lighter disc, like a sky with a sun.
  static func gradient(width: Int, height: Int, hue: Double) -> [UInt8] {
    func rgb(_ h: Double, _ s: Double, _ v: Double) -> (Double, Double, Double) {
      let sector = h * 6
      let f = sector - sector.rounded(.down)
      let p = v * (1 - s)
      let q = v * (1 - f * s)
      let t = v * (1 - (1 - f) * s)
      switch Int(sector) % 6 {
      case 0: return (v, t, p)
      case 1: return (q, v, p)
      case 2: return (p, v, t)
      case 3: return (p, q, v)
      case 4: return (t, p, v)
      default: return (v, p, q)
      }
    }
    let from = rgb(hue, 0.65, 0.95)
    let to = rgb((hue + 0.15).truncatingRemainder(dividingBy: 1), 0.65, 0.45)
    let sun = rgb((hue + 0.12).truncatingRemainder(dividingBy: 1), 0.25, 1)
    let cx = Double(width) * 0.7
    let cy = Double(height) * 0.3
    let radius = Double(min(width, height)) * 0.15
    return make(width: width, height: height) { x, y in
      let dx = Double(x) - cx
      let dy = Double(y) - cy
      let c: (Double, Double, Double)
      if dx * dx + dy * dy < radius * radius {
        c = sun
      } else {
        let a = (Double(x) / Double(width) + Double(y) / Double(height)) / 2
        c = (
          from.0 + (to.0 - from.0) * a, from.1 + (to.1 - from.1) * a, from.2 + (to.2 - from.2) * a
        )
      }
      return (UInt8(c.0 * 255), UInt8(c.1 * 255), UInt8(c.2 * 255))
    }
  }
}
