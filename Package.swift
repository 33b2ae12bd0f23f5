// swift-tools-version:6.1
//
// Offload: the logic behind list-organizing and photo-culling apps.
//
// Allowed dependency edges (arrows point at what is imported). Keep it so:
//
//   offloadctl -> Offload -> { Editing, OrderingCore, Selection, Gestures, PhotoSession,
//                              Persistence }   (Offload re-exports Editing)
//   Editing -> { OrderingCore, Selection, Gestures }  (the editor: intents in, changes out)
//   offloadctl -> OffloadWeb -> { Offload, Gestures, PhotoSession, Persistence, Hummingbird,
//                                 HummingbirdWebSocket, HummingbirdCore, HummingbirdTLS,
//                                 HTTPTypes, X509, Crypto, SwiftASN1, NIOSSL, Logging }
//     (Persistence for its JSON writer, which writes the organize views; X509, Crypto,
//     SwiftASN1 and NIOSSL for the store's self-signed certificate behind `serve --tls`)
//   PhotoSession -> Persistence
//   offloadctl, Offload -> TerminalUI  (keys, frames, diffing for interactive screens)
//   offloadctl -> OrderingCore, Gestures, PhotoSession (their value types in command output)
//   offloadctl -> Logging              (the web server's logger, made by `serve`)
//   offloadctl -> Persistence          (its atomic write, for `photos preview`)
//   Offload -> TerminalUI              (the organize screen's state machine draws frames)
//   Replication -> OrderingCore        (the pure merge of replicas' operations)
//   Offload -> Replication             (the workspace reads and writes per-device logs)
//   OrderingCore, Selection, Gestures, TerminalUI  import nothing but the standard library
//   Editing                            imports the standard library and the pure modules only
//   Persistence, PhotoSession          may import Foundation
//   only offloadctl imports ArgumentParser
//   only OffloadWeb imports Hummingbird, HTTPTypes, X509 and Crypto (the web server lives in its
//   own target)
//
// Test targets depend on their target and on OffloadTestSupport (never a product).
// Benchmarks live in Tools/Benchmarks, a package of their own.
//
// Traits keep the server and command-line packages away from apps. Every product of another
// package is used under a trait: `WebServer` (OffloadWeb's Hummingbird, its WebSocket and TLS
// modules, HTTPTypes, and the certificate packages behind `serve --tls`) and `CommandLineTool` (offloadctl's ArgumentParser; it enables `WebServer`,
// since `offloadctl serve` links OffloadWeb). Both are on by default, so `swift build`,
// `swift test` and `swift run offloadctl` here build everything. A client that writes
// `.package(url: ..., from: ..., traits: [])` and uses the library products resolves and
// fetches none of those packages (SwiftPM 6.1 or later); Examples/AdoptionClient is such a
// client and CI checks that it resolves nothing. With the traits off, only the library
// products build. A new dependency of OffloadWeb or offloadctl takes the same
// `condition: .when(traits: [...])`. See Docs/Decisions/0007-package-traits.md.

import PackageDescription

/// One set of Swift settings for every target.
let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

/// Products of the web server's packages are used only with the `WebServer` trait on.
let whenWebServer = TargetDependencyCondition.when(traits: ["WebServer"])
/// Products of the command-line packages are used only with the `CommandLineTool` trait on.
let whenCommandLineTool = TargetDependencyCondition.when(traits: ["CommandLineTool"])

let package = Package(
  name: "Offload",
  // The Apple systems whose Swift runtime has what the code uses: typed throws in generic
  // function types and `Synchronization.Mutex` ship with the Swift 6 runtime (macOS 15,
  // iOS 18 and their siblings); the WebSocket server library needs macOS 14 / iOS 17 at
  // least. Linux needs Swift 6.1 or later, for the traits below. See
  // Docs/Decisions/0005-platforms-and-screens.md and 0007-package-traits.md.
  platforms: [
    .macOS(.v15), .iOS(.v18), .macCatalyst(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
  ],
  products: [
    .library(name: "OrderingCore", targets: ["OrderingCore"]),
    .library(name: "Persistence", targets: ["Persistence"]),
    .library(name: "Selection", targets: ["Selection"]),
    .library(name: "TerminalUI", targets: ["TerminalUI"]),
    .library(name: "Gestures", targets: ["Gestures"]),
    .library(name: "Editing", targets: ["Editing"]),
    .library(name: "PhotoSession", targets: ["PhotoSession"]),
    .library(name: "Replication", targets: ["Replication"]),
    .library(name: "Offload", targets: ["Offload"]),
    .executable(name: "offloadctl", targets: ["offloadctl"]),
  ],
  traits: [
    .trait(
      name: "WebServer",
      description: "The local web app (OffloadWeb, `offloadctl serve`) and its server packages."),
    .trait(
      name: "CommandLineTool",
      description: "The offloadctl command-line tool and ArgumentParser.",
      enabledTraits: ["WebServer"]),
    .default(enabledTraits: ["WebServer", "CommandLineTool"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
  ],
  targets: [
    // Libraries.
    .target(name: "OrderingCore", swiftSettings: swiftSettings),
    .target(name: "Persistence", swiftSettings: swiftSettings),
    .target(name: "Selection", swiftSettings: swiftSettings),
    // Pure terminal-screen pieces (keys, frames, diffing) for offloadctl's interactive screens;
    // a library so Tools/Benchmarks can time a redraw.
    .target(name: "TerminalUI", swiftSettings: swiftSettings),
    // `rounded()` and `squareRoot()` lower to libm's `round` and `sqrt`, which Linux's C
    // library does not hold: a client that links Gestures alone needs libm named.
    .target(
      name: "Gestures", swiftSettings: swiftSettings,
      linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux, .android]))]),
    // The pure merge of replicas' operations (Kleppmann's replicated move, per-field LWW).
    .target(name: "Replication", dependencies: ["OrderingCore"], swiftSettings: swiftSettings),
    .target(name: "PhotoSession", dependencies: ["Persistence"], swiftSettings: swiftSettings),
    // The editor of lists and plans: items' roles, placement rules, intents in, changes out.
    .target(
      name: "Editing", dependencies: ["OrderingCore", "Selection", "Gestures"],
      swiftSettings: swiftSettings),
    .target(
      name: "Offload",
      dependencies: [
        "Editing", "OrderingCore", "Persistence", "Selection", "Gestures", "PhotoSession",
        "Replication", "TerminalUI",
      ],
      swiftSettings: swiftSettings),

    // The local web app (`offloadctl serve`): an HTTP and WebSocket server on Hummingbird, its
    // pages and scripts shipped as resources.
    .target(
      name: "OffloadWeb",
      dependencies: [
        "Offload", "Gestures", "PhotoSession", "Persistence",
        .product(name: "Hummingbird", package: "hummingbird", condition: whenWebServer),
        .product(
          name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: whenWebServer),
        .product(name: "HummingbirdCore", package: "hummingbird", condition: whenWebServer),
        .product(name: "HummingbirdTLS", package: "hummingbird", condition: whenWebServer),
        .product(name: "HTTPTypes", package: "swift-http-types", condition: whenWebServer),
        .product(name: "X509", package: "swift-certificates", condition: whenWebServer),
        .product(name: "Crypto", package: "swift-crypto", condition: whenWebServer),
        .product(name: "SwiftASN1", package: "swift-asn1", condition: whenWebServer),
        .product(name: "NIOSSL", package: "swift-nio-ssl", condition: whenWebServer),
        .product(name: "Logging", package: "swift-log", condition: whenWebServer),
      ],
      resources: [.copy("Resources")],
      swiftSettings: swiftSettings),

    // The command-line tool: parsing and printing only.
    .executableTarget(
      name: "offloadctl",
      dependencies: [
        "Offload",
        "OffloadWeb",
        "TerminalUI",
        // Value types in command output (placements, gesture reports, photo decisions).
        "OrderingCore", "Gestures", "PhotoSession",
        // The atomic write of `photos preview`.
        "Persistence",
        .product(
          name: "ArgumentParser", package: "swift-argument-parser", condition: whenCommandLineTool),
        // The server's logger, made and levelled by `serve`.
        .product(name: "Logging", package: "swift-log", condition: whenCommandLineTool),
      ],
      swiftSettings: swiftSettings
    ),

    // The crash test driver for Persistence (SIGKILLs a writer child at random moments); the
    // Persistence tests run a short version of it.
    .executableTarget(
      name: "persistence-crash",
      dependencies: ["Persistence"],
      path: "Tools/PersistenceCrash",
      swiftSettings: swiftSettings
    ),

    // The kill -9, disk-full and concurrency trials of the list store: it runs the built
    // offloadctl (so it needs no library module, only the tests' seeded generator);
    // offloadctlTests run a short version.
    .executableTarget(
      name: "store-crash",
      dependencies: ["OffloadTestSupport"],
      path: "Tools/StoreCrash",
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
      dependencies: ["Persistence"],
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
      name: "PersistenceTests",
      dependencies: ["Persistence", "OffloadTestSupport", "persistence-crash"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SelectionTests",
      dependencies: ["Selection", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TerminalUITests",
      dependencies: ["TerminalUI", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GesturesTests",
      dependencies: ["Gestures", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "ReplicationTests",
      dependencies: ["Replication", "OrderingCore", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "PhotoSessionTests",
      dependencies: ["PhotoSession", "OffloadTestSupport", "photo-session-driver"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "EditingTests",
      dependencies: ["Editing", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "OffloadTests",
      dependencies: ["Offload", "Replication", "OffloadTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "OffloadWebTests",
      dependencies: [
        "OffloadWeb", "OffloadTestSupport", "Persistence", "offloadctl",
        // The HTTP API in process: `app.test(.router)`.
        .product(name: "HummingbirdTesting", package: "hummingbird", condition: whenWebServer),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "offloadctlTests",
      dependencies: [
        "offloadctl", "store-crash", "Offload", "PhotoSession", "Persistence", "TerminalUI",
        "OffloadTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
  ]
)
