#!/usr/bin/env bash
# The web page in a real browser (docs/web.md): builds it with emscripten (scripts/build-web.sh), serves it, loads it
# in headless chromium with ?demo=NAME&run=N for every shipped demo, and checks that the state hash the page says at
# clock N is the one `iwarp run NAME.run --state-hash-at N` prints. Skips (77) without emcc or chromium.
# Usage: test_web.sh SOURCE_ROOT OUT_DIR IWARP
set -euo pipefail
src=$1 out=$2 iwarp=$3
at=${IWARP_WEB_CLOCK:-150}
. "$src/tests/web/web_lib.sh"
web_need_tools
web_build "$src" "$out"
web_serve "$out"

fail=0
for txt in "$src"/programs/demos/*.txt; do
  name=$(basename "$txt" .txt)
  want=$("$iwarp" run "$src/programs/demos/$name.run" --state-hash-at "$at" | tail -1)
  dom=$(web_chromium --dump-dom "http://127.0.0.1:$web_port/index.html?demo=$name&run=$at")
  got=$(web_result "$dom")
  if [[ "$got" == "clock $at hash $want "* ]]; then
    echo "ok   $name: $got"
  else
    echo "FAIL $name: the page says '${got:-nothing}' (error: $(web_error "$dom")), iwarp run says $want"
    fail=1
  fi
done
exit $fail
