// swift-tools-version: 6.2
import PackageDescription

// Module layout and dependency direction: docs/architecture.md.
// Targets appear here as real code lands in them.
let package = Package(
    name: "edge-gateway",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "edge-gateway", targets: ["EdgeGateway"]),
        .executable(name: "edge-gateway-bench", targets: ["EdgeGatewayBench"]),
        .library(name: "GATTHeartRate", targets: ["GATTHeartRate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(name: "GATTHeartRate"),
        .target(
            name: "OfflineQueue",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "EdgeGateway",
            dependencies: [
                "GATTHeartRate",
                "OfflineQueue",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "EdgeGatewayBench", dependencies: ["GATTHeartRate", "OfflineQueue"]),
        .target(name: "GatewayTestSupport", dependencies: ["GATTHeartRate"], path: "Tests/GatewayTestSupport"),
        .testTarget(
            name: "GATTHeartRateTests",
            dependencies: [
                "GATTHeartRate",
                "GatewayTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "OfflineQueueTests",
            dependencies: ["OfflineQueue", "GatewayTestSupport"]
        ),
        .testTarget(
            name: "EdgeGatewayTests",
            dependencies: ["EdgeGateway", "GATTHeartRate", "GatewayTestSupport", "OfflineQueue"]
        ),
    ]
)
