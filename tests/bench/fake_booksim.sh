#!/bin/sh
# A stand-in for BookSim 2 for tests/bench/test_booksim.c: it checks that it was given one config file with the
# keys docs/traffic.md ("Speed") shows for bench traffic's points, and prints its figures in BookSim's words
# ("Time taken is N cycles", "Total run time S"), exiting 255 as BookSim 2 does after a whole run.
# FAKE_BOOKSIM picks what it does instead: fail (exit 3), hang (wait on a sleep past any limit, its pid in
# FAKE_BOOKSIM_LOG/sleep.pid), garbage (no figures),
# short (fewer cycles than the config asks for). FAKE_BOOKSIM_LOG, a folder: each config is copied there and its
# path appended to FAKE_BOOKSIM_LOG/args.
set -u
if [ $# -ne 1 ]; then
  echo "fake booksim: wants one argument, a config file; got $#: $*" >&2
  exit 4
fi
cfg=$1
if [ ! -f "$cfg" ]; then
  echo "fake booksim: $cfg: no such file" >&2
  exit 4
fi
if [ -n "${FAKE_BOOKSIM_LOG:-}" ]; then
  echo "$cfg" >>"$FAKE_BOOKSIM_LOG/args"
  cp "$cfg" "$FAKE_BOOKSIM_LOG/"
fi
key() { sed -n "s/^$1 = \(.*\);\$/\1/p" "$cfg"; }
want() {
  if [ "$(key "$1")" != "$2" ]; then
    echo "fake booksim: $1 is '$(key "$1")', not '$2'" >&2
    exit 5
  fi
}
want topology torus
want k 8
want n 2
want routing_function dim_order
want num_vcs 2
want traffic uniform
want packet_size 16
want injection_process bernoulli
want injection_rate_uses_flits 0
want sim_type throughput
want sim_count 1
want warmup_periods 1
want max_samples 10
want stopping_thres 0.0
want acc_stopping_thres 0.0
case $(key injection_rate) in
  0.003125 | 0.015625) ;;
  *) echo "fake booksim: injection_rate is '$(key injection_rate)'" >&2; exit 5 ;;
esac
period=$(key sample_period)
echo "BEGIN Configuration File: $cfg"
cat "$cfg"
echo "END Configuration File: $cfg"
case ${FAKE_BOOKSIM:-ok} in
  fail) echo "fake booksim: told to fail" >&2; exit 3 ;;
  hang) # a child of its own, as a wrapper script would start BookSim: the limit must stop it too
    sleep 300 &
    if [ -n "${FAKE_BOOKSIM_LOG:-}" ]; then echo $! >"$FAKE_BOOKSIM_LOG/sleep.pid"; fi
    wait
    exit 0 ;;
  garbage) echo "no figures here"; exit 0 ;;
  short) cycles=$((period * 10 - 1)) ;;
  *) cycles=$((period * 10 + 37)) ;; # the injection cycles and a drain
esac
echo "Warmed up ...Time used is $period cycles"
echo "Draining remaining packets ..."
echo "Time taken is $cycles cycles"
echo "====== Overall Traffic Statistics ======"
echo "Total run time 0.25"
exit 255
