import Foundation
import OffloadTestSupport
import Testing

/// `/collections/NAME-or-ID` and `/api/collection?id=NAME-or-ID` resolve as the command line
/// does (a name first, then an id prefix); an unknown one gets a 404 page that links back.
@Suite("offloadctl serve: collection addresses by name or id")
struct CollectionAddressTests {
  @Test func namesAndIdPrefixesResolveUnknownOnesGet404() throws {
    let fixture = try WebFixture(count: 1)
    defer { fixture.remove() }
    #expect(try fixture.ctl(["collection", "create", "Groceries", "--kind", "list"]).status == 0)
    #expect(try fixture.ctl(["item", "add", "Groceries", "Milk"]).status == 0)
    let server = try ServerProcess(fixture)
    defer { server.stop() }
    let http = RawHTTP(port: server.port)
    let cookie = ["Cookie": server.cookie]
    for path in ["/collections/Groceries", "/collections/groceries"] {
      let page = try http.request(path, headers: cookie)
      #expect(page.status == 200, "\(path): \(page)")
    }
    let view = try http.request("/api/collection?id=Groceries", headers: cookie)
    #expect(view.status == 200 && view.text.contains("Milk"), "\(view)")
    let missing = try http.request("/collections/Nope", headers: cookie)
    #expect(missing.status == 404)
    #expect(missing.text.contains("No such collection"))
    #expect(
      missing.text.contains("no collection is named &quot;Nope&quot;")
        || missing.text.contains("Nope"))
    #expect(missing.text.contains("<a href=\"/collections\">"))
    let hostile = try http.request("/collections/%3Cb%3E", headers: cookie)
    #expect(hostile.status == 404 && !hostile.text.contains("<b>"))
  }
}
