#!/usr/bin/env bash
# How far the emulator is from what a per-clock emulator of its design can reach on this host: runs
# programs/bench/stream.s on 8x8 (the speed bench's 'stream 8x8' case) with iwarp, then scripts/stream_bound.c,
# which emulates the same traffic under the same rules for that one program (no interpreter, no generality), for
# as many clocks, each on 1 and on 2 threads. Both must move the same words over links, or the yardstick no longer
# measures the same work and the script fails. Prints the rates (cell-clocks per host second, the fastest of three
# runs) and, with valgrind, the host instructions of each per cell-clock on one thread, the same from run to run.
# Usage: scripts/stream-bound.sh [IWARP] [WORDS]   (defaults: build/tools/iwarp, 40000 as bench speed)
set -euo pipefail
cd "$(dirname "$0")/.."
iwarp=${1:-build/tools/iwarp}
words=${2:-40000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c17 -O2 -Wall -Wextra -Werror -pthread -o "$tmp/stream_bound" scripts/stream_bound.c
field() { sed -n "s/.*\"$1\": *\([0-9.e+]*\).*/\1/p" "$2" | head -1; }
# The fastest of three runs of each: a run takes a fraction of a second, which the host's other work can stretch.
iwarp_rate() {
  local best=0 rate
  for _ in 1 2 3; do
    "$iwarp" run programs/bench/stream.s --array 8x8 --args "$words" --threads "$1" --json > "$tmp/iwarp.json"
    rate=$(awk -v c="$(field cycles "$tmp/iwarp.json")" -v s="$(field host_seconds "$tmp/iwarp.json")" 'BEGIN { printf "%.6g", c * 64 / s }')
    best=$(awk -v a="$best" -v b="$rate" 'BEGIN { print (b > a ? b : a) }')
  done
  echo "$best"
}
bound_rate() {
  "$tmp/stream_bound" "$words" "$clocks" 3 "$1" > "$tmp/bound.json"
  local a b
  a=$(field link_words "$tmp/iwarp.json")
  b=$(field link_words "$tmp/bound.json")
  if [[ "$a" != "$b" ]]; then
    echo "$0: iwarp moved $a words over links in $clocks clocks, the yardstick $b: they no longer emulate the same" >&2
    exit 1
  fi
  field cell_clocks_per_second "$tmp/bound.json"
}
i1=$(iwarp_rate 1)
i2=$(iwarp_rate 2)
clocks=$(field cycles "$tmp/iwarp.json")
b1=$(bound_rate 1)
b2=$(bound_rate 2)
printf 'stream 8x8, %s words: %s clocks, %s words over links in each run\n' "$words" "$clocks" \
  "$(field link_words "$tmp/iwarp.json")"
printf '%-8s %16s %16s\n' "" "1 thread" "2 threads"
awk -v a="$i1" -v b="$i2" 'BEGIN { printf "%-8s %16.3g %16.3g   cell-clocks/s\n", "iwarp", a, b }'
awk -v a="$b1" -v b="$b2" 'BEGIN { printf "%-8s %16.3g %16.3g   cell-clocks/s\n", "bound", a, b }'
awk -v a="$i1" -v b="$i2" -v c="$b1" -v d="$b2" \
  'BEGIN { x = a > b ? a : b; y = c > d ? c : d; printf "the better of 1 and 2 threads: bound / iwarp %.2f\n", y / x }'
if command -v valgrind > /dev/null; then
  small=$((words / 20))
  "$iwarp" run programs/bench/stream.s --array 8x8 --args "$small" --threads 1 --json > "$tmp/small.json"
  sclocks=$(field cycles "$tmp/small.json")
  ir() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
    sed -n 's/^==[0-9]*== I *refs: *//p' | tr -d ,; }
  ia=$(ir "$iwarp" run programs/bench/stream.s --array 8x8 --args "$small" --threads 1)
  ib=$(ir "$tmp/stream_bound" "$small" "$sclocks" 1 1)
  awk -v a="$ia" -v b="$ib" -v n="$((sclocks * 64))" -v w="$small" \
    'BEGIN { printf "host instructions per cell-clock, one thread (%s words, whole process): iwarp %.0f, bound %.0f\n", w, a / n, b / n }'
fi
