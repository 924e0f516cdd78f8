#!/usr/bin/env bash
# Installs the Debian packages the build, the tests and the viewer need, only when one is missing,
# so that a fresh machine (or CI) gets from a clean clone to a build with one command.
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc
  libcmocka-dev libreadline-dev libsdl2-dev libsdl2-ttf-dev libgif-dev libzstd-dev libpng-dev zlib1g-dev libfontconfig-dev libjansson-dev libcairo2-dev fonts-dejavu-core
  libgmsh-dev libmetis-dev
  valgrind tmux xvfb xdotool
  slurm-wlm munge
)
if [[ "${IWARP_SETUP_FUZZ:-0}" == 1 ]]; then
  packages+=(clang libclang-rt-14-dev)
fi
# The web page (docs/web.md): emscripten builds it (scripts/build-web.sh), headless chromium tests it
# (tests/web), and firefox-esr is the second browser it is tried and tested in; node-acorn comes with emscripten,
# which runs it on node.
if [[ "${IWARP_SETUP_WEB:-0}" == 1 ]]; then
  packages+=(emscripten chromium firefox-esr)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [[ $(id -u) -ne 0 ]] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
