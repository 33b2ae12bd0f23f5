import Foundation
import OffloadTestSupport
import Testing

@testable import Offload

/// `id:PREFIX` names an item wherever a bare id does (the form an error suggests for an id made
/// of digits only, which would otherwise read as an outline number).
@Suite("The id: form names an item on every path")
struct IDFormTests {
  @Test func singleItemPathsTakeTheIDForm() throws {
    let (workspace, folder) = try makeWorkspace()
    defer { folder.remove() }
    try workspace.createCollection(named: "Trip", kind: .plan)
    let pack = try workspace.addItem(to: "Trip", text: "Pack").id.rawValue
    let tent = try workspace.addItem(to: "Trip", text: "Tent").id.rawValue
    let hotel = try workspace.addItem(to: "Trip", text: "Hotel").id.rawValue
    func texts() throws -> [String] {
      try workspace.tree(of: "Trip").rows().map {
        String(repeating: " ", count: $0.depth) + $0.item.text
      }
    }
    try workspace.moveItem("id:" + hotel, to: .firstRoot)
    #expect(try texts() == ["Hotel", "Pack", "Tent"])
    try workspace.moveItem("id:" + tent, to: .lastChild(of: "id:" + pack))
    #expect(try texts() == ["Hotel", "Pack", " Tent"])
    _ = try workspace.setDone("id:" + pack, true)
    #expect(try workspace.tree(of: "Trip").rows().filter(\.item.done).count == 2)
    try workspace.editText("id:" + hotel, to: "Hostel")
    #expect(try workspace.removeItems(["id:" + hotel]) == 1)
    #expect(try texts() == ["Pack", " Tent"])
    let restored = try workspace.restoreItems(["id:" + hotel])
    #expect(restored.restored.map(\.text) == ["Hostel"])
    #expect(try texts() == ["Hostel", "Pack", " Tent"])
    try workspace.undo()
    // A bad word after id: is named as it was written.
    #expect {
      try workspace.moveItem("id:zzzzzz", to: .firstRoot)
    } throws: { error in
      (error as? WorkspaceError)?.description == "no item has an id starting with \"zzzzzz\""
    }
  }
}
