#!/usr/bin/env bash
# The web page in a real browser (docs/web.md): builds it with emscripten (scripts/build-web.sh), serves it, loads it
# in headless chromium with ?demo=NAME&run=N for every shipped demo, and checks that the state hash the page says at
# clock N is the one `iwarp run NAME.run --state-hash-at N` prints; then the same through the folder `iwarp demo
# wormhole --web DIR` writes (its index.html opens the page on the demo), and for docs/demos.md's example demo
# ("Writing a demo"), loaded through the page's "Your own demo" boxes (?own=, written by `iwarp demo
# FOLDER/first.txt --web DIR`): at clock 40 and at its end, with its narrative; and a broken copy of it shows the
# assembler's diagnostics. Going back (?run=N&back=M: to clock N, then back to M as the timeline and the Left arrow
# go back): the hash at M is `iwarp run --state-hash-at M`'s, for wormhole, round robin, all-to-all 500 clocks back
# from its end, and the example demo from its end. A traced pathway (?select=X,Y&channel=N): the hops the page traces
# are those `iwarp debug`'s `pathway` walks on the emulator's state. The help (?help=1) lists the viewer's keys.
# Skips (77) without emcc or chromium.
# Usage: test_web.sh SOURCE_ROOT OUT_DIR IWARP
set -euo pipefail
src=$1 out=$2 iwarp=$3
at=${IWARP_WEB_CLOCK:-150}
. "$src/tests/web/web_lib.sh"
web_need_tools
web_build "$src" "$out"
web_serve "$out"

fail=0
# check WHAT RUN URL [CLOCK [STATUS]]: the hash the page at URL says at CLOCK (default $at; the clock its run ends
# at, with STATUS) is `iwarp run RUN --state-hash-at CLOCK`'s.
check() {
  local want dom got clock=${4:-$at} status=${5:-}
  want=$("$iwarp" run "$2" --state-hash-at "$clock" | tail -1)
  dom=$(web_chromium --dump-dom "$3")
  got=$(web_result "$dom")
  if [[ "$got" == "clock $clock hash $want "* || ( -n "$status" && "$got" == *" hash $want status $status" ) ]]; then
    echo "ok   $1: $got"
  else
    echo "FAIL $1: the page says '${got:-nothing}' (error: $(web_error "$dom")), iwarp run says $want"
    fail=1
  fi
}
for txt in "$src"/programs/demos/*.txt; do
  name=$(basename "$txt" .txt)
  check "$name" "$src/programs/demos/$name.run" "http://127.0.0.1:$web_port/index.html?demo=$name&run=$at"
done

# Going back: the demo built again and run to the clock (iwarp_web_seek), the same state as on the way there.
page="http://127.0.0.1:$web_port/index.html"
check "wormhole 150 back to 100" "$src/programs/demos/wormhole.run" "$page?demo=wormhole&run=150&back=100" 100
check "roundrobin 300 back to 60" "$src/programs/demos/roundrobin.run" "$page?demo=roundrobin&run=300&back=60" 60
check "alltoall's end back to 2200" "$src/programs/demos/alltoall.run" "$page?demo=alltoall&run=100000&back=2200" 2200

# A teacher's copy: the page with the demo preselected, in a folder the server serves (the second run writes over
# what the first wrote).
"$iwarp" demo wormhole --web "$out/demo-wormhole" --page "$out" >/dev/null
check "iwarp demo wormhole --web" "$src/programs/demos/wormhole.run" "http://127.0.0.1:$web_port/demo-wormhole/?run=$at"

# A user's own demo: docs/demos.md's example, its three files as the docs give them.
own=$(dirname "$out")/own
mkdir -p "$own"
python3 - "$src/docs/demos.md" "$own" <<'PY'
import re, sys
doc = open(sys.argv[1]).read()
for name, body in re.findall(r'<!-- demo-example: (\S+) -->\n```\n(.*?)```', doc, re.S):
    open(f'{sys.argv[2]}/{name}', 'w').write(body)
PY
"$iwarp" demo "$own/first.txt" --web "$out/own-first" --page "$out" >/dev/null
url="http://127.0.0.1:$web_port/own-first/"
check "own demo first at 40" "$own/first.run" "$url?run=40" 40
check "own demo first at its end" "$own/first.run" "$url?run=100000" 100000 done
check "own demo first, its end back to 40" "$own/first.run" "$url?run=100000&back=40" 40
# Its narrative: the title, the paragraph from clock 20 on, and the panel turned to (2,0) by its `select` (the text
# without the spans that keep each word of a paragraph whole).
dom=$(web_chromium --dump-dom "$url?run=40" | sed 's|<span class="w">\([^<]*\)</span>|\1|g')
for want in '>A first pathway<' '>Words follow the header one every 2 clocks' '>Cell (2,0)'; do
  grep -qF "$want" <<<"$dom" || { echo "FAIL own demo first at 40: the page does not show '$want'"; fail=1; }
done
# A mistake in it: the page says what the assembler says, with the file and line.
sed 's/first\.s/broken.s/' "$own/first.run" >"$out/own-first/broken.run"
cp "$own/first.txt" "$out/own-first/broken.txt"
sed 's/^        halt$/        hlt/' "$own/first.s" >"$out/own-first/broken.s"
dom=$(web_chromium --dump-dom "${url}page.html?own=broken")
if grep -qF "broken.s:23:9: error: unknown operation 'hlt'" <<<"$dom"; then
  echo "ok   own demo broken: the page shows the assembler's error"
else
  echo "FAIL own demo broken: no assembler error in the page (error: $(web_error "$dom"))"
  fail=1
fi
# Tracing a pathway (?select=X,Y&channel=N, as the viewer's --select X,Y --channel N; the keys [ ] and Tab): the hops
# the page traces (#traced, "X,Y:CH" each, from iwarp_web_pathway: the view model, as the SDL2 view traces them) are
# the ones `iwarp debug`'s `pathway X,Y CH` walks at that clock on the emulator's own channel state; and the panel
# says the pathway in the viewer's words. A straight one (wormhole), one over a wrap-around link with a header waiting
# at its head (dateline), one fed by a spool (round robin).
if "$iwarp" debug --help >/dev/null 2>&1; then
  trace() { # NAME CLOCK X,Y CH WORDS...
    local name=$1 clock=$2 cell=$3 ch=$4 want got dom text
    shift 4
    want=$("$iwarp" debug --batch -e "continue $clock" -e "pathway $cell $ch" "$src/programs/demos/$name.run" 2>&1 |
      sed -n 's/^  (\([0-9]*,[0-9]*\)) lc \([0-9]*\) .*/\1:\2/p' | paste -sd' ')
    dom=$(web_chromium --dump-dom "$page?demo=$name&run=$clock&select=$cell&channel=$ch")
    got=$(sed -n 's/.*<pre id="traced"[^>]*>\([^<]*\)<.*/\1/p' <<<"$dom")
    if [[ -n "$want" && "$got" == "$want" ]]; then
      echo "ok   $name at $clock, pathway of ($cell) ch $ch: $got"
    else
      echo "FAIL $name at $clock, pathway of ($cell) ch $ch: the page traces '${got:-nothing}', iwarp debug '$want'"
      fail=1
    fi
    text=$(sed 's|<span class="w">\([^<]*\)</span>|\1|g' <<<"$dom")
    for words in "$@"; do
      grep -qF "$words" <<<"$text" || { echo "FAIL $name at $clock: the panel does not say '$words'"; fail=1; }
    done
  }
  trace wormhole 150 1,0 8 'Pathway of ch 8, 3 links: from go0 → (0,0) ch0 → (1,0) ch8 → (2,0) ch8 → (3,0) ch8; into gi0'
  trace dateline 140 3,0 0 'Pathway of ch 0, '
  trace dateline 140 3,0 8 'its header waits here: no_channel'
  trace roundrobin 110 0,0 2 'Pathway of ch 2, ' 'from spool 2'
else
  echo "SKIP pathways: this iwarp has no debugger to trace them natively"
fi

# The help (?help=1, as the viewer's --help-overlay; H, ?, / or F1 in the page): shown, with every row of the viewer's
# help table (tools/view/input.c) in the same words, but Q (a page is closed as any other).
dom=$(web_chromium --dump-dom "$page?demo=wormhole&help=1")
tag=$(grep -o '<div id="help"[^>]*>' <<<"$dom" || true)
if [[ -n "$tag" && "$tag" != *hidden* ]]; then
  echo "ok   ?help=1: the help shows"
else
  echo "FAIL ?help=1: the help is hidden or missing"
  fail=1
fi
missing=$(python3 - "$src/tools/view/input.c" "$dom" <<'PY'
import html, re, sys
table = open(sys.argv[1]).read().split('help[] = {')[1].split('};')[0]
dom = sys.argv[2]
rows = re.findall(r'<dt>(.*?)</dt><dd>(.*?)</dd>', dom)
page = {(html.unescape(k), html.unescape(v)) for k, v in rows}
for keys, what in re.findall(r'\{"((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"\}', table):
    keys, what = (s.encode().decode('unicode_escape') for s in (keys, what))
    if keys != 'Q' and (keys, what) not in page:
        print(f'{keys}: {what}')
PY
)
if [[ -z "$missing" ]]; then
  echo "ok   ?help=1: it lists the viewer's keys"
else
  echo "FAIL ?help=1: the help lacks: $missing"
  fail=1
fi

# ?fps=S plays and says what it measured (scripts/web-fps.py measures it in real time; here the time is virtual, and
# headless chromium draws no frames on it: only the line's form is checked).
got=$(sed -n 's/.*<pre id="fps"[^>]*>\([^<]*\)<.*/\1/p' <<<"$(web_chromium --dump-dom \
  "http://127.0.0.1:$web_port/index.html?demo=wormhole&fps=1")")
if [[ "$got" =~ ^fps\ [0-9.]+\ frames\ [0-9]+\ seconds\ 1\.[0-9]+\ draws\ .*\ clocks/s\ [0-9.]+\ speed\ [0-9]+$ ]]; then
  echo "ok   ?fps=1: $got"
else
  echo "FAIL ?fps=1: the page says '${got:-nothing}'"
  fail=1
fi
exit $fail
