#!/bin/sh
# Fetches CollationTest_NON_IGNORABLE_SHORT.txt from ICU 72's Debian source
# package into .build/collation-test/ (ignored by git), where
# CollationConformanceTests reads it when present. Needs a deb-src line for
# Debian bookworm main, e.g. in /etc/apt/sources.list.d/deb-src.list:
#   deb-src http://deb.debian.org/debian bookworm main
# then `apt-get update`.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dest="$root/.build/collation-test"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get source --download-only icu >/dev/null
tar xzf icu_*.orig.tar.gz icu/source/test/testdata/CollationTest_NON_IGNORABLE_SHORT.txt
mkdir -p "$dest"
cp icu/source/test/testdata/CollationTest_NON_IGNORABLE_SHORT.txt "$dest/"
echo "$dest/CollationTest_NON_IGNORABLE_SHORT.txt"
