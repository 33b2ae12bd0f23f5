import Crypto
import Foundation
import NIOSSL
import Persistence
import SwiftASN1
import X509

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The certificate `offloadctl serve` presents over HTTPS: self-signed, P-256, made once for a
/// store and kept in it (`web/certificate.pem`, and its key in `web/certificate-key.pem`, mode
/// 0600), so a phone that was told to trust it once keeps recognizing it.
///
/// Nobody vouches for a self-signed certificate, so a browser warns before the first visit;
/// the person compares the SHA-256 ``fingerprint`` the command printed with the one the
/// browser shows and goes on only when they match. A certificate that expired, that cannot be
/// read, or whose key does not match it, is made again (with a message saying why).
struct WebIdentity: Sendable {
  /// The certificate, DER-encoded (the bytes the fingerprint is taken over).
  let certificateDER: [UInt8]
  /// The certificate's private key, PEM-encoded (PKCS #8).
  let keyPEM: String
  /// Why the certificate was made on this start (nil when an existing one was reused): it
  /// was missing, expired, damaged, or not the key's.
  let renewal: String?

  /// How long a new certificate is valid: 397 days, the longest browsers accept for a server
  /// certificate.
  static let validity: TimeInterval = 397 * 24 * 3_600

  /// The SHA-256 fingerprint of the certificate as browsers show it: 32 pairs of uppercase
  /// hexadecimal digits separated by colons.
  var fingerprint: String { Self.fingerprint(of: certificateDER) }

  /// The SHA-256 fingerprint of DER bytes, as ``fingerprint`` writes it.
  ///
  /// - Parameter der: The DER-encoded certificate.
  /// - Returns: 32 pairs of uppercase hexadecimal digits separated by colons.
  /// - Complexity: O(*n*) in the number of bytes.
  static func fingerprint(of der: [UInt8]) -> String {
    SHA256.hash(data: der).map { byte in
      let digits = Array("0123456789ABCDEF")
      return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }.joined(separator: ":")
  }

  /// The folder of a store that holds the web server's certificate and its caches.
  ///
  /// - Parameter storeRoot: The store folder.
  /// - Returns: `<storeRoot>/web`.
  static func folder(storeRoot: String) -> String {
    PathName.join(storeRoot, "web")
  }

  /// The store's certificate: the one kept in it when it is readable, matches its key and is
  /// valid for at least another day; else a new one, written before it is returned.
  ///
  /// - Parameters:
  ///   - storeRoot: The store folder (created if missing).
  ///   - host: The address the server listens on, named in a new certificate beside
  ///     `localhost`, `127.0.0.1` and `::1` when it is a specific IP address.
  ///   - now: The current time.
  /// - Returns: The certificate and key to serve with.
  /// - Throws: ``WebTLSError`` when a new certificate cannot be made or written.
  static func load(
    storeRoot: String, host: String, now: Date = Date()
  ) throws(WebTLSError) -> WebIdentity {
    let folder = folder(storeRoot: storeRoot)
    let certificatePath = PathName.join(folder, "certificate.pem")
    let keyPath = PathName.join(folder, "certificate-key.pem")
    let fileSystem = POSIXFileSystem()
    let reason: String
    switch read(certificatePath, keyPath, now: now, fileSystem: fileSystem) {
    case .success(let identity): return identity
    case .failure(let why): reason = why.description
    }
    let made = try make(host: host, now: now, renewal: reason)
    do {
      try fileSystem.makeDirectories(folder, permissions: 0o700)
      // The key first: a certificate on disk always has its key beside it.
      try WebFileWriter.write(
        Array(made.keyPEM.utf8), to: keyPath, permissions: 0o600, fileSystem: fileSystem)
      let pem = PEMDocument(type: "CERTIFICATE", derBytes: made.certificateDER).pemString
      try WebFileWriter.write(
        Array((pem + "\n").utf8), to: certificatePath, permissions: 0o644, fileSystem: fileSystem)
    } catch {
      throw WebTLSError("cannot keep the certificate in \(folder): \(error.description)")
    }
    return made
  }

  /// The identity kept at the two paths, or why it cannot be used.
  private static func read(
    _ certificatePath: String, _ keyPath: String, now: Date, fileSystem: POSIXFileSystem
  ) -> Result<WebIdentity, WebTLSError> {
    guard (try? fileSystem.statusIfPresent(certificatePath, followingLinks: false)) != nil
    else { return .failure(WebTLSError("this store has no certificate yet")) }
    guard let certificateData = try? fileSystem.readAll(certificatePath),
      let keyData = try? fileSystem.readAll(keyPath),
      let document = try? PEMDocument(pemString: String(decoding: certificateData, as: UTF8.self)),
      let certificate = try? Certificate(derEncoded: document.derBytes),
      let key = try? P256.Signing.PrivateKey(
        pemRepresentation: String(decoding: keyData, as: UTF8.self))
    else { return .failure(WebTLSError("the store's certificate or its key is damaged")) }
    guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
      return .failure(WebTLSError("the store's certificate does not match its key"))
    }
    guard certificate.notValidAfter > now.addingTimeInterval(24 * 3_600),
      certificate.notValidBefore <= now.addingTimeInterval(3_600)
    else { return .failure(WebTLSError("the store's certificate expired")) }
    return .success(
      WebIdentity(
        certificateDER: document.derBytes, keyPEM: key.pemRepresentation, renewal: nil))
  }

  /// A new self-signed certificate for `host`.
  private static func make(
    host: String, now: Date, renewal: String
  ) throws(WebTLSError) -> WebIdentity {
    let key = P256.Signing.PrivateKey()
    let signer = Certificate.PrivateKey(key)
    var names: [GeneralName] = [.dnsName("localhost")]
    for address in Set(["127.0.0.1", "::1", host]) {
      if let bytes = addressBytes(address), bytes.contains(where: { $0 != 0 }) {
        names.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes))))
      }
    }
    names.sort { "\($0)" < "\($1)" }
    do {
      let name = try DistinguishedName {
        OrganizationName("Offload")
        CommonName("offloadctl serve")
      }
      let extensions = try Certificate.Extensions {
        Critical(BasicConstraints.notCertificateAuthority)
        Critical(KeyUsage(digitalSignature: true))
        try ExtendedKeyUsage([.serverAuth])
        SubjectAlternativeNames(names)
      }
      let certificate = try Certificate(
        version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: signer.publicKey,
        notValidBefore: now.addingTimeInterval(-3_600),
        notValidAfter: now.addingTimeInterval(validity), issuer: name, subject: name,
        signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: signer)
      var serializer = DER.Serializer()
      try serializer.serialize(certificate)
      return WebIdentity(
        certificateDER: serializer.serializedBytes, keyPEM: key.pemRepresentation,
        renewal: renewal)
    } catch {
      throw WebTLSError("cannot make a certificate: \(error)")
    }
  }

  /// The 4 or 16 bytes of an IP address literal; nil when `text` is none.
  static func addressBytes(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
      return withUnsafeBytes(of: &v4) { Array($0) }
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 {
      return withUnsafeBytes(of: &v6) { Array($0) }
    }
    return nil
  }

  /// The server side of TLS with this certificate and key.
  func serverConfiguration() throws -> TLSConfiguration {
    let certificate = try NIOSSLCertificate(bytes: certificateDER, format: .der)
    let key = try NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)
    var configuration = TLSConfiguration.makeServerConfiguration(
      certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
    configuration.minimumTLSVersion = .tlsv12
    return configuration
  }
}

/// Why the server cannot serve HTTPS: one sentence.
public struct WebTLSError: Error, CustomStringConvertible, Sendable {
  /// One sentence naming what went wrong and where.
  public let description: String

  init(_ description: String) { self.description = description }
}

/// Durable, atomic file writes with chosen permissions: a new temporary file beside the
/// target (created exclusively with the permissions, so a key is never readable by others,
/// even for a moment), written, synced, renamed over the target, and the folder synced.
enum WebFileWriter {
  /// Writes `bytes` to `path` so that it holds the old bytes or the new ones, whole.
  ///
  /// - Complexity: O(*n*) in the number of bytes.
  static func write(
    _ bytes: [UInt8], to path: String, permissions: Int, fileSystem: POSIXFileSystem
  ) throws(PersistenceError) {
    let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let file = try fileSystem.open(temporary, .createNew(permissions: permissions))
    var open = true
    do throws(PersistenceError) {
      try fileSystem.writeAll(file, bytes)
      try fileSystem.sync(file)
      open = false
      try fileSystem.close(file)
      try fileSystem.rename(temporary, to: path)
    } catch {
      if open { fileSystem.closeQuietly(file) }
      try? fileSystem.unlinkIfPresent(temporary)
      throw error
    }
    try fileSystem.syncDirectory(PathName.directory(of: path))
  }
}
