// swift-tools-version: 6.0
//
// FoldSearch — case- and accent-insensitive search over UTF-8 with exact ranges
// of the original text.
//
// Module layering (each split is where the dependencies change):
//   _FoldSearchICU      system ICU (libicu-dev) found with pkg-config
//   _FoldSearchCShim    the code that includes ICU headers for the library;
//                       plain-C API
//   _FoldSearchICUPeers ICU peers (usearch, the ICU fold pipeline) and the
//                       usearch oracle: only foldbench, FoldSearchReference
//                       and the tests link them
//   _FoldSearchSIMD     C vector kernels (SSE2/AVX2, runtime dispatch), no ICU
//   _FoldSearchBytes    byte search (Horspool, Two-Way, SIMD prefilter)
//   FoldSearch          the public API: fold tables, FoldedText, matching
//   FoldSearchFoundation  AttributedString highlighting (the only part that
//                       needs Foundation: foldgrep loads neither it nor its ICU)
//   FoldSearchReference the Foundation oracle and the disagreement comparator
//   _FoldSearchPCRE2    system PCRE2 (libpcre2-dev) found with pkg-config
//   _FoldSearchPCRE2Shim the only code that includes PCRE2's header; plain-C API
//   FoldSearchPattern   regular expressions folded like the text (FoldedPattern),
//                       so that plain FoldSearch clients do not link PCRE2
//   FoldGrepCLI         the foldgrep command (public API of the libraries only);
//                       the foldgrep executable is its entry point alone, linked
//                       with the Swift runtime statically, and the tests import it
import PackageDescription

let package = Package(
  name: "FoldSearch",
  products: [
    .library(name: "FoldSearch", targets: ["FoldSearch"]),
    // AttributedString highlighting: the only part that needs Foundation.
    .library(name: "FoldSearchFoundation", targets: ["FoldSearchFoundation"]),
    .library(name: "FoldSearchReference", targets: ["FoldSearchReference"]),
    .library(name: "FoldSearchPattern", targets: ["FoldSearchPattern"]),
    .executable(name: "foldgrep", targets: ["foldgrep"]),
    .executable(name: "foldfuzz", targets: ["foldfuzz"]),
    .executable(name: "foldbench", targets: ["foldbench"]),
    .executable(name: "foldsearch-demo", targets: ["foldsearch-demo"]),
  ],
  targets: [
    .systemLibrary(
      name: "_FoldSearchICU",
      pkgConfig: "icu-i18n",
      providers: [.apt(["libicu-dev", "pkg-config"])]
    ),
    .target(
      name: "_FoldSearchCShim",
      dependencies: ["_FoldSearchICU"]
    ),
    .target(
      name: "_FoldSearchICUPeers",
      dependencies: ["_FoldSearchCShim", "_FoldSearchICU"]
    ),
    .target(name: "_FoldSearchSIMD"),
    .systemLibrary(
      name: "_FoldSearchPCRE2",
      pkgConfig: "libpcre2-8",
      providers: [.apt(["libpcre2-dev", "pkg-config"])]
    ),
    .target(name: "_FoldSearchPCRE2Shim", dependencies: ["_FoldSearchPCRE2"]),
    .target(name: "FoldSearchPattern", dependencies: ["FoldSearch", "_FoldSearchPCRE2Shim"]),

    // Hyperscan (libhyperscan-dev), foldbench's peer for many queries: a
    // shim of its own (prefix fshs_), linked only by foldbench.
    .systemLibrary(
      name: "_FoldSearchHSLib",
      pkgConfig: "libhs",
      providers: [.apt(["libhyperscan-dev"])]
    ),
    .target(name: "_FoldSearchHyperscan", dependencies: ["_FoldSearchHSLib"]),
    .target(name: "_FoldSearchBytes", dependencies: ["_FoldSearchSIMD"]),
    .target(
      name: "FoldSearch",
      dependencies: ["_FoldSearchCShim", "_FoldSearchBytes", "_FoldSearchSIMD"]
    ),
    .target(
      name: "FoldSearchFoundation",
      dependencies: ["FoldSearch"]
    ),
    .target(
      name: "FoldSearchReference",
      dependencies: ["FoldSearch", "_FoldSearchICUPeers"]
    ),
    .target(
      name: "_FoldSearchTestSupport",
      dependencies: ["FoldSearch", "FoldSearchReference"]
    ),
    .target(
      name: "FoldGrepCLI",
      // Public API only (Scripts/check-public-api.sh checks it).
      dependencies: ["FoldSearch", "FoldSearchPattern"]
    ),
    .executableTarget(
      name: "foldgrep",
      dependencies: ["FoldGrepCLI"],
      // The Swift runtime linked in: a binary that runs where no Swift is
      // installed, and a few milliseconds less of dynamic linking at every
      // start. Only this target: the test bundles link FoldGrepCLI, not it
      // (XCTest and Testing do not link statically).
      linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux]))]
    ),
    .executableTarget(
      name: "foldfuzz",
      dependencies: ["FoldSearch", "FoldSearchReference", "_FoldSearchTestSupport"]
    ),
    .executableTarget(
      name: "foldbench",
      dependencies: [
        "FoldSearch", "FoldSearchReference", "_FoldSearchBytes", "_FoldSearchCShim",
        "_FoldSearchICUPeers", "_FoldSearchHyperscan", "_FoldSearchTestSupport",
      ],
      path: "Benchmarks/foldbench"
    ),
    .executableTarget(
      name: "foldsearch-demo",
      dependencies: ["FoldSearch"]
    ),
    // libFuzzer targets: build with
    //   swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --product NAME
    // (see Fuzz/README.md); without -DFUZZING they replay inputs given as files.
    .executableTarget(
      name: "FuzzFoldedText",
      dependencies: ["FoldSearch", "_FoldSearchTestSupport"],
      path: "Fuzz/FuzzFoldedText"
    ),
    .executableTarget(
      name: "FuzzDifferential",
      dependencies: ["FoldSearch", "FoldSearchReference", "_FoldSearchTestSupport"],
      path: "Fuzz/FuzzDifferential"
    ),
    .executableTarget(
      name: "FuzzQuerySet",
      dependencies: ["FoldSearch", "_FoldSearchTestSupport"],
      path: "Fuzz/FuzzQuerySet"
    ),
    .testTarget(
      name: "FoldSearchAppTests",
      dependencies: [
        "FoldSearch", "FoldSearchFoundation", "foldsearch-demo", "_FoldSearchTestSupport",
      ]
    ),
    .testTarget(
      name: "ReliabilityTests",
      dependencies: ["FoldSearch", "FoldSearchReference", "_FoldSearchTestSupport"]
    ),
    .testTarget(
      name: "_FoldSearchBytesTests",
      dependencies: ["_FoldSearchBytes", "_FoldSearchSIMD", "_FoldSearchTestSupport"]
    ),
    .testTarget(
      name: "FoldSearchTests",
      dependencies: ["FoldSearch", "FoldSearchReference", "_FoldSearchTestSupport"]
    ),
    // Drives foldsearch-demo's interactive panel in tmux (capture-pane), and
    // compares its saved files with foldgrep --in-place.
    .testTarget(
      name: "FoldSearchDemoTests",
      dependencies: ["FoldSearch", "foldsearch-demo", "FoldGrepCLI"]
    ),
    .testTarget(
      name: "FoldSearchPatternTests",
      dependencies: [
        "FoldSearchPattern", "FoldSearch", "_FoldSearchPCRE2Shim", "_FoldSearchTestSupport",
      ]
    ),
    .testTarget(
      name: "FoldGrepTests",
      dependencies: ["FoldGrepCLI", "_FoldSearchTestSupport"]
    ),
  ]
)
