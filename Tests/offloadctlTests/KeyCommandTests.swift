import Foundation
import OffloadTestSupport
import Testing

@testable import offloadctl

@Suite("offloadctl key: parsing", .timeLimit(.minutes(5)))
struct KeyCommandParsingTests {
  @Test func parsesBetween() throws {
    let command = try Offloadctl.parseAsRoot([
      "key", "between", "--after", "a0", "--before", "a1", "--json",
    ])
    let between = try #require(command as? KeyCommand.Between)
    #expect(between.after == "a0")
    #expect(between.before == "a1")
    #expect(between.global.json)
  }

  @Test func parsesSpreadAndStore() throws {
    let command = try Offloadctl.parseAsRoot(["key", "spread", "--count", "5", "--store", "/tmp/x"])
    let spread = try #require(command as? KeyCommand.Spread)
    #expect(spread.count == 5)
    #expect(spread.global.store == "/tmp/x")
  }

  @Test func rejectsBadCount() {
    #expect(throws: (any Error).self) {
      try Offloadctl.parseAsRoot(["key", "spread", "--count", "-1"])
    }
    #expect(throws: (any Error).self) { try Offloadctl.parseAsRoot(["key", "spread"]) }
    #expect(throws: (any Error).self) { try Offloadctl.parseAsRoot(["key", "check"]) }
  }

  @Test func exitCodeTableIsInHelp() {
    let help = Offloadctl.helpMessage()
    for code in OffloadExitCode.allCases {
      #expect(help.contains("  \(code.rawValue)"), "help lacks exit code \(code.rawValue)")
    }
  }
}

@Suite("offloadctl key: end to end", .timeLimit(.minutes(5)))
struct KeyCommandEndToEndTests {
  func run(_ arguments: [String]) throws -> ProcessResult {
    try BuiltProduct.run(
      "offloadctl", arguments, environment: ["OFFLOAD_HOME": "/nonexistent-offload-test"])
  }

  @Test func betweenPrintsOneKey() throws {
    var result = try run(["key", "between"])
    #expect(result.status == 0)
    #expect(result.stdout == "a0\n")
    #expect(result.stderr.isEmpty)
    result = try run(["key", "between", "--after", "a0", "--before", "a1"])
    #expect(result.stdout == "a0V\n")
    result = try run(["key", "between", "--before", "a0"])
    #expect(result.stdout == "Zz\n")
  }

  @Test func betweenJSON() throws {
    let result = try run(["key", "between", "--after", "a0", "--json"])
    #expect(result.status == 0)
    #expect(result.stdout == "{\n  \"key\" : \"a1\",\n  \"schemaVersion\" : 1\n}\n")
  }

  @Test func spreadPrintsIncreasingKeys() throws {
    let result = try run(["key", "spread", "--count", "5"])
    #expect(result.status == 0)
    #expect(result.stdout == "a0\na1\na2\na3\na4\n")
    let between = try run(["key", "spread", "--count", "3", "--after", "a0", "--before", "a1"])
    #expect(between.stdout == "a0G\na0V\na0l\n")
    let none = try run(["key", "spread", "--count", "0"])
    #expect(none.status == 0 && none.stdout.isEmpty)
    let json = try run(["key", "spread", "--count", "2", "--json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(document?["keys"] as? [String] == ["a0", "a1"])
    #expect(document?["schemaVersion"] as? Int == 1)
  }

  @Test func checkAcceptsValidKeys() throws {
    let result = try run(["key", "check", "a0", "a0V", "Zz"])
    #expect(result.status == 0)
    #expect(result.stdout == "all 3 keys are valid\n")
    #expect(try run(["key", "check", "a0", "--quiet"]).stdout.isEmpty)
  }

  @Test func checkReportsEachInvalidKeyAndExits65() throws {
    let result = try run(["key", "check", "a0", "a00", "0x", "b1"])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].contains("\"a00\"") && lines[0].contains("ends in '0'"))
    #expect(lines[1].contains("\"0x\"") && lines[1].contains("head"))
    #expect(lines[2].contains("\"b1\"") && lines[2].contains("integer part of 3 bytes"))
  }

  @Test func checkJSONStillExits65() throws {
    let result = try run(["key", "check", "a0", "a00", "--json"])
    #expect(result.status == 65)
    let document =
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    #expect(document?["valid"] as? Bool == false)
    let results = document?["results"] as? [[String: Any]]
    #expect(results?.count == 2)
    #expect(results?[1]["code"] as? String == "trailingZero")
  }

  @Test func badBoundIsBadData() throws {
    let result = try run(["key", "between", "--after", "a00"])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr
        == "offloadctl: error: --after: invalid order key \"a00\": the fraction ends in '0' at byte 2, and a fraction may not end in the zero digit\n"
    )
  }

  @Test func boundsOutOfOrderIsBadData() throws {
    let result = try run(["key", "between", "--after", "a1", "--before", "a0"])
    #expect(result.status == 65)
    #expect(result.stderr.contains("\"a1\" and \"a0\""))
    #expect(!result.stderr.contains("Fatal"))
  }

  @Test func badUsageExits64() throws {
    let result = try run(["key", "spread", "--count", "many"])
    #expect(result.status == 64)
    #expect(result.stderr.contains("count"))
    let unknown = try run(["key", "between", "--sideways"])
    #expect(unknown.status == 64)
  }

  @Test func helpShowsExitCodes() throws {
    let result = try run(["--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("EXIT CODES:"))
    #expect(result.stdout.contains("75  temporarily unavailable"))
  }
}
