# What the web tests share (sourced by tests/web/test_*.sh): skip without the tools, build the page once (the tests
# run at the same time and build into the same folder, so one builds while the others wait on its lock), serve it
# with python3 -m http.server on a free port, and run headless chromium on it. Debian's chromium is all it takes:
# no driver, no npm.

# web_need_tools [BROWSER]: skips (77) unless emcc, the browser (chromium unless named) and python3 are there.
web_need_tools() {
  for tool in emcc "${1:-chromium}" python3 flock; do
    if ! command -v "$tool" >/dev/null; then
      echo "SKIP: $tool not found (IWARP_SETUP_WEB=1 scripts/setup.sh installs emscripten, chromium and firefox-esr)"
      exit 77
    fi
  done
}

# web_build SRC OUT: scripts/build-web.sh into OUT, one test at a time.
web_build() {
  mkdir -p "$2"
  flock "$2/.build-lock" "$1/scripts/build-web.sh" "$2" >/dev/null
}

# web_serve OUT: serves OUT on 127.0.0.1:$web_port until the test exits; $web_profile is a fresh chromium profile.
web_serve() {
  web_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  python3 -m http.server "$web_port" --bind 127.0.0.1 --directory "$1" >/dev/null 2>&1 &
  web_server=$!
  web_profile=$(mktemp -d)
  trap 'kill $web_server 2>/dev/null; rm -rf "$web_profile"' EXIT
  for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$web_port/index.html')" 2>/dev/null &&
      return 0
    sleep 0.1
  done
  echo "the page's server on port $web_port did not answer" >&2
  return 1
}

# web_chromium ARGS... URL: headless chromium on a page of the server, with a virtual time budget: what it prints
# (--dump-dom) or writes (--screenshot) is the page once the wasm has loaded and the page is idle.
web_chromium() {
  timeout 120 chromium --headless=new --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
    --user-data-dir="$web_profile" --virtual-time-budget=60000 "$@" 2>/dev/null
}

# web_result DOM: the text of the page's #result element (what ?run=N writes).
web_result() {
  sed -n 's/.*<pre id="result"[^>]*>\([^<]*\)<.*/\1/p' <<<"$1"
}
web_error() {
  sed -n 's/.*<pre id="error"[^>]*>\([^<]*\)<.*/\1/p' <<<"$1"
}
