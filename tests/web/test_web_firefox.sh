#!/usr/bin/env bash
# The web page in a second browser, headless Firefox ESR (docs/web.md, "Browsers tried"): the wormhole demo at clock
# 150 (?run=150), and back to 100 from there (&back=100, as the timeline goes back), says the state hash `iwarp run
# wormhole.run --state-hash-at N` prints; and its picture at 150 (the page run on and sent back, as web_picture does)
# against the SDL2 view's, on the grid and the timeline's track, with web_picture's thresholds. Firefox's own
# --screenshot is taken at the load event, before the wasm has run, and it has no virtual time budget: firefox_page.py
# drives it over WebDriver BiDi (Python's standard library only) and waits for the page's #result. The viewer's keys,
# pressed one after the other: what each changes in the page. The PNGs stay in
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

# The viewer's keys, pressed as a user presses them (WebDriver BiDi's key input), on wormhole at 150 with (1,0)
# selected, whose channels 0 and 8 are in use there (`iwarp debug`'s `channels 1,0`), and clicks of the mouse (the
# "? Keys" button, the help, a channel's row, which traces its pathway and, again, stops); after each what the page
# shows: the clock, the traced channel and its hops, the selection, the help, the legend, the text's scale, the speed,
# the frame rate, the timeline's marks (P and N go to the one before and after the clock), and the screenshot S
# downloads (its name, iwarp-view-CLOCK.png as the viewer's, and size).
probe="[api.clock(w), channel, document.getElementById('traced').textContent || '-', selected,
  document.getElementById('help').hidden ? 'nohelp' : 'help', document.getElementById('legend').hidden ? 'nolegend' :
  'legend', scale, document.getElementById('speed').value, document.getElementById('rate').hidden ? 'norate' : 'rate',
  Array.from(M.HEAPF64.subarray(api.marks(w) >> 3, (api.marks(w) >> 3) + 2 * api.nmarks(w)))
  .filter((v, i) => i % 2 === 0).join(','), document.body.dataset.shot || '-'].join('|')"
keys="h Escape ? F1 / Escape click:#help-open click:#help ] ] ] [ Tab click:[data-lc='8'] click:[data-lc='8'] Escape
  l l + + - p p n f f r s"
got=$(timeout 300 python3 "$src/tests/web/firefox_page.py" --keys "$keys" --probe "$probe" \
  "$page&run=400&back=150&select=1,0") || true
if python3 - "$got" "$keys" <<'PY'; then
import sys
lines = sys.argv[1].split('\n')[1:]
want_keys = sys.argv[2].split()
if len(lines) != len(want_keys):
    sys.exit(f'FAIL keys: {len(lines)} answers to {len(want_keys)} keys: {sys.argv[1]!r}')
state = [line.split(': ', 1)[1].split('|') for line in lines]
marks = sorted({int(float(c)) for c in state[0][9].split(',') if c})
path8 = '0,0:0 1,0:8 2,0:8 3,0:8'  # web_demos holds it to iwarp debug's
clock = 150
prev1 = max(c for c in marks if c < clock)
prev2 = max(c for c in marks if c < prev1)
# key: (field, value) pairs it must leave; fields: 0 clock, 1 channel, 2 hops, 3 selected, 4 help, 5 legend,
# 6 scale, 7 speed, 8 rate; S: 10, the PNG's name and size.
want = [
    {4: 'help'}, {4: 'nohelp'}, {4: 'help'}, {4: 'nohelp'}, {4: 'help'}, {4: 'nohelp'}, {4: 'help'}, {4: 'nohelp'},
    {1: '0', 2: '1,0:0'}, {1: '8', 2: path8}, {1: '-1', 2: '-'}, {1: '8', 2: path8}, {1: '-1', 2: '-', 3: '1'},
    {1: '8', 2: path8}, {1: '-1', 2: '-', 3: '1'}, {3: '-1'},
    {5: 'nolegend'}, {5: 'legend'}, {6: '1.25'}, {6: '1.5'}, {6: '1.25'},
    {0: str(prev1)}, {0: str(prev2)}, {0: str(prev1)},
    {7: '0'}, {7: '20'}, {8: 'rate'}, {},
]
bad = 0
for key, got, w in zip(want_keys, state, want):
    wrong = {f: (got[f], v) for f, v in w.items() if got[f] != v}
    print(f'{"FAIL" if wrong else "ok  "} key {key}: {"|".join(got[:9])}' + (f' (wanted {wrong})' if wrong else ''))
    bad |= bool(wrong)
name, size = (state[-1][10].split() + ['', ''])[:2]
if name != f'iwarp-view-{state[-1][0]}.png' or not size.isdigit() or int(size) < 1000:
    print(f'FAIL key s: the page wrote {state[-1][10]!r}, wanted iwarp-view-{state[-1][0]}.png')
    bad = 1
else:
    print(f'ok   key s: {name}, {size} bytes')
sys.exit(bad)
PY
  :
else
  fail=1
fi

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
