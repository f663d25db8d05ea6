// swift-tools-version: 6.2
import PackageDescription

// Module layout and dependency direction: docs/architecture.md.
let package = Package(
    name: "edge-gateway",
    products: [
        .executable(name: "edge-gateway", targets: ["EdgeGateway"]),
        .executable(name: "edge-gateway-lab", targets: ["EdgeGatewayLab"]),
        .executable(name: "edge-gateway-bench", targets: ["EdgeGatewayBench"]),
        .executable(name: "edge-gateway-peripheral", targets: ["HeartRatePeripheral"]),
        .library(name: "GATTHeartRate", targets: ["GATTHeartRate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Only the lab's JHE stand-in uses Hummingbird; without the FullFoundation trait, so that
        // the tests and the lab do not link ICU (~40 MB).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .target(name: "GATTHeartRate"),
        .target(name: "DurableFile"),
        .target(name: "OutputFormats"),
        .systemLibrary(name: "CBlueZ", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "ProcessThreads", dependencies: ["CLinux", .product(name: "HeapModule", package: "swift-collections")]),
        .target(name: "DBus", dependencies: ["CBlueZ", "ProcessThreads"]),
        .target(name: "BlueZ", dependencies: ["CLinux", "DBus", "ProcessThreads"]),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .target(name: "ConsoleSecurity", dependencies: ["CCrypto", "DurableFile", "OutputFormats"]),
        .target(name: "BlueZSimulator", dependencies: ["BlueZ", "CLinux", "DBus", "GATTHeartRate"]),
        .target(
            name: "OfflineQueue",
            dependencies: [
                "CLinux",
                "CSQLite",
                "DurableFile",
                "OutputFormats",
                "ProcessThreads",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "Uplink",
            dependencies: [
                "GATTHeartRate",
                "DurableFile",
                "CCurl",
                "OutputFormats",
                "ProcessThreads",
            ]
        ),
        .target(
            name: "JHESimulator",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(name: "GatewayConfiguration", dependencies: ["DurableFile", "OutputFormats", "Uplink"]),
        .target(name: "GatewayStatus", dependencies: ["DurableFile", "OutputFormats", "Uplink"]),
        .target(
            name: "GatewayPipeline",
            dependencies: [
                "GATTHeartRate",
                "BlueZ",
                "CLinux",
                "DBus",
                "DurableFile",
                "GatewayConfiguration",
                "GatewayStatus",
                "OfflineQueue",
                "OutputFormats",
                "ProcessThreads",
                "Uplink",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .target(
            name: "GatewayOperations",
            dependencies: [
                "ConsoleSecurity",
                "GATTHeartRate",
                "BlueZ",
                "DBus",
                "DurableFile",
                "GatewayConfiguration",
                "GatewayPipeline",
                "GatewayStatus",
                "OfflineQueue",
                "OutputFormats",
                "Uplink",
            ]
        ),
        .target(
            name: "GatewayDaemon",
            dependencies: [
                "BlueZ",
                "ConsoleSecurity",
                "CLinux",
                "GatewayConfiguration",
                "GatewayOperations",
                "GatewayPipeline",
                "GatewayStatus",
                "OfflineQueue",
                "OutputFormats",
                "ProcessThreads",
                "Uplink",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "GatewayCommandLine",
            dependencies: [
                "GatewayConfiguration",
                "GatewayPipeline",
                "OutputFormats",
                "BlueZ",
                "GATTHeartRate",
                "OfflineQueue",
                "Uplink",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "EdgeGateway",
            dependencies: [
                "ConsoleSecurity",
                "GatewayConfiguration",
                "GatewayOperations",
                "GatewayPipeline",
                "GatewayStatus",
                "OutputFormats",
                "GatewayDaemon",
                "ProcessThreads",
                "GatewayCommandLine",
                "GATTHeartRate",
                "BlueZ",
                "DBus",
                "OfflineQueue",
                "Uplink",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "EdgeGatewayLab",
            dependencies: [
                "GatewayPipeline",
                "GatewayStatus",
                "OutputFormats",
                "GatewayCommandLine",
                "GATTHeartRate",
                "BlueZSimulator",
                "OfflineQueue",
                "JHESimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "EdgeGatewayBench",
            dependencies: ["GATTHeartRate", "BlueZ", "DBus", "BlueZSimulator", "CLinux", "OfflineQueue", "Uplink", "JHESimulator"]
        ),
        .executableTarget(
            name: "HeartRatePeripheral",
            dependencies: ["BlueZ", "DBus", "GATTHeartRate", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(name: "GatewayTestSupport", dependencies: ["GATTHeartRate", "BlueZSimulator"], path: "Tests/GatewayTestSupport"),
        .target(
            name: "PipelineTestSupport", dependencies: ["GatewayPipeline", "GatewayStatus", "GATTHeartRate", "Uplink"],
            path: "Tests/PipelineTestSupport"),
        .testTarget(
            name: "GATTHeartRateTests",
            dependencies: [
                "GATTHeartRate",
                "GatewayTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "ProcessThreadsTests", dependencies: ["ProcessThreads", "CLinux", "GatewayTestSupport"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "BlueZSimulator", "GatewayTestSupport"]),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "DBus", "BlueZSimulator", "GatewayTestSupport"]),
        .testTarget(name: "OfflineQueueTests", dependencies: ["OfflineQueue", "GatewayTestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "UplinkTests",
            dependencies: ["Uplink", "JHESimulator", "GATTHeartRate", "GatewayTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "JHESimulatorTests",
            dependencies: [
                "JHESimulator", "GatewayTestSupport", "Uplink",
            ]
        ),
        .testTarget(name: "OutputFormatsTests", dependencies: ["OutputFormats", "GatewayTestSupport"]),
        .testTarget(name: "ConsoleSecurityTests", dependencies: ["ConsoleSecurity", "GatewayTestSupport"]),
        .testTarget(
            name: "GatewayConfigurationTests",
            dependencies: ["GatewayConfiguration", "GatewayTestSupport", "OutputFormats", "Uplink"],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "GatewayStatusTests", dependencies: ["GatewayStatus", "PipelineTestSupport", "GatewayTestSupport"]),
        .testTarget(
            name: "GatewayPipelineTests",
            dependencies: [
                "GatewayPipeline", "PipelineTestSupport", "GatewayTestSupport", "GatewayConfiguration", "GatewayDaemon", "GatewayStatus",
                "GATTHeartRate",
                "BlueZ", "DBus", "BlueZSimulator", "OfflineQueue", "OutputFormats", "Uplink", "JHESimulator",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "GatewayOperationsTests", dependencies: ["GatewayOperations", "GatewayTestSupport"]),
        .testTarget(
            name: "GatewayDaemonTests",
            dependencies: [
                "GatewayDaemon", "PipelineTestSupport", "GatewayTestSupport", "GatewayConfiguration", "GatewayPipeline", "GatewayStatus",
                "ConsoleSecurity", "GatewayOperations", "OutputFormats", "Uplink", "JHESimulator",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "EdgeGatewayTests",
            dependencies: [
                "EdgeGateway", "EdgeGatewayLab", "GatewayDaemon", "GatewayCommandLine", "GatewayConfiguration", "GatewayOperations",
                "GatewayPipeline", "GatewayStatus", "OutputFormats", "GATTHeartRate", "BlueZ", "DBus", "BlueZSimulator", "OfflineQueue",
                "Uplink", "JHESimulator", "GatewayTestSupport", "PipelineTestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Fixtures"]
        ),
    ]
)
