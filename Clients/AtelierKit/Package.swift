// swift-tools-version:6.0
import PackageDescription

// AtelierKit, the Swift SDK the phone apps are built on (issue 52). An app that adds it resolves
// swift-openapi-runtime and swift-http-types and nothing else: no server code, no generator
// (its types and client are generated from openapi.yaml and checked in; `make test` fails when
// they drift), no URLSession package (a small transport of its own).
let package = Package(
    name: "AtelierKit",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "AtelierKit", targets: ["AtelierKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
    ],
    targets: [
        // The types and client swift-openapi-generator makes from openapi.yaml (scripts/generate-sdk-api.sh).
        .target(
            name: "AtelierAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "AtelierKit",
            dependencies: [
                "AtelierAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ]
)
