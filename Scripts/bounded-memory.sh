#!/usr/bin/env bash
# foldgrep on a file larger than the memory it may use (`ulimit -v`) still
# answers correctly: it streams in chunks instead of reading the file whole.
#
#   Scripts/bounded-memory.sh [FILE_MIB] [LIMIT_MIB]   (defaults: 768 MiB file, 512 MiB limit)
set -euo pipefail
cd "$(dirname "$0")/.."
file_mib=${1:-768}
limit_mib=${2:-512}
swift build -c release --product foldgrep >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A line that matches "strasse" once (Straße) and "cafe" twice, and one that
# matches neither; repeated to the size asked for.
python3 - "$work/big.txt" "$file_mib" <<'PY'
import sys
path, mib = sys.argv[1], int(sys.argv[2])
block = ("Die Straße führt zum CAFÉ und zum café.\n" + "nothing to see here, move along\n") * 4096
data = block.encode()
with open(path, "wb") as f:
    written = 0
    while written < mib << 20:
        f.write(data)
        written += len(data)
PY
lines=$(( $(wc -l < "$work/big.txt") / 2 ))
echo "file: $(du -m "$work/big.txt" | cut -f1) MiB, limit: ${limit_mib} MiB of virtual memory"
count=$( (ulimit -v $((limit_mib * 1024)); .build/release/foldgrep -c strasse "$work/big.txt") )
matches=$( (ulimit -v $((limit_mib * 1024)); .build/release/foldgrep --count-matches cafe "$work/big.txt") )
echo "foldgrep -c strasse: $count (expected $lines); --count-matches cafe: $matches (expected $((2 * lines)))"
[ "$count" = "$lines" ] && [ "$matches" = "$((2 * lines))" ] || { echo "FAILED"; exit 1; }
echo "bounded memory: ok"
