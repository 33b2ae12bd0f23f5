// swift-tools-version:6.0
//
// Offload's benchmarks: a package of their own, so importing a library module never
// resolves a benchmark dependency. It depends on the root package by path.
//
//   swift run -c release --package-path Tools/Benchmarks offload-bench keys [--json]

import Foundation
import PackageDescription

// A path dependency's identity is its folder's name, which is whatever the clone is called:
// read it instead of assuming it.
let rootFolder = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = rootFolder.lastPathComponent.lowercased()

let package = Package(
  name: "OffloadBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/ordo-one/malloc-interposer", exact: "1.6.1"),
  ],
  targets: [
    .executableTarget(
      name: "offload-bench",
      dependencies: [
        .product(name: "OrderingCore", package: rootIdentity),
        .product(name: "Offload", package: rootIdentity),
        .product(name: "Selection", package: rootIdentity),
        .product(name: "TerminalUI", package: rootIdentity),
        .product(name: "Gestures", package: rootIdentity),
        .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
        .product(name: "Persistence", package: rootIdentity),
        .product(name: "PhotoSession", package: rootIdentity),
        .product(name: "Replication", package: rootIdentity),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
    )
  ]
)
