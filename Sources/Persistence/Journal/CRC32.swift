/// CRC-32 (IEEE 802.3, the checksum of zip, gzip and PNG), computed with slicing-by-4 tables.
///
/// ```swift
/// CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926
/// ```
public enum CRC32 {
  private static let tables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 4 * 256)
    for byte in 0..<256 {
      var value = UInt32(byte)
      for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
      tables[byte] = value
    }
    for byte in 0..<256 {
      for table in 1..<4 {
        let previous = tables[(table - 1) * 256 + byte]
        tables[table * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
      }
    }
    return tables
  }()

  /// The CRC-32 of `bytes`, continuing from `seed` (the checksum of the bytes before them).
  ///
  /// - Parameters:
  ///   - bytes: The bytes to checksum.
  ///   - seed: The checksum of preceding bytes, 0 to start.
  /// - Returns: The checksum.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public static func checksum(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
    var crc = ~seed
    tables.withUnsafeBufferPointer { table in
      var index = 0
      let count = bytes.count
      while index + 4 <= count {
        crc ^=
          UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
          | UInt32(bytes[index + 3]) << 24
        crc =
          table[768 + Int(crc & 0xFF)] ^ table[512 + Int((crc >> 8) & 0xFF)]
          ^ table[256 + Int((crc >> 16) & 0xFF)] ^ table[Int(crc >> 24)]
        index += 4
      }
      while index < count {
        crc = (crc >> 8) ^ table[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
        index += 1
      }
    }
    return ~crc
  }

  /// The CRC-32 of a byte array.
  ///
  /// - Parameter bytes: The bytes to checksum.
  /// - Returns: The checksum.
  /// - Complexity: O(*n*), where *n* is the number of bytes.
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBytes { checksum($0) }
  }
}
