#!/usr/bin/env bash
# The web page in a real browser (docs/web.md): builds it with emscripten (scripts/build-web.sh), serves it with
# python3 -m http.server, loads it in headless chromium with ?demo=NAME&run=N for every shipped demo, and checks
# that the state hash the page says at clock N is the one `iwarp run NAME.run --state-hash-at N` prints.
# Chromium's --dump-dom prints the page once it is idle (the wasm loaded, the run done), so nothing but Debian's
# chromium is needed: no driver, no npm. Skips (77) without emcc or chromium.
# Usage: test_web.sh SOURCE_ROOT OUT_DIR IWARP
set -euo pipefail
src=$1 out=$2 iwarp=$3
at=${IWARP_WEB_CLOCK:-150}
for tool in emcc chromium python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIP: $tool not found (IWARP_SETUP_WEB=1 scripts/setup.sh installs emscripten and chromium)"
    exit 77
  fi
done
"$src/scripts/build-web.sh" "$out" >/dev/null

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out" >/dev/null 2>&1 &
server=$!
profile=$(mktemp -d)
trap 'kill $server 2>/dev/null; rm -rf "$profile"' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2>/dev/null && break
  sleep 0.1
done

fail=0
for txt in "$src"/programs/demos/*.txt; do
  name=$(basename "$txt" .txt)
  want=$("$iwarp" run "$src/programs/demos/$name.run" --state-hash-at "$at" | tail -1)
  dom=$(timeout 120 chromium --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$profile" \
    --virtual-time-budget=60000 --dump-dom "http://127.0.0.1:$port/index.html?demo=$name&run=$at" 2>/dev/null)
  got=$(sed -n 's/.*<pre id="result"[^>]*>\([^<]*\)<.*/\1/p' <<<"$dom")
  if [[ "$got" == "clock $at hash $want "* ]]; then
    echo "ok   $name: $got"
  else
    echo "FAIL $name: the page says '${got:-nothing}' (error: $(sed -n 's/.*<pre id="error"[^>]*>\([^<]*\)<.*/\1/p' <<<"$dom")), iwarp run says $want"
    fail=1
  fi
done
exit $fail
