// swift-tools-version:6.0
import PackageDescription

// A shopper's first minutes, through AtelierKit's screen models, against a running server:
//   (in this folder) swift run Shopper http://127.0.0.1:8080
// It depends on the SDK by path, as an app in this repository would; an app elsewhere points
// `.package(url:…)` at the repository instead.
let package = Package(
    name: "Shopper",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(name: "Shopper", dependencies: [.product(name: "AtelierKit", package: "AtelierKit")]),
    ]
)
