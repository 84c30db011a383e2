#!/usr/bin/env bash
# Generates the Kotlin and Swift sources from the built library with the workspace's own
# uniffi-bindgen (the same uniffi version as the library), and lays them out:
#   bindings/kotlin/src/main/kotlin/uniffi/...   (Maven project)
#   bindings/swift/Sources/...                   (Swift package)
# `--check` fails when the committed sources differ from what the library generates.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${CARGO_TARGET_DIR:-target}
cargo build -q --locked -p toolpack-uniffi -p uniffi-bindgen
out=$target/uniffi
rm -rf "$out"
cargo run -q --locked -p uniffi-bindgen -- generate --library "$target/debug/libtoolpack_uniffi.so" \
  --language kotlin --language swift --no-format --out-dir "$out"
staged=$target/uniffi-layout
rm -rf "$staged"
mkdir -p "$staged/kotlin" "$staged/swift/Toolpack" "$staged/swift/ToolpackFFI/include"
cp -r "$out/uniffi" "$staged/kotlin/"
cp "$out"/*.swift "$staged/swift/Toolpack/"
cp "$out"/*.h "$staged/swift/ToolpackFFI/include/"
for map in "$out"/*.modulemap; do cat "$map"; echo; done > "$staged/swift/ToolpackFFI/include/module.modulemap"
kotlin_dir=bindings/kotlin/src/main/kotlin
swift_dir=bindings/swift/Sources
if [[ "${1:-}" == "--check" ]]; then
  if diff -r "$staged/kotlin" "$kotlin_dir" > /dev/null && diff -r "$staged/swift" "$swift_dir" > /dev/null; then
    echo "bindings: committed Kotlin and Swift sources match the library"
  else
    diff -r "$staged/kotlin" "$kotlin_dir" | head -20 || true
    diff -r "$staged/swift" "$swift_dir" | head -20 || true
    echo "bindings: generated sources are out of date; run bindings/generate.sh" >&2
    exit 1
  fi
else
  rm -rf "$kotlin_dir" "$swift_dir"
  mkdir -p "$kotlin_dir" "$swift_dir"
  cp -r "$staged/kotlin/." "$kotlin_dir/"
  cp -r "$staged/swift/." "$swift_dir/"
  echo "bindings: wrote $kotlin_dir and $swift_dir"
fi
