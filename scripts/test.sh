#!/usr/bin/env bash
# Every test on a fresh machine: install what is missing, build, run the whole test suite.
# Extra arguments go to `meson test` (for example --suite asm).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh build
meson test -C build --print-errorlogs "$@"
