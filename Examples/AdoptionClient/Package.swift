// swift-tools-version:6.1
//
// A client of Offload's pure modules, written as an app's view models would use them: a flat
// list reordered with SwiftUI-style moves, a plan that refuses a cycle, edit-mode selection,
// and row gestures. It depends on the root package by path with its traits off, so it
// resolves none of the server or command-line packages. CI builds and runs it
// (`swift run --package-path Examples/AdoptionClient adoption-client`), checks that it
// resolved no other package, and checks that the guides quote its code verbatim.

import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which is whatever the clone is called:
// read it instead of assuming it.
let rootFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = rootFolder.lastPathComponent.lowercased()

let package = Package(
  name: "AdoptionClient",
  platforms: [
    .macOS(.v15), .iOS(.v18), .macCatalyst(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
  ],
  // snippet: package-dependency
  dependencies: [
    // `traits: []` turns off the web server and the command-line tool, and with them every
    // package they need. An app names the repository: .package(url:from:traits:).
    .package(path: "../..", traits: [])
  ],
  targets: [
    .executableTarget(
      name: "adoption-client",
      dependencies: [
        .product(name: "OrderingCore", package: rootIdentity),
        .product(name: "Selection", package: rootIdentity),
        .product(name: "Gestures", package: rootIdentity),
      ],
      // snippet-end
      path: "Sources/AdoptionClient",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
      ]
    )
  ]
)
