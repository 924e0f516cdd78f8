#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/README.md) and runs each for SECONDS (default 20) from its seed
# corpus: the shipped programs, run descriptions, connection sets, demos and debugger scripts, fuzz/corpus/,
# and the snapshots, recordings, cell data and machine files this build writes (fuzz_seeds). Fails on any
# crash, leak, timeout or sanitizer report; findings are kept in out/fuzz/ to reproduce.
# Usage: scripts/fuzz.sh [SECONDS] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
# ref_ca is not a libFuzzer harness: the CA against its reference model on random bundles (tests/isa/ref_fuzz.py).
if [[ "$*" == ref_ca ]]; then
  [[ -x build/tools/iwarp ]] || scripts/build.sh build >/dev/null
  exec python3 tests/isa/ref_fuzz.py build/tools/iwarp --seconds "$seconds"
fi
IWARP_SETUP_FUZZ=1 scripts/setup.sh
if [[ ! -f build-fuzz/build.ninja ]]; then
  CC=clang meson setup build-fuzz -Dfuzz=true -Dtests=disabled >/dev/null
fi
ninja -C build-fuzz >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/made/image"
build-fuzz/fuzz/fuzz_seeds "$work/made"
for prog in programs/bench/compute.s programs/net/pathway.s tests/programs/events.s fuzz/corpus/asm/bundles.s; do
  build-fuzz/tools/iwarp asm "$prog" -o "$work/made/image/$(basename "$prog" .s).img"
done

# Seed corpus of each harness: folders and files copied into a scratch folder (the sources stay untouched).
declare -A seeds=(
  [asm]="fuzz/corpus/asm programs runtime tests/programs:*.s"
  [image]="$work/made/image"
  [cset]="fuzz/corpus/cset programs:*.cset"
  [run_desc]="programs tests:*.run"
  [machine]="$work/made/machine"
  [snapshot]="$work/made/snapshot"
  [trace]="$work/made/trace"
  [celldata]="$work/made/celldata"
  [demo]="programs/demos:*.txt"
  [dbg_expr]="fuzz/corpus/dbg_expr"
  [dbg_script]="tests/debug/scripts:*.dbg"
  [options]="fuzz/corpus/options"
  [sweep]="fuzz/corpus/sweep programs/sweeps"
  [json]="fuzz/corpus/json"
  [hpf]="fuzz/corpus/hpf"
  [copy]="fuzz/corpus/copy"
  [fem_partition]="fuzz/corpus/fem_partition"
  [msh_check]="fuzz/corpus/msh_check"
  [gmsh_read]="fuzz/corpus/gmsh_read"
  [cli_traffic]="fuzz/corpus/cli_traffic"
  [cli_coll]="fuzz/corpus/cli_coll"
  [cli_bench]="fuzz/corpus/cli_bench"
  [cli_hpf]="fuzz/corpus/cli_hpf"
  [cli_fem]="fuzz/corpus/cli_fem"
  [cli_sweep]="fuzz/corpus/cli_sweep"
  [cli_run]="fuzz/corpus/cli_run"
  [cli_debug]="fuzz/corpus/cli_debug"
  [cli_route]="fuzz/corpus/cli_route"
  [cli_model]="fuzz/corpus/cli_model"
  [cli_soak]="fuzz/corpus/cli_soak"
  [cli_asm]="fuzz/corpus/cli_asm"
  [cli_dis]="fuzz/corpus/cli_dis"
)
names=("$@")
# gmsh_read runs by name only: gmsh's own binary readers size allocations by the file's counts (libFuzzer finds
# a malloc of 6.8 GB in GModel::_readMSH2 within a minute), which iwarp contains with the child's RLIMIT_AS.
((${#names[@]})) || names=(asm image cset run_desc machine snapshot trace celldata demo dbg_expr dbg_script options sweep json hpf copy fem_partition msh_check
  cli_traffic cli_coll cli_bench cli_hpf cli_fem cli_sweep cli_run cli_debug cli_route cli_model cli_soak cli_asm cli_dis)

# Inputs longer than libFuzzer's default cap of 4096 bytes, for the harnesses whose parsers nest: their
# recursion limits are reached only by deeper inputs (30,000 '(' overflowed the assembler's stack).
declare -A max_len=([asm]=200000 [dbg_expr]=200000 [dbg_script]=200000)

mkdir -p out/fuzz
failed=()
for name in "${names[@]}"; do
  [[ -n "${seeds[$name]+x}" ]] || { echo "fuzz: no harness named $name" >&2; exit 2; }
  corpus="$work/corpus-$name"
  mkdir -p "$corpus"
  spec=${seeds[$name]}
  pattern='*'
  [[ "$spec" == *:* ]] && { pattern=${spec##*:}; spec=${spec%:*}; }
  for src in $spec; do
    find "$src" -type f -name "$pattern" -size -256k -exec cp -t "$corpus" {} + 2>/dev/null || true
  done
  log="out/fuzz/$name.log"
  printf 'fuzz_%-10s %3s s, %4s seeds ... ' "$name" "$seconds" "$(ls "$corpus" | wc -l)"
  extra=()
  [[ -n "${max_len[$name]+x}" ]] && extra=(-max_len="${max_len[$name]}")
  # stdout and stderr of the harness are closed (libFuzzer keeps its own report on a copy of stderr): parsers that
  # print an error per input wrote a 27 GB log in a 10-minute run.
  if build-fuzz/fuzz/fuzz_"$name" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2048 -close_fd_mask=3 \
      -print_final_stats=1 "${extra[@]}" -artifact_prefix="out/fuzz/$name-" "$corpus" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "ok, ${runs:-?} runs"
  else
    echo "FAILED (out/fuzz/$name.log)"
    grep -m 5 -E 'ERROR|SUMMARY|==[0-9]+==' "$log" || tail -n 5 "$log"
    failed+=("$name")
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: ${#failed[@]} harness(es) failed: ${failed[*]}"
  exit 1
fi
echo "fuzz: ${#names[@]} harnesses, no finding"
