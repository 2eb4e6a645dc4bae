// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "HotTask",
    products: [
        .executable(name: "hottask", targets: ["hottask"]),
        .executable(name: "hottask-sync", targets: ["hottask-sync"]),
        .executable(name: "hottask-bench", targets: ["HotTaskBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // Model, input rule, progress, JSON store, import/export. Knows nothing of terminals.
        .target(name: "HotTaskCore", dependencies: ["CFileSync"]),
        // The config file, read whole in one place (the UI's theme and keys, the shared
        // settings, `[sync]`), the TOML subset, the `[sync]` writer, and where files live (XDG).
        .target(name: "HotTaskSettings", dependencies: ["HotTaskCore"]),
        // UI as values: state, pure update, render into a grid. Knows nothing of ncurses.
        .target(name: "HotTaskUI", dependencies: ["HotTaskCore", "HotTaskSettings"]),
        // CalDAV over HTTP(S): the sync engine's server, through the system's libcurl.
        .target(name: "CalDAV", dependencies: ["HotTaskCore", "CCurl"]),
        // A few plain C functions over libcurl's variadic setopt (Swift cannot call it), with
        // libcurl loaded by dlopen when a sync first needs it: never at any other command's start.
        .target(name: "CCurl"),
        .systemLibrary(
            name: "CNcursesw",
            path: "Sources/CNcursesw",
            providers: [.apt(["libncurses-dev"])]
        ),
        // glibc's malloc tuning (mallopt), which the Glibc module leaves out: one inline function.
        .systemLibrary(name: "CMallocTuning", path: "Sources/CMallocTuning"),
        // Linux's sync_file_range (early write-back of large files), which the Glibc module leaves out.
        .systemLibrary(name: "CFileSync", path: "Sources/CFileSync"),
        .executableTarget(
            name: "hottask",
            dependencies: [
                "HotTaskCore",
                "HotTaskSettings",
                "HotTaskUI",
                "CNcursesw",
                "CMallocTuning",
                "HotTaskSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // One sync or one set-up, run by `hottask --sync` and the UI as `hottask-sync`: the
        // package's link to `hottask`, which hands over to it by that name.
        .target(name: "HotTaskSync", dependencies: ["HotTaskCore", "HotTaskSettings", "CalDAV"]),
        // The same helper as a program of its own, for development builds and tests.
        .executableTarget(name: "hottask-sync", dependencies: ["HotTaskSync"]),
        // A repeatable random stream, shared by tests and benchmarks.
        .target(name: "Seeded"),
        // `make bench`: generated stores, the real binary timed per operation, the UI per key.
        .executableTarget(name: "HotTaskBench", dependencies: ["HotTaskCore", "HotTaskSettings", "HotTaskUI", "Seeded"]),
        .target(name: "TestSupport", dependencies: ["HotTaskCore", "Seeded"], path: "Tests/TestSupport"),
        .testTarget(name: "HotTaskCoreTests", dependencies: ["HotTaskCore", "TestSupport"]),
        .testTarget(
            name: "HotTaskUITests", dependencies: ["HotTaskUI", "HotTaskCore", "HotTaskSettings", "TestSupport"],
            // The screens' snapshot files are read from the source tree, not bundled.
            exclude: ["Snapshots"]),
        // Authentication and discovery, without a server.
        .testTarget(name: "CalDAVTests", dependencies: ["CalDAV", "HotTaskCore", "Seeded"]),
        // Runs the built `hottask` binary; depends on it so `swift test` builds it first.
        .testTarget(
            name: "EndToEndTests", dependencies: ["hottask", "hottask-sync", "HotTaskCore", "TestSupport"],
            // The snapshot files are read from the source tree, not bundled.
            exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
