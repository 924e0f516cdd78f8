#!/usr/bin/env bash
# Compares two builds of iwarp on every case of tests/e2e/test_every_program.c, on 1 and 2 threads: the
# state hash at the end and the JSON report (less host_seconds) must be the same (a program that deadlocks
# on purpose is compared all the same). For speed work: a change may make the host faster, never a run
# different. Usage: scripts/compare-builds.sh OLD/iwarp NEW/iwarp
set -euo pipefail
cd "$(dirname "$0")/.."
old=$1 new=$2
mapfile -t cases < <(sed -n 's/^ *{"\(programs\/[^"]*\)", "[^"]*"},*$/\1/p' tests/e2e/test_every_program.c)
differ=0
for c in "${cases[@]}"; do
  for t in 1 2; do
    # shellcheck disable=SC2086 # a case is a program and its options
    a=$({ "$old" run $c --threads $t --state-hash-at 4000000000 2>/dev/null || true; } | tail -n 1
        { "$old" run $c --threads $t --json 2>/dev/null || true; } | grep -v host_seconds | md5sum)
    # shellcheck disable=SC2086
    b=$({ "$new" run $c --threads $t --state-hash-at 4000000000 2>/dev/null || true; } | tail -n 1
        { "$new" run $c --threads $t --json 2>/dev/null || true; } | grep -v host_seconds | md5sum)
    if [[ "$a" != "$b" ]]; then
      echo "DIFFERS: $c on $t thread(s)"
      differ=$((differ + 1))
    fi
  done
done
echo "${#cases[@]} cases on 1 and 2 threads: $differ differ"
((differ == 0))
