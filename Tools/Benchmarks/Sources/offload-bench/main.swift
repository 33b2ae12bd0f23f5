import ArgumentParser

/// `offload-bench`: Offload's benchmarks. Run in release mode:
///
///     swift run -c release --package-path Tools/Benchmarks offload-bench keys [--json]
///     swift run -c release --package-path Tools/Benchmarks offload-bench persistence [--json]
struct OffloadBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "offload-bench",
    abstract: "Offload's benchmarks (build with -c release).",
    subcommands: [
      KeysBenchmark.self, LabelingBenchmark.self, ForestBenchmark.self, PersistenceBenchmark.self,
      GesturesBenchmark.self, GestureTracesCommand.self, SelectionBenchmark.self,
      RedrawBenchmark.self, OrganizeBenchmark.self, PhotosBenchmark.self, PhotosStartChild.self,
      CLIBenchmark.self, OutlineBenchmark.self, WebBenchmark.self, DropRegionsBenchmark.self,
      ListMovesBenchmark.self, ReplicationBenchmark.self, SyncBenchmark.self,
    ]
  )
}

OffloadBench.main()
