#!/usr/bin/env bash
# Ceph benchmark: iorig's rbd engine vs fio's rbd engine vs `rbd bench`, and
# iorig's rados engine vs fio's rados engine vs `rados bench`, the same
# workloads back to back on one cluster, printing IOPS, bandwidth, p99
# latency and the ratios.  A benchmark, not a test: compare the ratios of
# one run; absolute figures drift.
#
#   tests/bench/vs-ceph.sh [--runtime SECONDS] [--rounds N] [--iorig PATH]
#                          [--size SIZE] [--rbd-cache false|true] [CASE...]
#
# Each tool runs N times per case (default 3): round k runs the tools in
# the k-th order of a Latin square (fio iorig native, iorig native fio,
# native fio iorig, then the three reversed), so every tool is first,
# second and last equally often; each tool's median run (by IOPS, with its
# own bandwidth and p99) is shown.  A neighbour's burst on a shared machine
# or a drift of the cluster thus favours no tool.
#
# Cluster: CEPH_CONF (and pool BENCH_POOL, default rbd) when set, else a
# throwaway one from tests/ceph/cluster-start, stopped at the end.
# Every tool gets the same client settings through CEPH_ARGS: by default
# --rbd_cache=false, so the cluster is measured, not the client's cache
# (fio's rbd engine flushes once at start, which turns librbd's default
# cache into write-back; iorig leaves librbd's default alone), and
# iorig's default --rados_osd_op_timeout=30.
# `rbd bench` has no runtime: it gets the number of I/Os iorig did.
# `rbd bench` and `rados bench` print no latency percentiles ("-").
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNTIME=5
ROUNDS=3
IORIG=./build/iorig
SIZE=1g
CACHE=false
while [ $# -gt 0 ]; do
  case "$1" in
    --runtime) RUNTIME=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --iorig) IORIG=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --rbd-cache) CACHE=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
for t in fio rbd rados python3; do
  command -v "$t" >/dev/null || { echo "vs-ceph: $t is not installed"; exit 1; }
done
fio --enghelp=rbd >/dev/null 2>&1 || { echo "vs-ceph: this fio has no rbd engine"; exit 1; }
[ -x "$IORIG" ] || { echo "vs-ceph: $IORIG not found: build first (ci/build)"; exit 1; }
IORIG=$(cd "$(dirname "$IORIG")" && pwd)/$(basename "$IORIG")
export IORIG_PLUGIN_PATH=${IORIG_PLUGIN_PATH:-$(dirname "$IORIG")/plugins}
for e in rbd rados; do
  "$IORIG" engines "$e" >/dev/null || { echo "vs-ceph: iorig has no $e engine"; exit 1; }
done

TMP=$(mktemp -d)
OWN_CLUSTER=0
POOL=${BENCH_POOL:-rbd}
IMG=iorig-bench
cleanup() {
  set +e
  if [ -n "${CEPH_CONF:-}" ] && [ -n "${RADI:-}" ]; then
    rbd rm "$POOL/$IMG" >/dev/null 2>&1
    rados -p "$POOL" cleanup >/dev/null 2>&1
    for i in $(seq 0 15); do rados -p "$POOL" rm "iorig-bench-fio.$i" >/dev/null 2>&1; done
    # iorig's objects: touched and removed by one more iorig job.
    printf 'jobs = ( { name = "c"; %s rw = "read"; bs = "4m"; %s remove_objects = true; } );\n' \
      "${RADI/touch_objects = false/touch_objects = true}" "$RADOBJS" >"$TMP/clean.cfg"
    "$IORIG" "$TMP/clean.cfg" >/dev/null 2>&1
  fi
  [ "$OWN_CLUSTER" = 1 ] && tests/ceph/cluster-stop --env-file "$TMP/cluster.env" >/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
if [ -z "${CEPH_CONF:-}" ]; then
  echo "vs-ceph: starting a throwaway cluster (tests/ceph/cluster-start)"
  tests/ceph/cluster-start --env-file "$TMP/cluster.env" >"$TMP/cluster.log" 2>&1 ||
    { cat "$TMP/cluster.log"; exit 1; }
  OWN_CLUSTER=1
  # shellcheck disable=SC1091
  . "$TMP/cluster.env"
  export CEPH_CONF
fi
# iorig's engines set rados_osd_op_timeout (default 30 s: a request an OSD
# does not answer fails instead of hanging); librados then arms a timer
# per request.  The other tools get the same setting, so that the engines
# are compared, not two librados configurations.
export CEPH_ARGS="--rbd_cache=$CACHE --rados_osd_op_timeout=30"

# The image, written once in full so that reads reach real data.
rbd rm "$POOL/$IMG" >/dev/null 2>&1 || true
rbd create --size "${SIZE^^}" --image-feature layering "$POOL/$IMG"
SIZE_B=$(rbd info --format json "$POOL/$IMG" | python3 -c 'import json,sys; print(json.load(sys.stdin)["size"])')
rbd bench --io-type write --io-size 4M --io-threads 16 --io-pattern seq --io-total "$SIZE_B" \
  "$POOL/$IMG" >/dev/null

# Figures of each tool, one line: IOPS MiB/s p99_us (p99 "-" when unknown).
from_json() { # file ddir
  python3 - "$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j[sys.argv[2]]
p = d["clat_ns"].get("percentile", {})
p99 = next((v for k, v in p.items() if k.startswith("99.0")), None)
print(f'{d["iops"]:.0f} {d["bw_bytes"] / 1048576:.1f} {p99 / 1000 if p99 else "-"} {d["total_ios"]}')
PY
}

run_fio() { # ddir args...
  local ddir=$1; shift
  fio --name=b --runtime="$RUNTIME" --time_based --norandommap --randrepeat=0 \
      --output-format=json "$@" >"$TMP/fio.json" 2>"$TMP/fio.err" ||
    { echo "fio failed: $(tail -2 "$TMP/fio.err")" >&2; return 1; }
  from_json "$TMP/fio.json" "$ddir"
}

run_iorig() { # ddir "libconfig options"
  cat >"$TMP/job.cfg" <<CFG
jobs = ( { name = "b"; runtime = "${RUNTIME}s"; time_based = true; norandommap = true;
           $2 } );
CFG
  "$IORIG" --output-format=json "$TMP/job.cfg" >"$TMP/iorig.json" 2>"$TMP/iorig.err" ||
    { echo "iorig failed: $(tail -2 "$TMP/iorig.err")" >&2; return 1; }
  from_json "$TMP/iorig.json" "$1"
}

run_rbd_bench() { # type pattern bs ios
  rbd bench --io-type "$1" --io-pattern "$2" --io-size "$3" --io-threads 16 \
      --io-total $(( $4 * $(numfmt --from=iec "${3^^}") )) "$POOL/$IMG" >"$TMP/rbd.out" 2>&1 ||
    { echo "rbd bench failed: $(tail -2 "$TMP/rbd.out")" >&2; return 1; }
  # elapsed: 10  ops: 40960  ops/sec: 4094.56  bytes/sec: 16 MiB/s
  awk -v bs="$(numfmt --from=iec "${3^^}")" '/^elapsed:/ {
      printf "%.0f %.1f - %d\n", $6, $6 * bs / 1048576, $4 }' "$TMP/rbd.out"
}

run_rados_bench() { # mode bs [extra]
  local mode=$1 bs=$2; shift 2
  rados -p "$POOL" bench "$RUNTIME" "$mode" -t 16 ${bs:+-b "$bs" -O 4194304} "$@" \
      >"$TMP/rados.out" 2>&1 ||
    { echo "rados bench failed: $(tail -2 "$TMP/rados.out")" >&2; return 1; }
  awk '/^Total (writes|reads) made:/ { n = $4 }
       /^Bandwidth \(MB\/sec\):/ { bw = $3 }
       /^Average IOPS:/ { iops = $3 }
       END { printf "%.0f %.1f - %d\n", iops, bw, n }' "$TMP/rados.out" # its "MB" are MiB
}

RBDF=(--ioengine=rbd --clientname=admin --pool="$POOL" --rbdname="$IMG" --iodepth=16)
RBDI="ioengine = \"rbd\"; pool = \"$POOL\"; rbdname = \"$IMG\"; iodepth = 16;"
RADF=(--ioengine=rados --clientname=admin --pool="$POOL" --conf="$CEPH_CONF" --iodepth=16)
RADI="ioengine = \"rados\"; pool = \"$POOL\"; iodepth = 16; touch_objects = false;"
RADOBJS='size = "64m"; nrfiles = 16; object_size = "4m"; object_prefix = "iorig-bench";'

# case | ddir | fio args | iorig options | native tool call
# rados: fio makes each of its 16 files one object of 4 MiB, and iorig the
# same (nrfiles=16 of a diskless engine, object_size 4m): both send their
# I/Os round robin to 16 objects.  rados bench writes -b sized ops
# into 4 MiB objects (-O).  rados bench rand can only read objects whole,
# so its randread row reads 4 KiB objects.
cases() {
  local r=$RADOBJS
  echo "rbd-randwrite-4k-qd16|write|--rw=randwrite --bs=4k|rw = \"randwrite\"; bs = \"4k\";|rbd write rand 4K"
  echo "rbd-randread-4k-qd16|read|--rw=randread --bs=4k|rw = \"randread\"; bs = \"4k\";|rbd read rand 4K"
  echo "rbd-seqwrite-64k-qd16|write|--rw=write --bs=64k|rw = \"write\"; bs = \"64k\";|rbd write seq 64K"
  echo "rados-write-4k-qd16|write|--rw=write --bs=4k $FIO_OBJS|rw = \"write\"; bs = \"4k\"; $r|rados write 4096"
  echo "rados-write-64k-qd16|write|--rw=write --bs=64k $FIO_OBJS|rw = \"write\"; bs = \"64k\"; $r|rados write 65536"
  echo "rados-randread-4k-qd16|read|--rw=randread --bs=4k $FIO_OBJS|rw = \"randread\"; bs = \"4k\"; $r|rados rand"
}
FIO_OBJS="--size=64m --nrfiles=16 --filename_format=iorig-bench-fio.\$filenum"

prepare() { # case: data the read cases need, written untimed
  case "$1" in
    rados-randread-4k-qd16)
      # shellcheck disable=SC2086
      fio --name=b "${RADF[@]}" --rw=write --bs=4m $FIO_OBJS --output=/dev/null >/dev/null 2>&1
      cat >"$TMP/prep.cfg" <<CFG
jobs = ( { name = "b"; $RADI rw = "write"; bs = "4m"; $RADOBJS } );
CFG
      "$IORIG" "$TMP/prep.cfg" >/dev/null
      rados -p "$POOL" bench "$RUNTIME" write -t 16 -b 4096 -O 4096 --no-cleanup >/dev/null 2>&1 ;;
  esac
}

native() { # tool args... ; ios from iorig
  local ios=$1; shift
  case "$1" in
    rbd) run_rbd_bench "$2" "$3" "$4" "$ios" ;;
    rados) if [ "$2" = rand ]; then run_rados_bench rand ""; else
             run_rados_bench write "$3"; rados -p "$POOL" cleanup >/dev/null 2>&1; fi ;;
  esac
}

ORDERS=("fio iorig native" "iorig native fio" "native fio iorig"
        "native iorig fio" "fio native iorig" "iorig fio native")
echo "vs-ceph: runtime ${RUNTIME}s per tool, median of $ROUNDS rounds in rotating order,"
echo "         image $POOL/$IMG ($SIZE), CEPH_ARGS=$CEPH_ARGS"
printf '%-24s %-12s %9s %9s %10s %9s %9s %9s\n' case tool IOPS MiB/s p99-us \
  "iorig/fio" "iorig/nat" "p99 i/f"
want=("$@")
cases | while IFS='|' read -r name ddir fargs iopts nat; do
  if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then continue; fi
  prepare "$name"
  case "$name" in rbd-*) F=("${RBDF[@]}"); I=$RBDI ;; *) F=("${RADF[@]}"); I=$RADI ;; esac
  : >"$TMP/res"
  ios=0
  for round in $(seq 1 "$ROUNDS"); do
    order=${ORDERS[$(( (round - 1) % 6 ))]}
    for tool in $order; do
      # $fargs and $nat are word lists: split on purpose.
      # rbd bench runs a number of I/Os: about what iorig did in RUNTIME.
      # shellcheck disable=SC2086
      case $tool in
        fio) r=$(run_fio "$ddir" "${F[@]}" $fargs) || r="0 0 - 0" ;;
        iorig) r=$(run_iorig "$ddir" "$I $iopts") || r="0 0 - 0"
               ios=$(echo "$r" | cut -d' ' -f4) ;;
        native) [ "$ios" -gt 0 ] || ios=$(( 2000 * RUNTIME ))
                r=$(native "$ios" $nat) || r="0 0 - 0" ;;
      esac
      echo "$tool $r" >>"$TMP/res"
    done
  done
  python3 - "$name" "$TMP/res" "${nat%% *}-bench" <<'PY'
import sys
name, res, nat = sys.argv[1:]
runs = {}
for line in open(res):
    tool, iops, bw, p99, _ = line.split()
    runs.setdefault(tool, []).append((iops, bw, p99))
def median(t):
    v = sorted(runs.get(t, [("0", "0", "-")]), key=lambda x: float(x[0]))
    return v[(len(v) - 1) // 2]
f, i, n = (median(t) for t in ("fio", "iorig", "native"))
def r(a, b):
    try:
        return f"{float(a) / float(b):9.2f}"
    except (ValueError, ZeroDivisionError):
        return f"{'-':>9}"
def p(v):
    return f"{float(v):10.0f}" if v != "-" else f"{'-':>10}"
print(f"{name:<24} {'fio':<12} {float(f[0]):9.0f} {float(f[1]):9.1f} {p(f[2])}")
print(f"{'':<24} {'iorig':<12} {float(i[0]):9.0f} {float(i[1]):9.1f} {p(i[2])} "
      f"{r(i[0], f[0])} {r(i[0], n[0])} {r(i[2], f[2])}")
print(f"{'':<24} {nat:<12} {float(n[0]):9.0f} {float(n[1]):9.1f} {p(n[2])}", flush=True)
PY
done
