import Foundation
import OffloadTestSupport
import Testing

@testable import Offload
@testable import OffloadWeb

/// A collection page's Role menu: `POST /api/items/role` decodes one typed request and sets the
/// role through `Workspace.setRole`, the call `offloadctl item edit ID --role ROLE` makes; a
/// word that is not a role gets the library parser's one line, as the command line does.
@Suite("Organize roles: a row's role set from the page")
struct OrganizeRoleTests {
  func decoded(_ json: String) throws -> OrganizeRoleCommand {
    try JSONDecoder().decode(OrganizeRoleCommand.self, from: Data(json.utf8))
  }

  /// The library parser's reason for a word that is not a role, or nil when it is one.
  static func parseFailure(_ word: String) -> String? {
    do {
      _ = try PlacementRole(parsing: word)
      return nil
    } catch {
      return error.message
    }
  }

  @Test("in process: set, cleared, a bad word refused, an unknown row 404, a stale view 409")
  func service() async throws {
    let folder = try TemporaryDirectory(prefix: "offload-roles")
    defer { folder.remove() }
    let workspace = Workspace(root: folder.appending("store"))
    let service = OrganizeService(workspace: workspace)
    let trip = try workspace.createCollection(named: "Trip", kind: .plan).id.rawValue
    let day = try workspace.addItem(to: "Trip", text: "Monday").id.rawValue
    let version = try await service.collection(trip).version
    func role(_ id: String) throws -> PlacementRole? {
      try workspace.tree(of: trip).items[try #require(ShortID(id))]?.role
    }
    let set = try await service.setRole(
      try decoded(
        #"{"collection":"\#(trip)","version":"\#(version)","id":"\#(day)","role":"day"}"#))
    #expect(set.done == "Role set to day")
    #expect(try role(day) == .day(nil))
    let segment = try await service.setRole(
      try decoded(
        #"{"collection":"\#(trip)","version":"\#(set.view.version)","id":"\#(day)","role":"segment:2-3"}"#
      ))
    #expect(try role(day) == .segment(2...3))
    let cleared = try await service.setRole(
      try decoded(
        #"{"collection":"\#(trip)","version":"\#(segment.view.version)","id":"\#(day)"}"#))
    #expect(cleared.done == "Role cleared")
    #expect(try role(day) == nil)
    let history = try workspace.history(limit: 100).count

    func refusal(_ json: String) async -> DeckFailure? {
      do {
        _ = try await service.setRole(try decoded(json))
        return nil
      } catch let failure as DeckFailure {
        return failure
      } catch {
        return DeckFailure(status: 0, "\(error)")
      }
    }
    let current = try await service.collection(trip).version
    for word in ["sideways", "segment:3-1", "day:0", "segment"] {
      let expected = try #require(Self.parseFailure(word))
      let bad = await refusal(
        #"{"collection":"\#(trip)","version":"\#(current)","id":"\#(day)","role":"\#(word)"}"#)
      #expect(
        bad?.status == 400 && bad?.description == expected, "\(word): \(String(describing: bad))")
    }
    let unknown = await refusal(
      #"{"collection":"\#(trip)","version":"\#(current)","id":"zzzzzz","role":"day"}"#)
    #expect(unknown?.status == 404)
    let stale = await refusal(
      #"{"collection":"\#(trip)","version":"old","id":"\#(day)","role":"day"}"#)
    #expect(stale?.status == 409)
    #expect(try workspace.history(limit: 100).count == history)
    #expect(try role(day) == nil)
  }

  @Test("over HTTP on the built server: the role is stored; a bad word gets the CLI's reason")
  func route() throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    #expect(try fixture.ctl(["collection", "create", "Trip", "--kind", "plan"]).status == 0)
    #expect(try fixture.ctl(["item", "add", "Trip", "Monday"]).status == 0)
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    func json(_ answer: RawHTTP.Answer) throws -> [String: Any] {
      try #require(
        try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any],
        "\(answer)")
    }
    let view = try json(
      try http.request("/api/collection?id=Trip", headers: ["Cookie": server.cookie]))
    let trip = try #require(view["id"] as? String)
    var version = try #require(view["version"] as? String)
    let row = try #require((view["rows"] as? [[String: Any]])?.first?["id"] as? String)
    let headers = [
      "Cookie": server.cookie, "Content-Type": "application/json", "Origin": server.origin,
    ]
    func post(_ role: String) throws -> RawHTTP.Answer {
      try http.request(
        "POST", "/api/items/role", headers: headers,
        body: Array(
          #"{"collection":"\#(trip)","version":"\#(version)","id":"\#(row)","role":"\#(role)"}"#
            .utf8))
    }
    let set = try post("day")
    #expect(set.status == 200, "\(set)")
    let setView = try #require(try json(set)["view"] as? [String: Any])
    #expect(setView["rows"] != nil)
    // A role is part of the view's version: the next change is posted against the new one.
    version = try #require(setView["version"] as? String)
    let shown = try fixture.ctl(["collection", "show", "Trip", "--json"]).stdout
    #expect(shown.contains(#""role":"day""#) || shown.contains(#""role" : "day""#), "\(shown)")

    let bad = try post("sideways")
    #expect(bad.status == 400)
    let reason = try #require(try json(bad)["error"] as? String)
    let cli = try fixture.ctl(["item", "edit", row, "--role", "sideways"])
    #expect(cli.status != 0 && cli.stderr.contains(reason), "\(reason) vs \(cli.stderr)")
    let missing = try http.request(
      "POST", "/api/items/role", headers: headers,
      body: Array(
        #"{"collection":"\#(trip)","version":"\#(version)","id":"zzzzzz","role":"day"}"#.utf8))
    #expect(missing.status == 404)
  }
}
