#!/usr/bin/env bash
# Build the large benchmark corpus (Corpus/large/, not committed) or, with --sample,
# rebuild the committed sample (Corpus/sample/) from Debian packages.
#
#   bash Corpus/build-large.sh            # Corpus/large/{mixed,latin}.txt + MANIFEST.txt
#   bash Corpus/build-large.sh --sample   # Corpus/sample/*.txt
#   bash Corpus/build-large.sh --force    # rebuild even if the manifest matches
#
# Needs bash, python3 (stdlib only), apt-get, dpkg-deb, sha256sum. Packages are fetched
# with `apt-get download` (run `apt-get update` once first) and kept in
# Corpus/large/debs/, so a re-run uses the same package versions and gives byte-identical
# output; delete that folder to pick up newer versions. SEED overrides the shuffle seed.
set -euo pipefail
export LC_ALL=C.UTF-8 PYTHONHASHSEED=0

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT="$HERE/large"
DEBS="$OUT/debs"
SEED="${SEED:-20240601}"
MODE=large
FORCE=0
for a in "$@"; do
  case "$a" in
    --sample) MODE=sample ;;
    --force) FORCE=1 ;;
    *) echo "usage: $0 [--sample] [--force]" >&2; exit 2 ;;
  esac
done

# package -> licence. The committed sample uses only the MPL-2.0 and Unicode ones.
declare -A LICENCE
HELP_LANGS="en-us es fr de pt pt-br pl cs vi tr el ru hi ja zh-cn ko"
for l in $HELP_LANGS; do LICENCE[libreoffice-help-$l]=MPL-2.0; done
for l in ar he th hi; do LICENCE[libreoffice-l10n-$l]=MPL-2.0; done
for l in ar he th hi-in; do LICENCE[firefox-esr-l10n-$l]=MPL-2.0; done
LICENCE[unicode-data]=Unicode-DFS-2016
LICENCE[unicode-cldr-core]=Unicode-DFS-2016
PKGS=$(printf '%s\n' "${!LICENCE[@]}" | sort)
if [ "$MODE" = sample ]; then PKGS=$(printf '%s\n' $PKGS | grep -v '^unicode-cldr-core$'); fi

mkdir -p "$DEBS"
missing=()
for p in $PKGS; do
  n=$(find "$DEBS" -maxdepth 1 -name "${p}_*.deb" | wc -l)
  if [ "$n" -ne 1 ]; then
    rm -f "$DEBS/${p}"_*.deb
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "downloading ${#missing[@]} packages into $DEBS"
  (cd "$DEBS" && apt-get download -q "${missing[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
  for p in "${missing[@]}"; do
    [ "$(find "$DEBS" -maxdepth 1 -name "${p}_*.deb" | wc -l)" -eq 1 ] \
      || { echo "could not download $p (run apt-get update?)" >&2; exit 1; }
  done
fi

deb() { find "$DEBS" -maxdepth 1 -name "$1_*.deb"; }
inputs() {
  echo "seed $SEED"
  echo "corpus.py sha256 $(sha256sum "$HERE/corpus.py" | cut -d' ' -f1)"
  echo "python $(python3 -c 'import sys; print(sys.version.split()[0])')"
  echo "packages (name, version, licence, sha256 of .deb):"
  for p in $PKGS; do
    d=$(deb "$p")
    printf '  %s %s %s %s\n' "$p" "$(dpkg-deb -f "$d" Version)" "${LICENCE[$p]}" "$(sha256sum "$d" | cut -d' ' -f1)"
  done
}

if [ "$MODE" = large ] && [ "$FORCE" = 0 ] && [ -f "$OUT/MANIFEST.txt" ] && [ -f "$OUT/mixed.txt" ] && [ -f "$OUT/latin.txt" ]; then
  if [ "$(inputs)" = "$(sed -n '/^seed /,/^outputs/p' "$OUT/MANIFEST.txt" | sed '$d')" ] \
     && (cd "$OUT" && sed -n 's/^  \([0-9a-f]\{64\}\)  [0-9]* \(.*\)$/\1  \2/p' MANIFEST.txt | sha256sum --quiet -c -); then
    echo "Corpus/large is up to date (MANIFEST.txt matches); use --force to rebuild"
    exit 0
  fi
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/foldsearch-corpus.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/x"

echo "unpacking"
for p in $PKGS; do
  d=$(deb "$p"); mkdir -p "$TMP/x/$p"
  case "$p" in
    unicode-cldr-core)
      echo "dpkg-deb --fsys-tarfile '$d' | tar -x -C '$TMP/x/$p' --wildcards './usr/share/unicode/cldr/common/annotations/*.xml' './usr/share/unicode/cldr/common/annotationsDerived/*.xml'" ;;
    unicode-data)
      echo "dpkg-deb --fsys-tarfile '$d' | tar -x -C '$TMP/x/$p' ./usr/share/unicode/emoji/emoji-test.txt" ;;
    *)
      echo "dpkg-deb -x '$d' '$TMP/x/$p'" ;;
  esac
done | xargs -P 2 -I{} bash -c '{}'

echo "extracting text"
python3 "$HERE/corpus.py" extract "$TMP/x" "$TMP/lines"

if [ "$MODE" = sample ]; then
  rm -f "$HERE/sample/"*.txt
  python3 "$HERE/corpus.py" sample "$TMP/lines" "$HERE/sample"
  echo "package versions used:"
  inputs | sed -n '/^packages/,$p'
  (cd "$HERE/sample" && wc -lc *.txt)
  exit 0
fi

echo "building mixed.txt and latin.txt (seed $SEED)"
rm -f "$OUT/MANIFEST.txt"
python3 "$HERE/corpus.py" large "$TMP/lines" "$OUT" "$SEED"

{
  echo "FoldSearch large corpus. Built by Corpus/build-large.sh."
  echo "mixed.txt: all languages (lines of every pool below, deduplicated), a shuffle of the"
  echo "lines with random.Random(seed), reshuffled from the same stream on every pass, cut at"
  echo "the first line end at or after 256 MiB. latin.txt: the same for en es fr de pt pt-BR pl"
  echo "cs vi tr, cut at 128 MiB. Not for redistribution as a whole without the licences below."
  echo "text pools (unique lines, bytes):"
  (cd "$TMP/lines" && for f in *.txt; do printf '  %-14s %8d %10d\n' "${f%.txt}" "$(wc -l < "$f")" "$(wc -c < "$f")"; done)
  inputs
  echo "outputs (sha256, bytes, file):"
  (cd "$OUT" && for f in mixed.txt latin.txt; do printf '  %s  %d %s\n' "$(sha256sum "$f" | cut -d' ' -f1)" "$(wc -c < "$f")" "$f"; done)
} > "$OUT/MANIFEST.txt.tmp"
mv "$OUT/MANIFEST.txt.tmp" "$OUT/MANIFEST.txt"
cat "$OUT/MANIFEST.txt"
