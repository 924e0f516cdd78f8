#!/usr/bin/env bash
# Same frame, same picture (docs/web.md): the page's screenshot by headless chromium in a 1280x800 window against the
# SDL2 view's `iwarp demo NAME --screenshot FILE --at N --size 1280x800 --paused` (the page stops at the clock it is
# sent to, so both say "paused"), compared by png_diff: the mean absolute difference per channel and the share of pixels
# with a channel more than 48 apart. Every demo at the clock of its picture in docs/demos.md (`shot:`; the deadlock
# demo's is past its end, with the wait cycle outlined) on the grid, the canvas, which the page draws with the viewer's
# shapes pixel for pixel (only text is rasterized differently); wormhole at 150 on the whole window too (the top bar and
# the side panel are HTML at the viewer's sizes, the same words wrapped at the same places but rasterized by the
# browser; the controls stand in the timeline's last row, where the viewer writes its keys). The SDL2 view runs on past
# the frame before drawing it, so that its timeline shows the whole run: the page is run as far (?run=N+100000) and goes
# back to N (&back=N), and the timeline's track and numbers are held to the grid's thresholds too. Zoomed
# (?zoom=Z&center=X,Y against --zoom Z --center X,Y), their grids with the minimap: wormhole, all-to-all (4x4, the
# largest shipped array), and a large array, 32x32 (programs/bench/stream.s as a demo of one's own, written by `iwarp
# demo FOLDER/stream.txt --web`), with its cells' names and with the rulers. A traced pathway (?select=X,Y&channel=N
# against --select X,Y --channel N): its links framed and numbered. The PNGs and wormhole's difference stay in
# OUT_DIR/../picture. Skips (77) without emcc, chromium or a viewer (SDL2).
# Usage: test_web_picture.sh SOURCE_ROOT OUT_DIR IWARP PNG_DIFF
set -euo pipefail
src=$1 out=$2 iwarp=$3 png_diff=$4
W=1280 H=800
. "$src/tests/web/web_lib.sh"
web_need_tools
shots=$(dirname "$out")/picture
mkdir -p "$shots"
if ! "$iwarp" demo wormhole --screenshot "$shots/wormhole-150-sdl.png" --at 150 --size ${W}x$H --paused \
  2>"$shots/sdl.err"; then
  grep -q 'has no viewer' "$shots/sdl.err" && { echo "SKIP: $(cat "$shots/sdl.err")"; exit 77; }
  cat "$shots/sdl.err"
  exit 1
fi
web_build "$src" "$out"
web_serve "$out"

# The grid's rectangle: render.c's layout() at 1280x800, a top bar 54 high, a panel 396 wide, a timeline 74 high;
# the timeline's track and the numbers under it, its first 46 rows (the controls take the rest).
top=54 panel=396 bottom=74
grid=0,$top,$((W - panel)),$((H - top - bottom))
track=0,$((H - bottom)),$((W - panel)),46
cases=()
for txt in "$src"/programs/demos/*.txt; do
  cases+=("$(basename "$txt" .txt):$(sed -n 's/^shot: *//p' "$txt" | head -1):")
done
cases+=("wormhole:150:3:1,0" "alltoall:600:2:1,2" "stream32:150:4:5,5" "stream32:150:1.5:20,20")
# A traced pathway (?select=X,Y&channel=N against --select X,Y --channel N): its links framed and numbered, straight
# (wormhole), over a wrap-around link (dateline), and zoomed, where the numbers have room beside the percentages.
cases+=("wormhole:150:::1,0:8" "dateline:140:::3,0:0" "roundrobin:110:2:1,0:0,0:2")
# The 32x32 array: every cell streams 200 words to its neighbour.
own=$(dirname "$out")/stream32
mkdir -p "$own"
cp "$src/programs/bench/stream.s" "$own/"
printf 'array 32x32\nprogram stream stream.s\ncells all stream 200\n' >"$own/stream.run"
printf 'title: 32x32, every cell streams\n---\nprograms/bench/stream.s on 32x32.\n' >"$own/stream.txt"
"$iwarp" demo "$own/stream.txt" --web "$out/stream32" --page "$out" >/dev/null
fail=0
for c in "${cases[@]}"; do
  IFS=: read -r name at zoom center select channel <<<"$c"
  at=${at:-150}
  base="$shots/$name-$at" sdl=() web= demo=$name page="index.html?demo=$name&"
  [[ $name == stream32 ]] && demo=$own/stream.txt page="stream32/page.html?own=stream&"
  if [[ -n "$zoom" ]]; then
    base+="-zoom$zoom"
    sdl=(--zoom "$zoom" --center "$center")
    web="&zoom=$zoom&center=$center"
  fi
  if [[ -n "$select" ]]; then
    base+="-path$select-$channel"
    sdl+=(--select "$select" --channel "$channel")
    web+="&select=$select&channel=$channel"
  fi
  "$iwarp" demo "$demo" --screenshot "$base-sdl.png" --at "$at" --size ${W}x$H --paused "${sdl[@]}"
  rm -f "$base-web.png"
  web_chromium --window-size=$W,$H --screenshot="$base-web.png" \
    "http://127.0.0.1:$web_port/${page}run=$((at + 100000))&back=$at$web" >/dev/null
  if [[ ! -s "$base-web.png" ]]; then
    echo "FAIL $name at $at: chromium wrote no screenshot"
    fail=1
    continue
  fi
  what="$name at $at${zoom:+ zoomed $zoom on $center}${select:+ tracing ($select) ch $channel}"
  echo -n "$what, grid:  " && "$png_diff" "$base-web.png" "$base-sdl.png" --rect "$grid" \
    --max-mean 0.5 --max-far 0.2 || fail=1
  echo -n "$what, timeline:  " && "$png_diff" "$base-web.png" "$base-sdl.png" --rect "$track" \
    --max-mean 0.5 --max-far 0.2 || fail=1
done

diff() { "$png_diff" "$shots/wormhole-150-web.png" "$shots/wormhole-150-sdl.png" "$@"; }
echo -n "wormhole at 150, whole window: " && diff --max-mean 5 --max-far 4 --diff "$shots/wormhole-150-diff.png" ||
  fail=1
# Where the rest comes from (no threshold): the top bar, the side panel, the controls against the viewer's keys.
echo -n "  top bar:    " && diff --rect 0,0,$W,$top
echo -n "  side panel: " && diff --rect $((W - panel)),$top,$panel,$((H - top))
echo -n "  bottom:     " && diff --rect 0,$((H - bottom)),$((W - panel)),$bottom
echo "pictures: $shots (NAME-CLOCK-web.png, -sdl.png; wormhole-150-diff.png: red more than 48 apart, orange less)"
exit $fail
