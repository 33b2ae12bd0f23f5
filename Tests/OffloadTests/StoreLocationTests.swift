import Offload
import Testing

@Suite("StoreLocation: choosing the store folder")
struct StoreLocationTests {
  @Test func explicitPathWins() throws {
    let location = try StoreLocation.resolve(
      explicit: "/tmp/s", environment: ["OFFLOAD_HOME": "/o", "XDG_DATA_HOME": "/x", "HOME": "/h"])
    #expect(location == StoreLocation(path: "/tmp/s", source: .explicit))
  }

  @Test func environmentOrder() throws {
    #expect(
      try StoreLocation.resolve(explicit: nil, environment: ["OFFLOAD_HOME": "/o", "HOME": "/h"])
        .path == "/o")
    #expect(
      try StoreLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/x/", "HOME": "/h"])
        == StoreLocation(path: "/x/offload", source: .xdgDataHome))
    #expect(
      try StoreLocation.resolve(explicit: nil, environment: ["HOME": "/h"])
        == StoreLocation(path: "/h/.local/share/offload", source: .defaultLocation))
  }

  @Test func emptyAndRelativeEnvironmentValuesAreIgnored() throws {
    let location = try StoreLocation.resolve(
      explicit: nil,
      environment: ["OFFLOAD_HOME": "", "XDG_DATA_HOME": "relative/data", "HOME": "/h"])
    #expect(location.source == .defaultLocation)
  }

  @Test func anEmptyStoreOptionIsAnError() {
    do {
      _ = try StoreLocation.resolve(explicit: "", environment: ["HOME": "/h"])
      Issue.record("an empty --store chose a folder")
    } catch {
      #expect(
        error.description
          == "--store is empty: name the store folder, or leave --store out for the default")
    }
  }

  @Test func nothingToGoOnIsAnError() {
    #expect(throws: StoreLocation.UnresolvedError.self) {
      try StoreLocation.resolve(explicit: nil, environment: [:])
    }
    do {
      _ = try StoreLocation.resolve(explicit: nil, environment: [:])
    } catch {
      #expect(error.description.contains("--store"))
    }
  }
}
