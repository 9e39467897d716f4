#!/usr/bin/env bash
# Side-by-side benchmark: the same jobs through fio and iorig, back to back
# in one run, printing IOPS, bandwidth and CPU per I/O for each and the
# ratios.  A benchmark, not a test: absolute figures drift on shared
# machines, ratios from one run are what to compare.
#
#   tests/bench/vs-fio.sh [--runtime SECONDS] [--rounds N] [--iorig PATH] [--dir DIR] [CASE...]
#
# --rounds N (default 3, a positive integer): each case runs N rounds of one
# fio run and one iorig run.  The order alternates so that neither tool
# always has the first or the second slot: fio first in odd rounds (1, 3,
# ...), iorig first in even rounds.  For each tool the row shows the round
# with the median IOPS -- that run's own IOPS, MiB/s and ns/io, not medians
# taken column by column -- and the ratios are computed from those two runs.
# With N even it is the lower median: the runs sorted by IOPS ascending, the
# one at 1-based position ceil(N/2) (N=2: the slower; N=4: the second).
# A failed run skips the rest of its case.
#
# Cases: null-qd1 null-qd32 psync-cached and, when the engines exist,
# libaio-* io_uring-* mmap-* splice-* (see `cases` below).
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNTIME=5
ROUNDS=3
IORIG=./build/iorig
DIR=/var/tmp
while [ $# -gt 0 ]; do
  case "$1" in
    --runtime) RUNTIME=$2; shift 2 ;;
    --rounds) ROUNDS=${2-}; shift $(($# > 1 ? 2 : 1)) ;;
    --iorig) IORIG=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    *) break ;;
  esac
done
[[ $ROUNDS =~ ^[1-9][0-9]{0,5}$ ]] \
  || { echo "--rounds wants a positive integer, not '$ROUNDS'" >&2; exit 2; }
command -v fio >/dev/null || { echo "fio is not installed (apt-get install fio)"; exit 1; }
[ -x "$IORIG" ] || { echo "$IORIG not found: build first (ci/build)"; exit 1; }
export IORIG_PLUGIN_PATH=${IORIG_PLUGIN_PATH:-$(dirname "$IORIG")/plugins}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; rm -f "$DIR"/iorig-bench.* /dev/shm/iorig-bench.*' EXIT

have_engine() { [ -e "$IORIG_PLUGIN_PATH/$1.so" ]; }

# name | engine | rw | bs | iodepth | file ("" = none) | direct | size
cases() {
  echo "null-qd1|null|randread|4k|1||0|1t"
  echo "null-qd32|null|randread|4k|32||0|1t"
  echo "psync-cached|psync|randread|4k|1|$DIR/iorig-bench.cached|0|256m"
  for e in libaio io_uring; do
    have_engine $e || continue
    echo "$e-cached-qd32|$e|randread|4k|32|$DIR/iorig-bench.cached|0|256m"
    echo "$e-shm-qd32|$e|randread|4k|32|/dev/shm/iorig-bench.shm|0|256m"
    echo "$e-direct-qd32|$e|randread|4k|32|$DIR/iorig-bench.direct|1|256m"
    echo "$e-seqwrite-128k|$e|write|128k|32|$DIR/iorig-bench.seq|1|256m"
  done
  for e in mmap splice; do
    have_engine $e || continue
    echo "$e-cached|$e|randread|4k|1|$DIR/iorig-bench.cached|0|256m"
    echo "$e-shm|$e|randread|4k|1|/dev/shm/iorig-bench.shm|0|256m"
    echo "$e-seqwrite-128k|$e|write|128k|1|$DIR/iorig-bench.seq|0|256m"
  done
}

# Lay out the files once, with fio, so both tools read the same data.
for f in "$DIR/iorig-bench.cached" "$DIR/iorig-bench.direct" /dev/shm/iorig-bench.shm; do
  [ -e "$f" ] || fio --name=layout --filename="$f" --size=256m --rw=write --bs=1m \
      --output=/dev/null >/dev/null
done
cat "$DIR/iorig-bench.cached" /dev/shm/iorig-bench.shm >/dev/null   # into the page cache

fio_engine() { case "$1" in io_uring) echo io_uring ;; *) echo "$1" ;; esac; }

# The figures of one run from its JSON (iorig writes fio's layout), as
# "IOPS MiB/s CPU-ns-per-I/O".
figures() {
  python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j["read"] if j["read"]["total_ios"] else j["write"]
ios = d["total_ios"] or 1
run_s = (d["runtime"] or 1) / 1000.0
cpu_ns = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * run_s * 1e9 / ios
print(repr(float(d["iops"])), repr(d["bw_bytes"] / 1048576.0), repr(cpu_ns))
PY
}

# One run of the current case (the loop's variables) per tool: print its
# figures, or fail leaving the tool's stderr in $TMP/TOOL.err.  Called in a
# `||` context, where set -e is off, hence the explicit returns.
run_fio() {
  fio --name=b --ioengine="$(fio_engine "$eng")" --rw="$rw" --bs="$bs" --iodepth="$depth" \
      --size="$size" "${fileopt[@]}" --direct="$direct" --runtime="$RUNTIME" --time_based \
      --norandommap --randrepeat=0 --invalidate=0 --output-format=json >"$TMP/fio.json" 2>"$TMP/fio.err" \
      || return 1
  figures "$TMP/fio.json"
}
run_iorig() {
  "$IORIG" --output-format=json "$TMP/job.cfg" >"$TMP/iorig.json" 2>"$TMP/iorig.err" || return 1
  figures "$TMP/iorig.json"
}

# The median-IOPS run of TOOL among this case's rounds (the lower median for
# an even count): a line of $TMP/TOOL.runs.
median() { LC_ALL=C sort -g -k1,1 "$TMP/$1.runs" | sed -n "$(((ROUNDS + 1) / 2))p"; }

printf '%-22s %12s %12s %7s %10s %10s %7s %9s %9s %6s\n' case fio-IOPS iorig-IOPS ratio \
  fio-MiB/s iorig-MiB/s ratio fio-ns/io iorig-ns/io ratio
want=("$@")
cases | while IFS='|' read -r name eng rw bs depth file direct size; do
  if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then continue; fi
  fileopt=()
  cfgfile=""
  if [ -n "$file" ]; then fileopt=(--filename="$file"); cfgfile="filename = \"$file\";"; fi
  dirv=false; [ "$direct" = 1 ] && dirv=true
  cat >"$TMP/job.cfg" <<CFG
jobs = ( { name = "b"; ioengine = "$eng"; rw = "$rw"; bs = "$bs"; iodepth = $depth;
           size = "$size"; $cfgfile direct = $dirv; runtime = "${RUNTIME}s";
           time_based = true; norandommap = true; invalidate = false; } );
CFG
  : >"$TMP/fio.runs"
  : >"$TMP/iorig.runs"
  for ((round = 1; round <= ROUNDS; round++)); do
    if ((round % 2)); then order=(fio iorig); else order=(iorig fio); fi
    for tool in "${order[@]}"; do
      figs=$("run_$tool") \
        || { echo "$name: $tool failed: $(tail -1 "$TMP/$tool.err")"; continue 3; }
      echo "$figs" >>"$TMP/$tool.runs"
    done
  done
  python3 - "$name" "$(median fio)" "$(median iorig)" <<'PY'
import sys
name = sys.argv[1]
f, i = ([float(x) for x in s.split()] for s in sys.argv[2:])
r = lambda x, y: x / y if y else float("nan")
print(f"{name:<22} {f[0]:12.0f} {i[0]:12.0f} {r(i[0], f[0]):7.2f} {f[1]:10.1f} {i[1]:10.1f} "
      f"{r(i[1], f[1]):7.2f} {f[2]:9.0f} {i[2]:9.0f} {r(i[2], f[2]):6.2f}")
PY
done
