/// Where a workspace keeps its files, and how that place was chosen.
///
/// The store folder is the first of: an explicit path (`offloadctl --store PATH`), the
/// `OFFLOAD_HOME` environment variable, `$XDG_DATA_HOME/offload`, and
/// `~/.local/share/offload`. Empty variables count as unset, as the XDG Base Directory
/// specification says; a relative `XDG_DATA_HOME` is ignored for the same reason.
///
/// ```swift
/// let location = try StoreLocation.resolve(explicit: nil, environment: ["HOME": "/home/ada"])
/// location.path    // "/home/ada/.local/share/offload"
/// location.source  // .defaultLocation
/// ```
public struct StoreLocation: Hashable, Sendable {
  /// Which rule chose the folder.
  public enum Source: String, Hashable, Sendable {
    /// The caller named the folder (`--store`).
    case explicit
    /// The `OFFLOAD_HOME` environment variable named it.
    case offloadHome
    /// `$XDG_DATA_HOME/offload`.
    case xdgDataHome
    /// `$HOME/.local/share/offload`.
    case defaultLocation
  }

  /// The folder's path.
  public var path: String
  /// Which rule chose it.
  public var source: Source

  /// Creates a location from its parts.
  public init(path: String, source: Source) {
    self.path = path
    self.source = source
  }

  /// An error saying that no store folder can be chosen.
  public struct UnresolvedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One sentence saying what to set.
    public var description: String
  }

  /// Chooses the store folder from an explicit path and the environment.
  ///
  /// - Parameters:
  ///   - explicit: A path the user named, or `nil`.
  ///   - environment: The process environment (`OFFLOAD_HOME`, `XDG_DATA_HOME`, `HOME`).
  /// - Returns: The folder and the rule that chose it.
  /// - Throws: ``UnresolvedError`` when `explicit` is empty, or nothing is given and `HOME` is
  ///   unset.
  public static func resolve(explicit: String?, environment: [String: String])
    throws(UnresolvedError)
    -> StoreLocation
  {
    func value(_ name: String) -> String? {
      guard let value = environment[name], !value.isEmpty else { return nil }
      return value
    }
    if let explicit {
      // An empty --store is a mistake (an unset shell variable), not a request for the default.
      guard !explicit.isEmpty else {
        throw UnresolvedError(
          description:
            "--store is empty: name the store folder, or leave --store out for the default")
      }
      return StoreLocation(path: explicit, source: .explicit)
    }
    if let home = value("OFFLOAD_HOME") { return StoreLocation(path: home, source: .offloadHome) }
    if let data = value("XDG_DATA_HOME"), data.hasPrefix("/") {
      return StoreLocation(path: joined(data, "offload"), source: .xdgDataHome)
    }
    if let home = value("HOME") {
      return StoreLocation(path: joined(home, ".local/share/offload"), source: .defaultLocation)
    }
    throw UnresolvedError(
      description: "no store folder: pass --store PATH or set OFFLOAD_HOME (HOME is not set either)"
    )
  }

  private static func joined(_ base: String, _ component: String) -> String {
    base.hasSuffix("/") ? base + component : base + "/" + component
  }
}
