// swift-tools-version:6.0
// The measurement behind the choice of swift-prometheus for /metrics (docs/PERFORMANCE.md,
// "Metrics through swift-prometheus"): `withprom` records what the daemon counts per sample
// through swift-metrics into swift-prometheus's registry and renders it; `without` does the
// same into one Mutex-guarded struct, as the daemon's counter board does. Each prints CPU per
// sample and peak RSS; build both static and stripped to compare sizes:
//   cd scripts/bench-metrics && swift build -c release --static-swift-stdlib
//   .build/release/without && .build/release/withprom
import PackageDescription
let package = Package(
    name: "promcmp",
    dependencies: [
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(name: "Measurement"),
        .executableTarget(
            name: "withprom",
            dependencies: ["Measurement", .product(name: "Prometheus", package: "swift-prometheus"), .product(name: "Metrics", package: "swift-metrics")]
        ),
        .executableTarget(name: "without", dependencies: ["Measurement"]),
    ]
)
