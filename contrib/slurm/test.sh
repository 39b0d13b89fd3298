#!/usr/bin/env bash
# A batch solve on a real Slurm, on this machine: installs Debian's Slurm and MUNGE (as
# root), starts a one-node cluster under a temporary directory, submits
# contrib/slurm/solve-array.sbatch as an array of 4 shards with 2 running at once, SIGKILLs
# the ply of one running task once it has written a result (and tears its file's last line,
# as a kill in the middle of a write would), requeues that task, waits, merges, and checks
# that the merged file is byte for byte a single-machine run and that no position was solved
# twice. Everything it starts is stopped and its directory removed on any exit.
#
# Not root (or no apt-get and no Slurm): prints SKIPPED and exits 0, or exits 1 when
# PLY_SLURM_TEST=require. PLY: the ply binary (default target/debug/ply). The log is also
# written to PLY_SLURM_LOG (default target/slurm-test.log).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
PLY=${PLY:-$repo/target/debug/ply}
LOG=${PLY_SLURM_LOG:-$repo/target/slurm-test.log}
SHARDS=4
POSITIONS=40

mkdir -p "$(dirname "$LOG")"
: >"$LOG"
say() { printf '%s slurm-test: %s\n' "$(date -u +%H:%M:%S)" "$*" | tee -a "$LOG" >&2; }
skip() {
  say "SKIPPED: $*"
  printf '\n*** SKIPPED: contrib/slurm/test.sh: %s ***\n\n' "$*" >&2
  if [ "${PLY_SLURM_TEST:-}" = require ]; then exit 1; fi
  exit 0
}
fail() {
  say "FAILED: $*"
  exit 1
}

[ "$(id -u)" = 0 ] || skip "needs root to install and run slurmctld, slurmd and munged"
[ -x "$PLY" ] || fail "no ply binary at $PLY (cargo build -p ply)"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
  ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || skip "no Slurm installed and no apt-get to install it"
  say "installing slurmctld slurmd slurm-client munge"
  apt-get update >>"$LOG" 2>&1
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    slurmctld slurmd slurm-client munge >>"$LOG" 2>&1 || fail "apt-get install failed (see $LOG)"
fi
say "$(slurmctld -V)"

tmp=$(mktemp -d /tmp/ply-slurm.XXXXXX)
chmod 755 "$tmp"
export SLURM_CONF=$tmp/slurm.conf
cleanup() {
  status=$?
  set +e
  if [ -n "${job:-}" ]; then scancel "$job" 2>/dev/null; fi
  for pidfile in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
    if [ -s "$pidfile" ]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null
    fi
  done
  if [ "$status" != 0 ]; then
    for f in "$tmp"/log/*.log; do
      [ -f "$f" ] || continue
      echo "--- last lines of $f" >>"$LOG"
      tail -n 30 "$f" >>"$LOG"
    done
    echo "slurm-test: failed; the log is in $LOG" >&2
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local limit=$1 start=$SECONDS
  shift
  until "$@"; do
    [ $((SECONDS - start)) -lt "$limit" ] || return 1
    sleep 0.5
  done
}

# MUNGE with its own key and socket, run as the munge user.
mkdir -p "$tmp/munge" "$tmp/munge-run" "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/results"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$tmp/munge" "$tmp/munge-run"
chmod 700 "$tmp/munge"
chmod 755 "$tmp/munge-run"
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge-run/munge.socket
runuser -u munge -- munged --socket="$socket" --key-file="$tmp/munge/munge.key" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
  --seed-file="$tmp/munge/munged.seed" || fail "munged did not start"
wait_for 10 test -S "$socket" || fail "munged made no socket"

host=$(hostname -s)
# Two free ports, so that a second run (or a real Slurm) on this machine is no obstacle.
ports=()
port=$((20000 + ($$ % 10000) * 2))
while [ ${#ports[@]} -lt 2 ]; do
  port=$((port + 1))
  if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then ports+=("$port"); fi
done
node=$(slurmd -C | head -n 1)
case $node in NodeName=*) ;; *) fail "slurmd -C printed no NodeName line: $node" ;; esac
cat >"$SLURM_CONF" <<EOF
ClusterName=plytest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
AuthType=auth/munge
AuthInfo=socket=$socket,cred_expire=10
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SchedulerParameters=sched_interval=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
say "slurm.conf node line: $node"
slurmctld -c -f "$SLURM_CONF" || fail "slurmctld did not start (debug: slurmctld -D -vvv -f $SLURM_CONF)"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start (debug: slurmd -D -vvv -f $SLURM_CONF)"
node_idle() { [ "$(sinfo -h -o %t 2>/dev/null)" = idle ]; }
wait_for 60 node_idle || fail "the node never came up idle: $(sinfo 2>&1)"
say "cluster up: $(sinfo -h -o '%P %D nodes %c cpus %t')"

# Positions: deterministic random games on 8x8, stopped at 20 empties (the debug build solves
# with ply-othello optimized, a few tenths of a second each, so that a shard of ten runs long
# enough to be caught mid-shard; at 16 empties a shard took about 0.3 s and the half-second
# polls missed every task): 4 openings of 32 plies, each continued 10 ways for 8 more. A game
# that reaches a pass is dropped.
seed=12
# Plays $2 random plies after the moves $1 into $game; empty at a pass. (No subshell: the
# seed goes on from call to call.)
random_game() {
  local moves=$1 json legal
  game=""
  for _ in $(seq "$2"); do
    json=$("$PLY" othello show "$moves" --json)
    [[ $json =~ \"legal_moves\":\[([^]]*)\] ]] || return 0
    legal=${BASH_REMATCH[1]//\"/}
    # shellcheck disable=SC2086 # split into the moves
    set -- ${legal//,/ }
    [ $# -gt 0 ] || return 0
    seed=$(((seed * 1103515245 + 12345) % 2147483648))
    shift $(((seed / 65536) % $#))
    moves="$moves$1"
  done
  game=$moves
}
input=$tmp/positions.obf
: >"$input"
made=0
tries=0
while [ "$made" -lt "$POSITIONS" ]; do
  tries=$((tries + 1))
  [ "$tries" -le 20 ] || fail "20 random openings gave only $made positions"
  random_game "" 32
  opening=$game
  [ -n "$opening" ] || continue
  for _ in $(seq $((POSITIONS / 4))); do
    random_game "$opening" 8
    [ -n "$game" ] && [ "$made" -lt "$POSITIONS" ] || continue
    json=$("$PLY" othello show "$game" --json)
    [[ $json =~ \"position\":\"([^\"]*)\" ]] || fail "no position in $json"
    echo "${BASH_REMATCH[1]};" >>"$input"
    made=$((made + 1))
  done
done
say "$(wc -l <"$input") positions with 20 empties, $SHARDS shards"

job=$(PLY_INPUT=$input PLY_RESULTS=$tmp/results PLY=$PLY sbatch --parsable \
  --array=0-$((SHARDS - 1))%2 --chdir="$tmp" --output="$tmp/log/task-%a.log" \
  contrib/slurm/solve-array.sbatch) || fail "sbatch refused the job"
say "submitted job array $job: sbatch --array=0-$((SHARDS - 1))%2"

# The most tasks seen running at once, and whether any task is still pending or running.
most=0
queue=""
poll_queue() {
  local running
  queue=$(squeue -h -r -j "$job" -o %T 2>/dev/null)
  running=$(grep -c RUNNING <<<"$queue" || true)
  [ "$running" -le "$most" ] || most=$running
}

# Kill the ply of a running task once it has written a result, before it has written all.
per_shard=$((POSITIONS / SHARDS))
killed=""
find_victim() {
  local i f n pid
  poll_queue
  for i in $(seq 0 $((SHARDS - 1))); do
    f=$tmp/results/shard-$i.jsonl
    [ -f "$f" ] || continue
    n=$(wc -l <"$f")
    if [ "$n" -ge 1 ] && [ "$n" -lt "$per_shard" ]; then
      pid=$(pgrep -f -- "--out $f" | head -n 1) || continue
      kill -9 "$pid" 2>/dev/null || continue
      killed=$i
      victim=$pid
      say "SIGKILL to ply (pid $pid) of task $i after $n of $per_shard results"
      return 0
    fi
  done
  return 1
}
wait_for 120 find_victim || fail "no task was caught mid-shard to kill (positions too quick?)"
ply_gone() { ! kill -0 "$victim" 2>/dev/null; }
wait_for 10 ply_gone || fail "ply (pid $victim) outlived SIGKILL"
# A kill in the middle of a write leaves a line without its newline.
printf '{"position":"--XXO' >>"$tmp/results/shard-$killed.jsonl"
say "tore the last line of shard-$killed.jsonl, as a kill mid-write would"

task_state() { scontrol -o show job "${job}_$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
task_ended() { case $(task_state "$killed") in FAILED | CANCELLED | COMPLETED | NODE_FAIL) true ;; *) false ;; esac; }
wait_for 60 task_ended || fail "task $killed did not end after the kill: $(task_state "$killed")"
say "task $killed ended $(task_state "$killed"), exit $(scontrol -o show job "${job}_$killed" | sed -n 's/.*ExitCode=\([0-9:]*\).*/\1/p')"
requeue() { scontrol requeue "${job}_$killed" 2>>"$LOG"; }
wait_for 60 requeue || fail "scontrol requeue ${job}_$killed failed"
say "scontrol requeue ${job}_$killed"

all_done() {
  poll_queue
  [ -z "$queue" ]
}
wait_for 240 all_done || fail "the array did not finish in 240 s: $(squeue -j "$job" 2>&1)"
say "all tasks ended; at most $most ran at once"
[ "$most" -le 2 ] || fail "$most tasks ran at once under %2"
for i in $(seq 0 $((SHARDS - 1))); do
  line=$(scontrol -o show job "${job}_$i")
  state=$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$line")
  restarts=$(sed -n 's/.* Restarts=\([0-9]*\).*/\1/p' <<<"$line")
  say "task $i: $state, restarts $restarts, $(wc -l <"$tmp/results/shard-$i.jsonl") results"
  [ "$state" = COMPLETED ] || fail "task $i ended $state: $(cat "$tmp/log/task-$i.log")"
  if [ "$i" = "$killed" ] && [ "$restarts" -lt 1 ]; then fail "task $i was not requeued"; fi
done

# No position solved twice: every result line across the shards (the torn one was dropped
# by the resumed task) is for a different input line, and there is one for each.
results=$(cat "$tmp"/results/shard-*.jsonl | wc -l)
distinct=$(cat "$tmp"/results/shard-*.jsonl | sed -n 's/.*"line":\([0-9]*\).*/\1/p' | sort -u | wc -l)
torn=$(for f in "$tmp"/results/shard-*.jsonl; do [ -z "$(tail -c 1 "$f")" ] || echo "$f"; done)
[ -z "$torn" ] || fail "a results file still ends in a torn line: $torn"
[ "$results" = "$POSITIONS" ] && [ "$distinct" = "$POSITIONS" ] ||
  fail "$results result lines for $distinct distinct positions; want $POSITIONS of each"
say "$results result lines across the shards, $distinct distinct input lines: none solved twice"

"$PLY" othello merge --obf "$input" "$tmp"/results/shard-*.jsonl >"$tmp/merged.jsonl" 2>>"$LOG" ||
  fail "ply othello merge failed"
"$PLY" othello solve --obf "$input" --out "$tmp/single.jsonl" >/dev/null ||
  fail "the single-machine run failed"
cmp "$tmp/merged.jsonl" "$tmp/single.jsonl" || fail "the merged results differ from a single run"
say "merged = single-machine run, byte for byte ($(wc -c <"$tmp/merged.jsonl") bytes)"
echo "--- task $killed's log (killed and requeued)" >>"$LOG"
cat "$tmp/log/task-$killed.log" >>"$LOG"
say "PASSED"
