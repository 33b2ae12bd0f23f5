// swift-tools-version:6.0
//
// Offload: the logic behind list-organizing and photo-culling apps.
//
// Allowed dependency edges (arrows point at what is imported). Keep it so:
//
//   offloadctl -> Offload -> { OrderingCore, Selection, Gestures, PhotoSession, Persistence }
//   PhotoSession -> Persistence
//   OrderingCore, Selection, Gestures  import nothing but the standard library
//   Persistence, PhotoSession          may import Foundation
//   only offloadctl imports ArgumentParser
//
// Test targets depend on their target and on OffloadTestSupport (never a product).
// Benchmarks live in Tools/Benchmarks, a package of their own.

import PackageDescription

/// One set of Swift settings for every target.
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "Offload",
  products: [
    .library(name: "OrderingCore", targets: ["OrderingCore"]),
    .library(name: "PhotoSession", targets: ["PhotoSession"]),
    .library(name: "Offload", targets: ["Offload"]),
    .executable(name: "offloadctl", targets: ["offloadctl"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // Libraries.
    .target(name: "OrderingCore", swiftSettings: swiftSettings),
    .target(name: "PhotoSession", swiftSettings: swiftSettings),
    .target(name: "Offload", dependencies: ["OrderingCore"], swiftSettings: swiftSettings),

    // The command-line tool: parsing and printing only.
    .executableTarget(
      name: "offloadctl",
      dependencies: [
        "Offload",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),

    // A child process for the PhotoSession kill -9 trials (run by PhotoSessionTests).
    .executableTarget(
      name: "photo-session-driver",
      dependencies: ["PhotoSession"],
      path: "Tools/PhotoSessionDriver",
      swiftSettings: swiftSettings
    ),

    // Test support: a normal target, never a product.
    .target(
      name: "OffloadTestSupport",
      path: "Tests/OffloadTestSupport",
      swiftSettings: swiftSettings
    ),

    // Tests: one target per target, each runnable alone.
    .testTarget(
      name: "OrderingCoreTests",
      dependencies: ["OrderingCore", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "PhotoSessionTests",
      dependencies: ["PhotoSession", "OffloadTestSupport", "photo-session-driver"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "OffloadTests",
      dependencies: ["Offload", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "offloadctlTests",
      dependencies: ["offloadctl", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
  ]
)
