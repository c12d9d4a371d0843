// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "PetProgress",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PetCore", targets: ["PetCore"])
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1")
    ],
    targets: [
        // Layer 1: the pure rules. Foundation only; no clock, disk, environment or bus.
        .target(name: "PetCore", swiftSettings: strict),

        // Tests, one target per library.
        .testTarget(
            name: "PetCoreTests",
            dependencies: [
                "PetCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict),
    ]
)
