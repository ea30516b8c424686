#!/usr/bin/env bash
# Builds the documentation site with the toolchain's own tools (no SwiftPM plugin,
# no network): `swift build`, `swift-symbolgraph-extract` for the public modules, and
# `docc convert --transform-for-static-hosting`.
#
#   Scripts/build-docs.sh [OUTPUT]     # default .build/docs-site
#
# OUTPUT/FoldSearch holds the catalog (Sources/FoldSearch/FoldSearch.docc: the articles)
# with FoldSearch's API reference, OUTPUT/FoldSearchFoundation and OUTPUT/FoldSearchPattern
# the API references of those modules. Serve OUTPUT over HTTP (e.g. `python3 -m http.server -d OUTPUT`)
# and open /FoldSearch/documentation/foldsearch/.
#
# Fails (status 1) on any docc warning (a broken symbol link, a missing article), and on
# any public symbol of those three modules without a doc comment of its
# own (a member that inherits the documentation of a standard protocol requirement, such
# as `==` or `hash(into:)`, counts as documented).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-.build/docs-site}
modules=(FoldSearch FoldSearchFoundation FoldSearchPattern)

echo "== swift build --target FoldSearchFoundation, FoldSearchPattern (debug)"
for target in FoldSearchFoundation FoldSearchPattern; do
  swift build --target "$target" 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
done
bin=$(swift build --show-bin-path)
triple=$(basename "$(dirname "$bin")")
[ -d "$bin/Modules" ] || { echo "no modules in $bin" >&2; exit 2; }

graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
status=0
for module in "${modules[@]}"; do
  echo "== swift-symbolgraph-extract $module"
  mkdir -p "$graphs/$module"
  swift-symbolgraph-extract -module-name "$module" -target "$triple" \
    -I "$bin/Modules" \
    -Xcc -fmodule-map-file="$bin/_FoldSearchCShim.build/module.modulemap" \
    -Xcc -fmodule-map-file="$bin/_FoldSearchSIMD.build/module.modulemap" \
    -Xcc -fmodule-map-file="$bin/_FoldSearchPCRE2Shim.build/module.modulemap" \
    -Xcc -I -Xcc Sources/_FoldSearchCShim/include -Xcc -I -Xcc Sources/_FoldSearchSIMD/include \
    -Xcc -I -Xcc Sources/_FoldSearchPCRE2Shim/include \
    -minimum-access-level public -emit-extension-block-symbols -output-dir "$graphs/$module"
done

echo "== public symbols without a doc comment"
python3 - "$graphs" "${modules[@]}" <<'PY' || status=1
import glob, json, sys
root, modules = sys.argv[1], sys.argv[2:]
missing = []
for module in modules:
    for path in sorted(glob.glob(f"{root}/{module}/*.symbols.json")):
        for symbol in json.load(open(path))["symbols"]:
            if symbol.get("accessLevel") != "public":
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                continue  # default implementations from protocol extensions
            if symbol["kind"]["identifier"] == "swift.extension":
                continue  # an extension block: its members carry the documentation
            if "docComment" not in symbol:
                missing.append(f"{module}: {symbol['kind']['displayName'].lower()} "
                               + ".".join(symbol["pathComponents"]))
for line in missing:
    print("  " + line)
print(f"{len(missing)} undocumented")
sys.exit(1 if missing else 0)
PY

rm -rf "$out"
mkdir -p "$out"
for module in "${modules[@]}"; do
  echo "== docc convert $module"
  catalog=()
  [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
  lower=$(echo "$module" | tr '[:upper:]' '[:lower:]')
  if ! docc convert "${catalog[@]}" \
    --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.foldsearch.$lower" \
    --transform-for-static-hosting --hosting-base-path "$module" \
    --warnings-as-errors \
    --output-path "$out/$module"; then
    status=1
  fi
done
[ $status -eq 0 ] && echo "docs: ${modules[*]/#/$out/}" || echo "docs: FAILED" >&2
exit $status
