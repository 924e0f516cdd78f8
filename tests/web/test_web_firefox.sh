#!/usr/bin/env bash
# The web page in a second browser, headless Firefox ESR (docs/web.md, "Browsers tried"): the wormhole demo at clock
# 150 (?run=150), and back to 100 from there (&back=100, as the timeline goes back), says the state hash `iwarp run
# wormhole.run --state-hash-at N` prints; and its picture at 150 (the page run on and sent back, as web_picture does)
# against the SDL2 view's, on the grid and the timeline's track, with web_picture's thresholds. Firefox's own
# --screenshot is taken at the load event, before the wasm has run, and it has no virtual time budget: firefox_page.py
# drives it over WebDriver BiDi (Python's standard library only) and waits for the page's #result. The PNGs stay in
# OUT_DIR/../picture-firefox. Skips (77) without emcc or firefox-esr; the picture without a viewer (SDL2).
# Usage: test_web_firefox.sh SOURCE_ROOT OUT_DIR IWARP PNG_DIFF
set -euo pipefail
src=$1 out=$2 iwarp=$3 png_diff=$4
W=1280 H=800
. "$src/tests/web/web_lib.sh"
web_need_tools firefox-esr
web_build "$src" "$out"
web_serve "$out"
shots=$(dirname "$out")/picture-firefox
mkdir -p "$shots"
page="http://127.0.0.1:$web_port/index.html?demo=wormhole"
run=$src/programs/demos/wormhole.run

fail=0
# check WHAT CLOCK URL [SCREENSHOT]: the hash the page at URL says is `iwarp run`'s at CLOCK.
check() {
  local want got
  want=$("$iwarp" run "$run" --state-hash-at "$2" | tail -1)
  got=$(timeout 300 python3 "$src/tests/web/firefox_page.py" --size ${W}x$H ${4:+--screenshot "$4"} "$3") || true
  if [[ "$got" == "clock $2 hash $want "* ]]; then
    echo "ok   $1: $got"
  else
    echo "FAIL $1: the page in firefox says '${got:-nothing}', iwarp run says $want"
    fail=1
  fi
}
check "wormhole at 150" 150 "$page&run=150"
check "wormhole 150 back to 100" 100 "$page&run=150&back=100"
rm -f "$shots/wormhole-150-web.png"
check "wormhole at 150, for its picture" 150 "$page&run=100150&back=150" "$shots/wormhole-150-web.png"

if ! "$iwarp" demo wormhole --screenshot "$shots/wormhole-150-sdl.png" --at 150 --size ${W}x$H --paused \
  2>"$shots/sdl.err"; then
  grep -q 'has no viewer' "$shots/sdl.err" && { echo "no picture: $(cat "$shots/sdl.err")"; exit $fail; }
  cat "$shots/sdl.err"
  exit 1
fi
if [[ ! -s "$shots/wormhole-150-web.png" ]]; then
  echo "FAIL wormhole at 150: no screenshot from firefox"
  exit 1
fi
# The grid (the canvas) and the timeline's track and numbers, as test_web_picture.sh cuts them at 1280x800.
top=54 panel=396 bottom=74
diff() { "$png_diff" "$shots/wormhole-150-web.png" "$shots/wormhole-150-sdl.png" "$@"; }
echo -n "wormhole at 150, grid:  " && diff --rect 0,$top,$((W - panel)),$((H - top - bottom)) --max-mean 0.5 \
  --max-far 0.2 || fail=1
echo -n "wormhole at 150, timeline:  " && diff --rect 0,$((H - bottom)),$((W - panel)),46 --max-mean 0.5 \
  --max-far 0.2 || fail=1
echo -n "wormhole at 150, whole window:  " && diff --max-mean 5 --max-far 4 --diff "$shots/wormhole-150-diff.png" ||
  fail=1
echo "pictures: $shots"
exit $fail
