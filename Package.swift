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
    ],
    targets: [
        .target(name: "GATTHeartRate"),
        .systemLibrary(name: "CBlueZ", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "BlueZ", dependencies: ["CBlueZ"]),
        .systemLibrary(name: "CLinux"),
        .target(name: "BlueZSimulator", dependencies: ["BlueZ", "GATTHeartRate"]),
        .executableTarget(
            name: "EdgeGateway",
            dependencies: [
                "GATTHeartRate",
                "BlueZ",
                "BlueZSimulator",
                "CLinux",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "EdgeGatewayBench", dependencies: ["GATTHeartRate", "BlueZ", "BlueZSimulator", "CLinux"]),
        .target(name: "GatewayTestSupport", dependencies: ["GATTHeartRate"], path: "Tests/GatewayTestSupport"),
        .testTarget(
            name: "GATTHeartRateTests",
            dependencies: [
                "GATTHeartRate",
                "GatewayTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "BlueZSimulator", "GatewayTestSupport"]),
        .testTarget(
            name: "EdgeGatewayTests",
            dependencies: ["EdgeGateway", "GATTHeartRate", "BlueZ", "BlueZSimulator", "GatewayTestSupport"]
        ),
    ]
)
