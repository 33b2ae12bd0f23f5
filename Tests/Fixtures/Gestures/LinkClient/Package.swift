// swift-tools-version:6.0
//
// A client of the Gestures product alone: the smallest app-like use of the module, built and
// run by `check.sh` to prove that it links on Linux without Foundation (libm is named by the
// Gestures target, since `rounded()` and `squareRoot()` call `round` and `sqrt`).

import PackageDescription

let package = Package(
  name: "GesturesLinkClient",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "Offload", path: "../../../..")],
  targets: [
    .executableTarget(
      name: "GesturesLinkClient",
      dependencies: [.product(name: "Gestures", package: "Offload")],
      swiftSettings: [.swiftLanguageMode(.v6)])
  ]
)
