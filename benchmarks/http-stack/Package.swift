// swift-tools-version:6.0
// The HTTP stacks alone, for benchmarks/run's W0 table: a bare Vapor 4 and a bare Hummingbird 2 answering
// {"status":"ok"} to GET /health, as Atelier's /health does. Not part of the product; built on demand
// (`swift build -c release --package-path benchmarks/http-stack`).
import PackageDescription

let package = Package(
    name: "http-stack",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/vapor/vapor.git", from: "4.100.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
    ],
    targets: [
        .executableTarget(name: "VaporHello", dependencies: [.product(name: "Vapor", package: "vapor")]),
        .executableTarget(name: "HummingbirdHello", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
    ]
)
