#!/usr/bin/env bash
# Counts the host instructions two builds of iwarp execute on the speed bench's kinds of run (its --quick sizes,
# on one thread), under valgrind's cachegrind: a count that is the same from run to run, where the wall time on a
# shared machine moves by several percent. For speed work, beside scripts/compare-builds.sh (which checks that
# nothing emulated changed): a change that saves instructions saves time where the host runs near its peak rate,
# as the emulator does (CONTRIBUTING.md). The conset case includes compiling its connection set.
# Usage: scripts/count-instructions.sh OLD/iwarp NEW/iwarp
set -euo pipefail
cd "$(dirname "$0")/.."
if (($# != 2)); then
  echo "usage: $0 OLD/iwarp NEW/iwarp" >&2
  exit 2
fi
command -v valgrind > /dev/null || { echo "$0: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
old=$1 new=$2
cases=(
  "compute 1x1|programs/bench/compute.s --array 1x1 --args 200"
  "compute 8x8|programs/bench/compute.s --array 8x8 --args 5"
  "one active of 64|programs/bench/one_active.s --array 8x8 --args 200,300000"
  "stream 8x8|programs/bench/stream.s --array 8x8 --args 2000"
  "msg random 8x8|programs/net/msg_random.s --array 8x8 --args 2,64"
  "stream 32x32|programs/bench/stream.s --array 32x32 --args 100"
  "conset all-to-all 8x8|programs/patterns/conset_alltoall.run"
)
# The instructions one run executes, from cachegrind's summary on stderr.
count() {
  # shellcheck disable=SC2086 # a case is a program and its options
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$1" run $2 --threads 1 2>&1 > /dev/null |
    sed -n 's/^==[0-9]*== I *refs: *//p' | tr -d ,
}
printf '%-24s %15s %15s %9s\n' case old new new/old
for c in "${cases[@]}"; do
  name=${c%%|*} run=${c#*|}
  a=$(count "$old" "$run")
  b=$(count "$new" "$run")
  if [[ -z "$a" || -z "$b" ]]; then
    echo "$0: $name: no count (does '$run' run?)" >&2
    exit 1
  fi
  printf '%-24s %15s %15s %9s\n' "$name" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", b / a }')"
done
