#!/usr/bin/env bash
# The main job on a fresh machine: install what is missing, build, and run the benchmark suite on the
# default 8x8 array, printing its report (plots and tables go to out/bench/DATE-ID/). Extra arguments go to
# `iwarp bench` (for example --json, or the names of benches).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build
exec build/tools/iwarp bench "$@"
