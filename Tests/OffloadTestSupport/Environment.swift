import Foundation

/// Reads the test process's environment.
public enum Environment {
  /// The value of an environment variable, or nil when unset or empty.
  public static func value(_ name: String) -> String? {
    guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else { return nil }
    return value
  }

  /// Whether slow tests were asked for (`OFFLOAD_SLOW_TESTS=1`).
  public static var slowTestsEnabled: Bool { value("OFFLOAD_SLOW_TESTS") == "1" }
}
