// swift-tools-version:6.0
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

// Debian builds with its own Swift (Debian 13: swiftlang 6.0.3) and without a network.
// swift-argument-parser, the one dependency the shipped binaries have, comes with Debian's source
// package as a component tarball (debian/README.source): when swift-argument-parser/ sits beside
// this file, that copy is used. swift-property-based, for PetCoreTests' property tests only,
// declares tools version 6.1: SwiftPM 6.0 cannot read its manifest, so before 6.1 it is left out
// with the tests that use it.
let vendored = FileManager.default.fileExists(atPath: Context.packageDirectory + "/swift-argument-parser/Package.swift")
let argumentParser: Package.Dependency =
    vendored
    ? .package(path: "swift-argument-parser")
    : .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2")
#if compiler(>=6.1)
    let withPropertyBased = !vendored
#else
    let withPropertyBased = false
#endif
let propertyBased: [Package.Dependency] =
    withPropertyBased ? [.package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1")] : []
let propertyTests: [Target.Dependency] =
    withPropertyBased ? [.product(name: "PropertyBased", package: "swift-property-based")] : []
let withoutPropertyBased =
    withPropertyBased
    ? []
    : [
        "AwayDayTests.swift", "DayOrderPropertyTests.swift", "PropertyTests.swift", "SimulatorTests.swift",
        "SnapshotPropertyTests.swift", "TickPropertyTests.swift",
    ]

let package = Package(
    name: "PetProgress",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PetCore", targets: ["PetCore"])
    ],
    dependencies: [argumentParser] + propertyBased,
    targets: [
        // Layer 1: the pure rules. FoundationEssentials only; no clock, disk, environment or bus.
        // Optimised in debug builds too: the zone sweeps in PetCoreTests call `Zone.offset(at:)`
        // some 10^9 times, 5× slower unoptimised (docs/DECISIONS.md, "PetCore is compiled with `-O` in debug builds too").
        .target(name: "PetCore", swiftSettings: strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // One pet on two machines (docs/SYNC.md): operations, their fold through PetCore, the merge. No I/O.
        .target(
            name: "PetSync", dependencies: ["PetCore"],
            swiftSettings: strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // The PetCore benchmark (docs/BENCHMARKS.md, "PetCore"); build with -c release.
        .executableTarget(name: "bench-core", dependencies: ["PetCore"], path: "bench/core", swiftSettings: strict),

        // Linux system calls: the one EINTR-retrying funnel, timerfd/signalfd/inotify, the poll loop.
        // CLinux: the kernel headers Swift's Glibc module leaves out (timerfd, signalfd).
        .systemLibrary(name: "CLinux"),
        .target(name: "LinuxKit", dependencies: ["CLinux"], swiftSettings: strict),

        // The bus: libdbus through pkg-config, and the generic Swift layer over it (knows no pets).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "DBusKit", dependencies: ["CDBus", "LinuxKit"], swiftSettings: strict),
        // A service exercising every DBusKit feature, for DBusKitTests and the DBusKit benchmark.
        .executableTarget(
            name: "dbuskit-testservice", dependencies: ["DBusKit", "LinuxKit"],
            path: "Tests/Executables/dbuskit-testservice", swiftSettings: strict),
        // The DBusKit benchmark (docs/BENCHMARKS.md, "DBusKit"); build with -c release.
        .executableTarget(
            name: "dbuskit-bench", dependencies: ["DBusKit", "LinuxKit"], path: "bench/dbuskit", swiftSettings: strict),

        // Where the XDG base directories are (data, configuration): one rule for the daemon and petctl.
        .target(name: "XDG", swiftSettings: strict),

        // Layer 2: the durable file store (state file, history, lock, migration, quarantine).
        .target(name: "PetStore", dependencies: ["PetCore", "LinuxKit", "XDG"], swiftSettings: strict),
        // A child process for PetStoreTests' crash test: seeded mutations, SIGKILLed at random.
        .executableTarget(
            name: "petstore-crashchild", dependencies: ["PetCore", "PetStore"],
            path: "Tests/Executables/petstore-crashchild", swiftSettings: strict),
        // The PetStore benchmark (docs/BENCHMARKS.md); build with -c release.
        .executableTarget(
            name: "bench-store", dependencies: ["PetCore", "PetStore"], path: "bench/store", swiftSettings: strict),

        // The D-Bus contract as a library: names, values ⇄ DBusValue, errors, and the typed PetClient.
        // Contract/io.petprogress.PetProgress1.xml links to dbus/'s file, embedded as bytes: the one
        // spelling of the interface, which `Introspect` serves and a test checks the typed table against.
        .target(
            name: "PetBus", dependencies: ["DBusKit", "PetCore"],
            resources: [.embedInCode("Contract/io.petprogress.PetProgress1.xml")], swiftSettings: strict),

        // Layer 3: the daemon's brain (the interface on PetCore + PetStore, the event loop) and its main.
        .target(
            name: "PetService", dependencies: ["PetCore", "PetStore", "DBusKit", "PetBus", "LinuxKit", "XDG"],
            swiftSettings: strict),
        .executableTarget(name: "petprogressd", dependencies: ["PetService", "LinuxKit"], swiftSettings: strict),
        // gettext and the locale's calendar from glibc (libintl.h, nl_langinfo), for petctl's words.
        .systemLibrary(name: "CIntl"),
        // The command-line client (petprogress(7) §7): argument-parser commands and output formats over PetClient.
        .executableTarget(
            name: "petctl",
            dependencies: [
                "CIntl", "DBusKit", "LinuxKit", "PetBus", "PetCore", "XDG",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        // The daemon benchmark against playerctld and the bus (docs/BENCHMARKS.md); build with -c release.
        .executableTarget(
            name: "bench-daemon", dependencies: ["DBusKit", "LinuxKit", "PetBus", "PetCore", "PetStore"],
            path: "bench/daemon",
            swiftSettings: strict),

        // The one test harness: processes (posix_spawn with an empty signal mask), sandboxes, the
        // private bus, tool results, ISO 8601 instants, and the real daemon and its clients.
        .target(
            name: "TestSupport", dependencies: ["DBusKit", "LinuxKit", "PetCore"], path: "Tests/TestSupport",
            swiftSettings: strict),
        // The black-box load client of the reliability tests (docs/RELIABILITY.md): DBusKit with
        // literal names (and PetCore only for its seeded generator).
        .executableTarget(
            name: "petload", dependencies: ["DBusKit", "PetCore"], path: "Tests/Executables/petload",
            swiftSettings: strict),
        // Seeded random hostile calls for IntegrationTests' hostile-input burst.
        .executableTarget(
            name: "hostile-client", dependencies: ["DBusKit", "PetCore"], path: "Tests/Executables/hostile-client",
            swiftSettings: strict),

        // A test StatusNotifierWatcher for IntegrationTests' tray suite.
        .executableTarget(
            name: "sni-watcher", dependencies: ["DBusKit", "LinuxKit"], path: "Tests/Executables/sni-watcher",
            swiftSettings: strict),

        // Tests, one target per library.
        .testTarget(name: "LinuxKitTests", dependencies: ["LinuxKit"], swiftSettings: strict),
        .testTarget(
            name: "DBusKitTests", dependencies: ["DBusKit", "LinuxKit", "TestSupport", "dbuskit-testservice"],
            swiftSettings: strict),
        .testTarget(
            name: "PetCoreTests",
            dependencies: ["PetCore", "PetBus", "TestSupport"] + propertyTests,
            exclude: withoutPropertyBased, swiftSettings: strict),
        .testTarget(name: "PetBusTests", dependencies: ["DBusKit", "PetBus", "PetCore"], swiftSettings: strict),
        // petctl's own logic, in-process (the commands themselves are tested against the real daemon).
        // Fixtures/time-input.tsv: the forgiving times, read by path (other clients can use it too).
        .testTarget(name: "PetCtlTests", dependencies: ["petctl"], exclude: ["Fixtures"], swiftSettings: strict),
        // The service in this process, its environment (clock, zone, store, signals) in the test's hands.
        .testTarget(
            name: "PetServiceTests",
            dependencies: ["DBusKit", "LinuxKit", "PetBus", "PetCore", "PetService", "PetStore", "TestSupport"],
            swiftSettings: strict),
        // Fixtures/: files earlier releases wrote, read by path for the migration tests.
        .testTarget(
            name: "PetStoreTests",
            dependencies: ["PetBus", "PetCore", "PetStore", "TestSupport", "XDG", "petstore-crashchild"] + propertyTests,
            exclude: ["Fixtures"] + (withPropertyBased ? [] : ["BoundsOnWriteTests.swift"]), swiftSettings: strict),
        // The real daemon on a private bus, driven by busctl, gdbus, dbus-send and DBusKit.
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "DBusKit", "LinuxKit", "PetBus", "PetCore", "PetService", "PetStore", "TestSupport", "petprogressd",
                "petctl", "petload", "hostile-client", "sni-watcher",
            ],
            swiftSettings: strict),
    ]
)

// The sync model's properties, and a simulated synced folder of real files (docs/SYNC.md). Two files
// hold the property tests; without swift-property-based they are left out and the synced folder
// (SyncedFolderTests, which needs none) still runs.
package.targets.append(
    .testTarget(
        name: "PetSyncTests", dependencies: ["PetCore", "PetSync", "TestSupport"] + propertyTests,
        exclude: withPropertyBased
            ? [] : ["CompactionTests.swift", "ConvergenceTests.swift", "SingleReplicaTests.swift"],
        swiftSettings: strict))
