#!/usr/bin/env bash
# The web page in a real browser (docs/web.md): builds it with emscripten (scripts/build-web.sh), serves it, loads it
# in headless chromium with ?demo=NAME&run=N for every shipped demo, and checks that the state hash the page says at
# clock N is the one `iwarp run NAME.run --state-hash-at N` prints; then the same through the folder `iwarp demo
# wormhole --web DIR` writes (its index.html opens the page on the demo). Skips (77) without emcc or chromium.
# Usage: test_web.sh SOURCE_ROOT OUT_DIR IWARP
set -euo pipefail
src=$1 out=$2 iwarp=$3
at=${IWARP_WEB_CLOCK:-150}
. "$src/tests/web/web_lib.sh"
web_need_tools
web_build "$src" "$out"
web_serve "$out"

fail=0
# check WHAT DEMO URL: the hash the page at URL says at clock $at is `iwarp run DEMO.run`'s.
check() {
  local want dom got
  want=$("$iwarp" run "$src/programs/demos/$2.run" --state-hash-at "$at" | tail -1)
  dom=$(web_chromium --dump-dom "$3")
  got=$(web_result "$dom")
  if [[ "$got" == "clock $at hash $want "* ]]; then
    echo "ok   $1: $got"
  else
    echo "FAIL $1: the page says '${got:-nothing}' (error: $(web_error "$dom")), iwarp run says $want"
    fail=1
  fi
}
for txt in "$src"/programs/demos/*.txt; do
  name=$(basename "$txt" .txt)
  check "$name" "$name" "http://127.0.0.1:$web_port/index.html?demo=$name&run=$at"
done

# A teacher's copy: the page with the demo preselected, in a folder the server serves (the second run writes over
# what the first wrote).
"$iwarp" demo wormhole --web "$out/demo-wormhole" --page "$out" >/dev/null
check "iwarp demo wormhole --web" wormhole "http://127.0.0.1:$web_port/demo-wormhole/?run=$at"
exit $fail
