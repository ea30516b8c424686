#!/usr/bin/env bash
# The public-API gate: foldgrep (the FoldGrepCLI module, which is the command, and its
# entry point) is built on FoldSearch's and FoldSearchPattern's public API only. Every
# module of a SwiftPM package shares one package name, so `package` symbols are visible
# to foldgrep in a normal build; this script type-checks FoldGrepCLI's sources again with the exact compiler command SwiftPM uses (read from the
# build manifest, .build/<configuration>.yaml) and a package name of its own appended
# (the last -package-name wins), so that every `package` symbol foldgrep uses is an
# error ("is inaccessible due to 'package' protection level", "cannot find ... in
# scope"). An import of an underscore module (_FoldSearchCShim, _FoldSearchSIMD, ...)
# fails too. Exit status 0 when there is none, 1 with the list otherwise.
#
# Usage: Scripts/check-public-api.sh [-c debug|release]   (builds foldgrep first)
set -euo pipefail
cd "$(dirname "$0")/.."

configuration=debug
if [ "${1:-}" = "-c" ] && [ -n "${2:-}" ]; then configuration=$2; fi
target=FoldGrepCLI

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build -c "$configuration" --product foldgrep >"$log" 2>&1 || { cat "$log" >&2; exit 2; }
bin=$(swift build -c "$configuration" --show-bin-path)
manifest="$(dirname "$(dirname "$bin")")/$configuration.yaml"
[ -f "$manifest" ] || { echo "check-public-api: no build manifest at $manifest" >&2; exit 2; }

# The module's compile command: the `args:` line after its `C.<target>-…-<configuration>.module:`
# key, a JSON array of strings (SwiftPM writes no '","' inside an argument).
line=$(awk -v key="\"C.$target-" -v suffix="-$configuration.module\":" '
  index($0, key) && substr($0, length($0) - length(suffix) + 1) == suffix { found = 1; next }
  found && /^ *args: \[/ { print; exit }' "$manifest")
[ -n "$line" ] || { echo "check-public-api: no compile command for $target in $manifest" >&2; exit 2; }
line=${line#*args: \[\"}
line=${line%\"\]}
args=()
while [ -n "$line" ]; do
  case "$line" in
  *'","'*) args+=("${line%%\",\"*}"); line=${line#*\",\"} ;;
  *) args+=("$line"); line= ;;
  esac
done

# The same command, type-checking only (nothing written), with a package name foldgrep
# shares with no library.
command=()
skip=0
for arg in "${args[@]}"; do
  if [ $skip -eq 1 ]; then skip=0; continue; fi
  case "$arg" in
  -emit-module-path | -output-file-map | -index-store-path) skip=1 ;;
  -emit-dependencies | -emit-module | -incremental | -c | -serialize-diagnostics | \
    -parseable-output | -v | -enable-batch-mode | -index-system-modules) ;;
  *) command+=("$arg") ;;
  esac
done
command+=(-typecheck -continue-building-after-errors -package-name "${target}_public_api_probe")

output=$("${command[@]}" 2>&1) && status=0 || status=$?
violations=$(printf '%s\n' "$output" | grep -E ': error: ' | sed "s|^$PWD/||" | sort -u || true)
# The underscore modules are the libraries' insides, whatever their access levels say.
imports=$(grep -nE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|private|fileprivate)[[:space:]]+)?import[[:space:]]+(class |struct |enum |func |var |let |protocol |typealias )?_' \
  "Sources/$target"/*.swift Sources/foldgrep/*.swift | sed 's/$/: an underscore module/' || true)
violations=$(printf '%s\n%s\n' "$violations" "$imports" | sed '/^$/d')
if [ $status -ne 0 ] || [ -n "$violations" ]; then
  echo "check-public-api: Sources/$target uses symbols that are not public API:" >&2
  if [ -n "$violations" ]; then printf '%s\n' "$violations" >&2; else printf '%s\n' "$output" >&2; fi
  exit 1
fi
echo "check-public-api: Sources/$target uses public API only"
