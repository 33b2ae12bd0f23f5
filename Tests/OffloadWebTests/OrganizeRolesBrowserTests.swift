import Testing

/// A row's Role menu in Chromium: a day header set from the page is stored (read back through
/// `offloadctl collection show --json`), and the drop it now forbids is refused with the
/// reason `offloadctl item move` gives.
@Suite("offloadctl serve: organize roles in Chromium")
struct OrganizeRolesBrowserTests {
  @Test(
    "the Role menu stores a day header; the drop it forbids says the command line's reason",
    .enabled(
      if: BrowserTools.available,
      "needs chromium on PATH and Playwright for Python (apt-get install chromium; pip install playwright)"
    ),
    .timeLimit(.minutes(5)))
  func rolesInChromium() throws {
    try BrowserTools.runScript(
      "organize_roles_browser_test.py", output: "web-organize-roles",
      passLine: "PASS: browser role tests",
      screenshots: ["desktop-role-set.png", "desktop-role-refused.png"])
  }
}
