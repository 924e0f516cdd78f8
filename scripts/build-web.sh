#!/usr/bin/env bash
# Builds the web page (docs/web.md): the emulator's core compiled to WebAssembly with emscripten (Debian's
# `emscripten`; scripts/setup.sh installs it with IWARP_SETUP_WEB=1) and the page's files, into one folder that
# any static server (or `python3 -m http.server`) serves. Nothing is downloaded. Usage: scripts/build-web.sh [DIR]
# (default build-web). The normal build (meson) does not need emscripten.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-build-web}
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)

if ! command -v emcc >/dev/null; then
  echo "build-web: emcc not found: IWARP_SETUP_WEB=1 scripts/setup.sh installs emscripten" >&2
  exit 1
fi
# Debian's emscripten keeps its cache (the C library built for wasm) under /usr/share; a user who cannot write
# there gets one of their own, filled on the first build.
if [[ -z "${EM_CACHE:-}" && ! -w /usr/share/emscripten/cache ]]; then
  export EM_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/iwarp-emscripten"
fi

# Emscripten runs node on acorn (Debian's node-acorn, in /usr/share/nodejs); a node that is not Debian's does not
# look there by itself.
[[ -d /usr/share/nodejs ]] && export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"

# What meson's configure_file writes for the native build: the programs and runtime live where the page packages
# them (/iwarp), and no computed goto (WebAssembly has no indirect jump; the switch dispatch is the portable one).
cat > "$out/obj/iwarp_config.h.new" <<EOF
#pragma once
#define IWARP_COMPUTED_GOTO 0
#define IWARP_SOURCE_ROOT "/iwarp"
#define IWARP_VERSION "$(sed -n "s/^ *version : '\(.*\)',/\1/p" meson.build)"
EOF
cmp -s "$out/obj/iwarp_config.h.new" "$out/obj/iwarp_config.h" || mv "$out/obj/iwarp_config.h.new" "$out/obj/iwarp_config.h"
rm -f "$out/obj/iwarp_config.h.new"

# The core: the same source files as the meson libraries of these folders (every .c in them), and of the layers
# above only what loads a demo: run descriptions, program loading, demo narratives, the view model.
sources=(
  isa/*.c comm_agent/*.c emu/*.c conset/*.c
  common/line_tokens.c common/json.c
  trace/view_model.c trace/util.c
  runner/run_desc.c runner/program_load.c
  tools/view/demo.c
  web/iwarp_web.c
)
# Not conset/: its sched.h would hide the C library's <sched.h> (meson does not export it either).
includes=(-I"$out/obj" -I. -Iisa -Icomm_agent -Iemu -Icommon -Itrace -Itools -Irunner -Itools/view -Iweb)
cflags=(-std=c17 -O2 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wno-unused-parameter -Werror "${includes[@]}")

# One object per source, rebuilt when the source, a header or the flags changed (a header change rebuilds all:
# simple, and a full build takes a minute).
newest_header=$(find isa comm_agent emu common conset trace runner tools/view web -name '*.h' -o -name '*.def' -o -name '*.inc' |
  xargs ls -t | head -1)
# The agent's per-clock files once more with its keys fixed at their defaults, as comm_agent/meson.build and
# emu/meson.build build them (comm_agent/coa.h, COA_KEY_OF): read from those files, so the lists cannot drift.
mapfile -t default_keys_sources < <(
  for dir in comm_agent emu; do
    sed -n "/default_keys_lib = static_library/,/c_args/p" "$dir/meson.build" | grep -o "'[a-z_]*\.c'" | tr -d "'" |
      sed "s|^|$dir/|"
  done)
if ((${#default_keys_sources[@]} == 0)); then
  echo "$0: found no default-keys sources in comm_agent/meson.build or emu/meson.build" >&2
  exit 1
fi
objs=()
pids=()
# compile SRC OBJ [FLAG...]: in the background, two at a time (the machines this runs on have two cores).
compile() {
  local src=$1 obj=$2
  shift 2
  objs+=("$obj")
  if [[ ! -f "$obj" || "$src" -nt "$obj" || "$newest_header" -nt "$obj" || "$out/obj/iwarp_config.h" -nt "$obj" ]]; then
    emcc "${cflags[@]}" "$@" -c "$src" -o "$obj" &
    pids+=($!)
    if ((${#pids[@]} >= 2)); then
      wait "${pids[0]}"
      pids=("${pids[@]:1}")
    fi
  fi
}
for src in "${sources[@]}"; do
  compile "$src" "$out/obj/$(echo "${src%.c}" | tr / _).o"
done
for src in "${default_keys_sources[@]}"; do
  compile "$src" "$out/obj/$(echo "${src%.c}" | tr / _)_default_keys.o" -DCOA_DEFAULT_KEYS
done
for p in "${pids[@]}"; do wait "$p"; done

# The files a demo reads at run time, packaged beside the wasm (iwarp.data) and mounted at /iwarp: every demo, the
# pattern programs the ConSet demo runs, the runtime library.
# Linked into a folder of its own, then renamed into place: the tests build while another test serves the page from
# the same folder, and a file rewritten in place was read empty (WebAssembly.instantiate: "BufferSource argument is
# empty"); a reader now gets a whole file, the one before or the one after.
link="$out/obj/link"
rm -rf "$link"
mkdir -p "$link"
exported=$(sed -n 's/^API [^(]*[ *]\(iwarp_web_[a-z_]*\)(.*/_\1/p' web/iwarp_web.c | paste -sd, -)
emcc -O2 "${objs[@]}" -o "$link/iwarp.js" \
  -sMODULARIZE=1 -sEXPORT_NAME=IwarpModule -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=web \
  -sEXPORTED_FUNCTIONS="[$exported,_malloc,_free]" \
  -sEXPORTED_RUNTIME_METHODS='[cwrap,ccall,UTF8ToString,FS]' \
  --preload-file "$root/programs/demos@/iwarp/programs/demos" \
  --preload-file "$root/programs/patterns@/iwarp/programs/patterns" \
  --preload-file "$root/runtime@/iwarp/runtime" \
  --exclude-file '*meson.build'

# The page itself (web/index.html and what it loads).
for f in web/*.html web/*.js web/*.css; do
  [[ -f "$f" ]] && cp "$f" "$link/"
done
for f in "$link"/*; do
  mv -f "$f" "$out/"
done
ls -l "$out"/iwarp.{js,wasm,data} | awk '{print "build-web: " $NF ": " $5 " bytes"}'
