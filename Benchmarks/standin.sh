# Stand-in corpora for the benchmark scripts, built from the committed samples
# (Corpus/sample/) when the large corpus (Corpus/large/, Corpus/build-large.sh)
# is not there. Source it from a script run at the repository's root:
#
#   . Benchmarks/standin.sh
#   file=$(latin_standin 64)     # Corpus/large/latin.txt, or the stand-in
#   file=$(spanish_standin 64)   # mostly Spanish, with Greek and Hebrew
#
# Both print the path on standard output; files are built once in .build/.

# Corpus/large/latin.txt when it exists, else the Latin samples (en es fr de
# pt pl cs vi tr) repeated to MIB MiB, a line never split: patterns.sh's
# stand-in (the same file).
latin_standin() {
  local mib=$1
  if [ -s Corpus/large/latin.txt ]; then
    echo Corpus/large/latin.txt
    return
  fi
  local file=.build/patterns-standin-$mib.txt
  if [ ! -s "$file" ]; then
    mkdir -p .build
    local samples=(Corpus/sample/{en,es,fr,de,pt,pl,cs,vi,tr}.txt)
    : >"$file.tmp"
    while [ "$(stat -c %s "$file.tmp")" -lt $((mib << 20)) ]; do
      cat "${samples[@]}" >>"$file.tmp"
    done
    mv "$file.tmp" "$file"
  fi
  echo "$file"
}

# A mostly-Spanish file of MIB MiB (cut at a line end): random lines of
# Corpus/sample/es.txt (85%), el.txt (7.5%) and he.txt (7.5%), drawn one at a
# time with random.Random(34), about 18% non-ASCII bytes (the "spanish" input
# of Benchmarks/HISTORY.md, issue 34).
spanish_standin() {
  local mib=$1
  local file=.build/spanish-standin-$mib.txt
  if [ ! -s "$file" ]; then
    mkdir -p .build
    python3 - "$mib" "$file.tmp" <<'PY'
import random, sys
mib, out = int(sys.argv[1]), sys.argv[2]
def lines(name):
    with open(f"Corpus/sample/{name}.txt", "rb") as f:
        return [l if l.endswith(b"\n") else l + b"\n" for l in f]
es, el, he = lines("es"), lines("el"), lines("he")
rng = random.Random(34)
limit, size, parts = mib << 20, 0, []
while True:
    r = rng.random()
    line = rng.choice(es if r < 0.85 else el if r < 0.925 else he)
    if size + len(line) > limit:
        break
    parts.append(line)
    size += len(line)
with open(out, "wb") as f:
    f.write(b"".join(parts))
PY
    mv "$file.tmp" "$file"
  fi
  echo "$file"
}
