#!/usr/bin/env bash
# Counts the host instructions two builds of iwarp execute on the speed bench's kinds of run (its --quick sizes,
# on one thread), under valgrind's cachegrind: a count that is the same from run to run, where the wall time on a
# shared machine moves by several percent. For speed work, beside scripts/compare-builds.sh (which checks that
# nothing emulated changed): a change that saves instructions saves time where the host runs near its peak rate,
# as the emulator does (CONTRIBUTING.md). Each count is also given per cell-clock (the run's clocks times its
# cells, from its JSON report) and, for compute 1x1, per bundle, the units the speed goals are set in: "all in",
# what `iwarp run` costs a user, start-up included (the assembler; for the ConSet case the connection set's
# compile), which the quick sizes weigh heavily; and "run", less the count of the same command stopped after its
# first clock (--max-cycles 1), which is the start-up and the report.
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
  "msgpass all-to-all 8x8|programs/patterns/msgpass.s --array 8x8 --args 256,2,0"
)
# The instructions one run executes, from cachegrind's summary on stderr.
count() {
  # shellcheck disable=SC2086 # a case is a program and its options
  # A run stopped at its limit exits 1: its count is wanted all the same.
  { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$1" run $2 --threads 1 2>&1 > /dev/null ||
      true; } | sed -n 's/^==[0-9]*== I *refs: *//p' | tr -d ,
}
# The units a count is divided by: cell-clocks (the run's clocks times its cells), or for compute 1x1 its
# bundles, from the run's JSON report. Both builds run the same clocks (compare-builds.sh), so the old build's
# report serves both.
units() {
  # shellcheck disable=SC2086 # a case is a program and its options
  { "$1" run $2 --threads 1 --json 2> /dev/null || true; } | python3 -c '
import json, sys
r = json.load(sys.stdin)
if sys.argv[1] == "bundle":
    print(sum(c["instructions"] for c in r["cells"]))
else:
    print(r["cycles"] * r["width"] * r["height"])' "$3"
}
printf '%-24s %14s %14s %8s %17s %17s\n' case old new new/old "all in: old new" "run: old new"
for c in "${cases[@]}"; do
  name=${c%%|*} run=${c#*|}
  a=$(count "$old" "$run")
  b=$(count "$new" "$run")
  a0=$(count "$old" "$run --max-cycles 1")
  b0=$(count "$new" "$run --max-cycles 1")
  if [[ -z "$a" || -z "$b" || -z "$a0" || -z "$b0" ]]; then
    echo "$0: $name: no count (does '$run' run?)" >&2
    exit 1
  fi
  unit=cell-clock
  [[ "$name" == "compute 1x1" ]] && unit=bundle
  n=$(units "$old" "$run" "$unit")
  n0=$(units "$old" "$run --max-cycles 1" "$unit")
  awk -v name="$name" -v a="$a" -v b="$b" -v a0="$a0" -v b0="$b0" -v n="$n" -v n0="$n0" -v unit="$unit" 'BEGIN {
    printf "%-24s %14s %14s %8.4f %8.1f %8.1f %8.1f %8.1f  per %s\n", name, a, b, b / a, a / n, b / n,
           (a - a0) / (n - n0), (b - b0) / (n - n0), unit }'
done
