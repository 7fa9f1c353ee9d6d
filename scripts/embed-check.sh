#!/bin/sh
# Builds a package that depends on swift-sentiment by version, as a Swift
# developer's service would (`.package(url:…, exact: "1.0.0")` on a clone of
# HEAD, tagged in the clone), with the README's library example as its main.swift,
# and runs it from `/`: the example must compile against the public API, the
# dependency must be accepted (SwiftPM refuses, by version, a package whose
# tools version is under 6.2 and that uses unsafe flags, as this one does), and
# `SentimentModel.loadDefault()` must find the model in the checkout.
# Part of `make test` (about two minutes: the dependency is built from scratch).
# It checks the committed HEAD, not uncommitted changes.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

git clone -q "$root" "$work/swift-sentiment"
git -C "$work/swift-sentiment" tag -f 1.0.0 >/dev/null

mkdir -p "$work/client/Sources/Client"
cat > "$work/client/Package.swift" <<MANIFEST
// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "client",
    dependencies: [.package(url: "file://$work/swift-sentiment", exact: "1.0.0")],
    targets: [.executableTarget(name: "Client", dependencies: [.product(name: "Sentiment", package: "swift-sentiment")])]
)
MANIFEST
# The README's example: the Swift block that starts with `import Sentiment` under "## The library".
awk '/^## The library/ { library = 1 }
     library && /^import Sentiment$/ { copying = 1 }
     copying && /^```/ { exit }
     copying { print }' "$root/README.md" > "$work/client/Sources/Client/main.swift"
if ! grep -q classify "$work/client/Sources/Client/main.swift"; then
    echo "embed-check: no library example found in README.md" >&2
    exit 1
fi

if ! (cd "$work/client" && "$swift" build -q) >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    echo "embed-check: the dependent package did not build" >&2
    exit 1
fi
output=$(cd / && "$work/client/.build/debug/Client")
first=$(echo "$output" | sed -n 1p | cut -d' ' -f1)
second=$(echo "$output" | sed -n 2p | cut -d' ' -f1)
if [ "$first" != positive ] || [ "$second" != negative ]; then
    echo "embed-check: the README's example printed, from /:" >&2
    echo "$output" >&2
    exit 1
fi
echo "embed-check: a package depending on swift-sentiment 1.0.0 built and ran the README's example ($first, $second)"
