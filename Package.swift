// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Atelier",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "atelier", targets: ["AtelierCLI"]),
        .executable(name: "api-reference", targets: ["APIReferenceTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.115.0"),
        .package(url: "https://github.com/vapor/fluent.git", from: "4.12.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.8.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.10.0"),
        .package(url: "https://github.com/vapor/leaf.git", from: "4.4.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.1.0"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/swift-openapi-vapor.git", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.24.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.29.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.19"),
        .package(url: "https://github.com/JohnSundell/Ink.git", from: "0.6.0"),
        // openapi.yaml read by the api-reference tool and the tests (already in the graph through
        // swift-openapi-generator); the server itself reads the tool's JSON and links neither.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The SDK, a package of its own (issue 52): the live-server tests and the upload benchmark use it by path.
        .package(path: "Clients/AtelierKit"),
    ],
    targets: [
        // Code generated from openapi.yaml: the server's types and stubs. (AtelierKit has its own
        // types and client, generated from the same file into Clients/AtelierKit.)
        .target(
            name: "AtelierServerAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // libvips, the image library (Debian: libvips-dev), and the C wrappers Swift needs for its
        // variadic functions.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "VipsShim", dependencies: ["CVips"]),
        // OpenCV's GrabCut behind a C function, for the closet's garment cut-outs (Debian:
        // libopencv-imgproc-dev, which ships no pkg-config file; hence the explicit paths).
        .target(
            name: "CutoutShim",
            cxxSettings: [.unsafeFlags(["-I/usr/include/opencv4"])],
            linkerSettings: [.linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core")]
        ),
        // What /api/docs shows, as plain structs (Foundation only): the server decodes it from
        // Resources/api-reference.json.
        .target(name: "APIReference"),
        // openapi.yaml to that reference, with OpenAPIKit and Yams; the tool writes the JSON and the
        // tests check it is not stale.
        .target(
            name: "APIReferenceBuilder",
            dependencies: [
                "APIReference",
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(name: "APIReferenceTool", dependencies: ["APIReferenceBuilder"]),
        // The server: one folder per domain plus Core.
        .target(
            name: "Atelier",
            dependencies: [
                "AtelierServerAPI",
                "APIReference",
                "CVips",
                "VipsShim",
                "CutoutShim",
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Fluent", package: "fluent"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "Leaf", package: "leaf"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIVapor", package: "swift-openapi-vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Ink", package: "Ink"),
            ]
        ),
        .executableTarget(
            name: "AtelierCLI",
            dependencies: ["Atelier", .product(name: "Vapor", package: "vapor")]
        ),
        // benchmarks/sdk-upload: an app's process uploading a big file through AtelierKit, measuring its own memory.
        .executableTarget(
            name: "AtelierKitUploadBench",
            dependencies: [.product(name: "AtelierKit", package: "AtelierKit")],
            path: "benchmarks/sdk-upload/UploadBench"
        ),
        // The suites' check that no answer writes an id in upper case (issue 23).
        .target(
            name: "UUIDCasingCheck",
            dependencies: [.product(name: "Vapor", package: "vapor")],
            path: "Tests/UUIDCasingCheck"
        ),
        // A sign-in provider of the tests' own (a JWKS and ID tokens signed with it), for both suites.
        .target(
            name: "FakeProviders",
            dependencies: [.product(name: "JWTKit", package: "jwt-kit")],
            path: "Tests/FakeProviders"
        ),
        .testTarget(
            name: "AtelierTests",
            dependencies: [
                "Atelier",
                "APIReference",
                "APIReferenceBuilder",
                "UUIDCasingCheck",
                "FakeProviders",
                "VipsShim",
                "CVips",
                .product(name: "VaporTesting", package: "vapor"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "AtelierKitTests",
            dependencies: [
                .product(name: "AtelierKit", package: "AtelierKit"),
                "Atelier",
                "UUIDCasingCheck",
                "FakeProviders",
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
    ]
)
