#!/usr/bin/env bash
# The Slurm path of `iwarp sweep` on a real Slurm (docs/sweep.md): starts a single-node cluster on this machine
# (its own munged, slurmctld and slurmd, a generated slurm.conf for this host, private ports and folders), runs a
# small sweep through --slurm --submit --wait, and checks that every case's record arrived and equals the same
# case run locally. Stops the daemons it started, by their pids, at the end.
#
# Usage: tests/sweep/slurm_test.sh IWARP. Exit 0: passed; 1: failed; 77 (meson's "skipped"): Slurm could not
# start here, with the reason printed. It never passes without running the sweep on Slurm.
set -uo pipefail

iwarp=$(realpath "${1:?usage: slurm_test.sh IWARP}")
skip() {
  echo "SKIPPED: $*"
  exit 77
}
fail() {
  echo "FAILED: $*"
  exit 1
}

for p in munged mungekey slurmctld slurmd sbatch sinfo; do
  command -v "$p" >/dev/null || skip "$p is not installed (scripts/setup.sh installs slurm-wlm and munge)"
done
# slurmd starts every job as its owner, which only root can do.
[[ $(id -u) -eq 0 ]] || skip "slurmd must run as root to start jobs; run this test as root (CI does)"

work=$(mktemp -d /tmp/iwarp-slurm-XXXXXX)
chmod 700 "$work"
stop() {
  for d in slurmd slurmctld munged; do
    if [[ -s $work/$d.pid ]]; then
      pid=$(cat "$work/$d.pid")
      kill "$pid" 2>/dev/null
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null
    fi
  done
  rm -rf "$work"
}
trap stop EXIT
logs() {
  for f in "$work"/*.log; do
    [[ -f $f ]] && { echo "--- $f"; tail -n 15 "$f"; }
  done
}

# munge, with its own key and socket
mungekey --create --keyfile="$work/munge.key" >/dev/null 2>&1 || skip "mungekey could not create a key"
chmod 600 "$work/munge.key"
munged --force --key-file="$work/munge.key" --socket="$work/munge.sock" --pid-file="$work/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munged.seed" 2>"$work/munged.err" ||
  skip "munged did not start: $(cat "$work/munged.err")"

# A port pair of our own, so two runs on one machine do not meet.
port=$((20000 + ($$ % 20000) * 2))
host=$(hostname -s)
node=$(slurmd -C 2>/dev/null | head -n 1)
[[ $node == NodeName=* ]] || skip "slurmd -C did not describe this node"
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=iwarptest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
$node State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf
slurmctld -c -f "$SLURM_CONF" 2>"$work/slurmctld.err" || { logs; skip "slurmctld did not start: $(cat "$work/slurmctld.err")"; }
slurmd -f "$SLURM_CONF" 2>"$work/slurmd.err" || { logs; skip "slurmd did not start: $(cat "$work/slurmd.err")"; }
state=""
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null | head -n 1)
  [[ $state == idle* ]] && break
  sleep 0.5
done
[[ $state == idle* ]] || { logs; skip "the node did not become idle in 30 s (state '$state')"; }
echo "single-node Slurm up: $(sinfo -h -o '%P %D %T %C' | head -n 1) (slurmctld port $port)"

# The sweep: run locally, then on Slurm; every record must arrive and equal the local one.
cd "$work" || fail "cannot enter $work"
cat >t.sweep <<'EOF'
name = slurmtest
command = traffic --pattern {pattern} --rate {rate} --warmup 300 --sample 300 --samples 2:3 --json
cross pattern = uniform, transpose, tornado
cross rate = 0.02, 0.2
EOF
"$iwarp" sweep t.sweep --results local.jsonl --csv local.csv --quiet || fail "the local sweep failed"
timeout 300 "$iwarp" sweep t.sweep --results slurm.jsonl --csv slurm.csv --slurm job.sh --submit --wait ||
  { logs; cat ./*.slurm-*.out 2>/dev/null; fail "the sweep on Slurm failed"; }
cases=$(wc -l <local.jsonl)
got=$(wc -l <slurm.jsonl)
[[ $cases -eq 6 ]] || fail "the local sweep has $cases records, not 6"
[[ $got -eq $cases ]] || fail "$got of the $cases records arrived from Slurm"
diff <(sort local.jsonl) <(sort slurm.jsonl) || fail "the records from Slurm differ from the local ones"
cmp local.csv slurm.csv || fail "the gathered tables differ"
tasks=$(ls ./*.slurm-*.out 2>/dev/null | wc -l)
echo "PASSED: $got records from $tasks Slurm array tasks, each equal to the local run's"
