#!/usr/bin/env bash
# Fails when a test draws randomness that no seed fixes: every randomized test
# takes its generator from a seed (`TestSeed.resolve` in _FoldSearchTestSupport), so
# that a tree gets the same verdict on every run. Lists each offending line.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATTERN='\.random\(|\.randomElement\(\)|\.shuffled\(\)|\.shuffle\(\)|SystemRandomNumberGenerator'
# (A call may wrap: `using:` is looked for on the line and the two after it.)
found=$(find Tests Sources/_FoldSearchTestSupport Fuzz -name '*.swift' \
  ! -path 'Sources/_FoldSearchTestSupport/TestSeed.swift' -print0 \
  | xargs -0 perl -e '
      my $pattern = qr/$ENV{PATTERN}/;
      for my $file (@ARGV) {
        open(my $in, "<", $file) or die "$file: $!";
        my @lines = <$in>;
        for my $i (0 .. $#lines) {
          next unless $lines[$i] =~ $pattern;
          my $last = $i + 2 > $#lines ? $#lines : $i + 2;
          next if grep { /using:/ } @lines[$i .. $last];
          print "$file:", $i + 1, ": $lines[$i]";
        }
      }')
if [ -n "$found" ]; then
  echo "check-seeded-tests: randomness without a seed (pass \`using: &rng\`, a SplitMix64 seeded by TestSeed.resolve):"
  echo "$found"
  exit 1
fi
echo "check-seeded-tests: every random draw in the tests is seeded"
