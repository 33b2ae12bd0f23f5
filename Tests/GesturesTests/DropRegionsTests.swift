import Gestures
import OffloadTestSupport
import Testing

/// Rules that refuse some parents and depths, so regions carry blocked answers too.
private struct PickyRules: DropRules {
  func canDrag(_ id: Int) -> DropRefusal? { nil }

  func canPlace(_ dragged: [Int], under parent: Int?, depth: Int) -> DropRefusal? {
    if let parent, parent % 3 == 0 {
      return DropRefusal(code: "three", reason: "not under \(parent)")
    }
    if depth == 2 { return DropRefusal(code: "two", reason: "not at depth 2") }
    return nil
  }
}

@Suite("Drop regions: the resolver's answers near a pointer")
struct DropRegionsTests {
  /// A random outline: depths valid, heights whole or fractional, some rows collapsed.
  func outline(_ rng: inout SplitMix64) -> [DropRow<Int>] {
    var rows: [DropRow<Int>] = []
    var depth = 0
    var y = Double(Int.random(in: -40...40, using: &rng))
    let whole = rng.chance(0.5)
    for index in 0..<Int.random(in: 0...16, using: &rng) {
      depth = index == 0 ? 0 : Int.random(in: 0...(depth + 1), using: &rng)
      let height =
        whole
        ? Double(Int.random(in: 20...48, using: &rng)) : Double.random(in: 18...50, using: &rng)
      rows.append(
        DropRow(
          id: index, minY: y, height: height, depth: depth, isExpanded: rng.chance(0.8),
          acceptsChildren: rng.chance(0.7)))
      y += height
    }
    return rows
  }

  func configuration(_ rng: inout SplitMix64) -> DropConfiguration {
    DropConfiguration(
      originX: [16, 0, 12.5].randomElement(using: &rng)!,
      indentationWidth: [24, 17.5, 0].randomElement(using: &rng)!,
      maximumDepth: rng.chance(0.5) ? 3 : nil,
      hysteresis: [4, 0, 8, 6.25].randomElement(using: &rng)!)
  }

  @Test(arguments: [21, 22, 23, 24])
  func everyPointInARegionResolvesToItsAnswer(seed: UInt64) {
    var rng = SplitMix64(seed: SplitMix64.testSeed(seed))
    let rules = PickyRules()
    var checked = 0
    var blocked = 0
    for _ in 0..<150 {
      let rows = outline(&rng)
      let configuration = configuration(&rng)
      let dragged = rows.isEmpty ? [0] : [rows[rng.index(below: rows.count)].id]
      let bottom = (rows.last?.maxY ?? 0) + 40
      func resolve(_ point: TouchPoint, _ previous: DropInstruction<Int>?) -> DropResolution<Int> {
        DropTargetResolver.resolve(
          pointer: point, rows: rows, dragged: dragged, rules: rules,
          configuration: configuration, previous: previous)
      }
      // The previous sample's answer, as a drag would have it.
      var pointer = TouchPoint(
        x: Double.random(in: -20...140, using: &rng).rounded(),
        y: Double.random(in: -60...bottom, using: &rng).rounded())
      let previous = resolve(pointer, nil).target?.instruction
      if rng.chance(0.5) { pointer.y += Double.random(in: -0.5...0.5, using: &rng) }
      let radius = [96.0, 40, 0].randomElement(using: &rng)!
      let regions = DropTargetResolver.regions(
        around: pointer, radius: radius, rows: rows, dragged: dragged, rules: rules,
        configuration: configuration, previous: previous)
      #expect(!regions.isEmpty, "\(rng)")

      // Probes: every region's corners and centre, the square's whole-number points near every
      // edge, and random points.
      var probes: [TouchPoint] = []
      for region in regions {
        probes += [
          TouchPoint(x: region.minX, y: region.minY), TouchPoint(x: region.maxX, y: region.maxY),
          TouchPoint(x: (region.minX + region.maxX) / 2, y: (region.minY + region.maxY) / 2),
        ]
      }
      for _ in 0..<60 {
        let dx = Double.random(in: -radius...radius, using: &rng)
        let dy = Double.random(in: -radius...radius, using: &rng)
        probes.append(TouchPoint(x: pointer.x + dx, y: pointer.y + dy))
        probes.append(TouchPoint(x: (pointer.x + dx).rounded(), y: (pointer.y + dy).rounded()))
      }
      for row in rows where abs(row.minY - pointer.y) <= radius {
        probes.append(TouchPoint(x: pointer.x, y: row.minY))
        probes.append(TouchPoint(x: pointer.x, y: row.minY + configuration.hysteresis))
        probes.append(TouchPoint(x: pointer.x, y: row.minY + row.height / 4))
      }
      for probe in probes {
        guard abs(probe.x - pointer.x) <= radius, abs(probe.y - pointer.y) <= radius else {
          continue
        }
        let holding = regions.filter { $0.contains(probe) }
        // Every point of the square is covered (random points land in an edge's margin with
        // odds of about one in a million), and by one region only.
        #expect(holding.count == 1, "\(probe) in \(holding.count) regions, \(rng)")
        guard let region = holding.first else { continue }
        let resolution = resolve(probe, previous)
        #expect(resolution.target == region.answer.target, "\(probe), \(rng)")
        #expect(resolution.line == region.answer.line, "\(probe), \(rng)")
        #expect(resolution.showsInvalidTint == region.answer.showsInvalidTint, "\(probe), \(rng)")
        checked += 1
        if region.answer.showsInvalidTint { blocked += 1 }
      }
    }
    // The cases reach blocked answers and enough points to mean something.
    #expect(checked > 15_000)
    #expect(blocked > 500)
  }

  @Test func regionsAreFewAndStayInsideTheSquare() {
    let rows: [DropRow<Int>] = (0..<40).map { (index: Int) -> DropRow<Int> in
      let header = index % 4 == 0
      return DropRow(
        id: index, minY: Double(index) * 44, height: 44, depth: header ? 0 : 1,
        isExpanded: true, acceptsChildren: header)
    }
    let pointer = TouchPoint(x: 60, y: 500)
    let previous = DropTargetResolver.resolve(
      pointer: pointer, rows: rows, dragged: [5], rules: OpenDropRules<Int>(),
      configuration: DropConfiguration()
    ).target?.instruction
    let regions = DropTargetResolver.regions(
      around: pointer, radius: 96, rows: rows, dragged: [5], rules: OpenDropRules<Int>(),
      configuration: DropConfiguration(), previous: previous)
    // Four rows and a half each way, each with a few zones and the x steps below subtrees:
    // tens of rectangles, not the hundreds of cells resolved.
    #expect(regions.count > 8 && regions.count < 120, "\(regions.count)")
    for region in regions {
      #expect(region.minX >= pointer.x - 96 && region.maxX <= pointer.x + 96)
      #expect(region.minY >= pointer.y - 96 && region.maxY <= pointer.y + 96)
      #expect(region.minX <= region.maxX && region.minY <= region.maxY)
    }
  }

  @Test func badInputGivesNoRegions() {
    let rows = [
      DropRow(id: 1, minY: 0, height: 44, depth: 0, isExpanded: false, acceptsChildren: true)
    ]
    for (pointer, radius) in [
      (TouchPoint(x: .nan, y: 0), 10.0), (TouchPoint(x: 0, y: .infinity), 10),
      (TouchPoint(x: 0, y: 0), -1), (TouchPoint(x: 0, y: 0), .infinity),
    ] {
      #expect(
        DropTargetResolver.regions(
          around: pointer, radius: radius, rows: rows, dragged: [2], rules: OpenDropRules<Int>(),
          configuration: DropConfiguration(), previous: nil
        ).isEmpty)
    }
  }

  @Test func aPointerFarToTheSideDoesNotTrap() {
    // Below the last row of a subtree the pointer's x picks the level; a huge x used to
    // overflow the conversion to a level.
    let rows = [
      DropRow(id: 1, minY: 0, height: 44, depth: 0, isExpanded: true, acceptsChildren: true),
      DropRow(id: 2, minY: 44, height: 44, depth: 1, isExpanded: false, acceptsChildren: true),
      DropRow(id: 3, minY: 88, height: 44, depth: 0, isExpanded: false, acceptsChildren: true),
    ]
    for x in [1e300, -1e300, -.infinity, .nan] {
      let resolution = DropTargetResolver.resolve(
        pointer: TouchPoint(x: x, y: 84), rows: rows, dragged: [3], rules: OpenDropRules<Int>(),
        configuration: DropConfiguration())
      #expect(resolution.target != nil, "\(x)")
    }
  }
}
