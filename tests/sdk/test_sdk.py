#!/usr/bin/env python3
"""SDK tests: test engines, the conformance checker, the installed SDK, the .deb.

Usage: test_sdk.py TEST_NAME   (exit 0 pass, 1 fail, 77 skip)
Environment (set by CMakeLists.txt): IORIG, IORIG_SRC, IORIG_BUILD,
IORIG_PLUGIN_DIR, SDK_ENGINES, FAULTY, CHECK_DRIVER, CC, CMAKE, CPACK, WORK.
"""
import glob
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from iorig_test import Skip, check, main, run_jobfile, sh, write_file  # noqa: E402

ENV = os.environ
SRC = ENV.get("IORIG_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
ENTRY = "iorig_engine_entry"


def ok(args, what, **kw):
    p = sh(args, **kw)
    check(p.returncode == 0, f"{what}: exit {p.returncode}\n$ {' '.join(args)}\n"
          f"{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
    return p


def run_job(tmp, text, expect_rc=0, iorig=None, extra=(), env=None, name="job.cfg"):
    """(report or None, process) of iorig (or the binary iorig) on job file text."""
    return run_jobfile(tmp, text, expect_rc, name, args=extra, need_report=False, iorig=iorig,
                       env=env, timeout=300)


def engine(name):
    return os.path.join(ENV["SDK_ENGINES"], name + ".so")


def read_report(path):
    out = {}
    for line in open(path):
        k, _, v = line.rstrip("\n").partition("=")
        out[k] = v
    return out


def exports(so):
    p = ok(["nm", "-D", "--defined-only", so], f"nm {so}")
    return sorted(l.split()[-1] for l in p.stdout.splitlines() if l.strip())


# ---- the probe engine: every op and option type ------------------------------

def probe_job(tmp, opts, job_extra="", size="1m"):
    rep = os.path.join(tmp, "report.txt")
    data = os.path.join(tmp, "probe.dat")
    text = (f'jobs = ( {{ name = "p"; ioengine = "{engine("sdk_probe")}"; filename = "{data}"; '
            f'size = "{size}"; report = "{rep}"; {job_extra} {opts} }} );')
    return text, rep, data


def t_probe_options(tmp):
    """Every option type arrives with the value the job file gave."""
    opts = ('engine_options = { flag = true; count = -42; offset_adj = -9000000000L; '
            'chunk = "256k"; delay = "1.5ms"; label = "hello world"; mode = "GAMMA"; };')
    text, rep, _ = probe_job(tmp, opts)
    run_job(tmp, text)
    r = read_report(rep)
    want = {"opt.flag": "1", "opt.count": "-42", "opt.offset_adj": "-9000000000",
            "opt.chunk": str(256 << 10), "opt.delay": "1500000", "opt.label": "hello world",
            "opt.mode": "gamma", "opt.report": rep, "opt.fail_at": "0"}
    for k, v in want.items():
        check(r.get(k) == v, f"{k}: engine received {r.get(k)!r}, job said {v!r}")
    # The same options in global, written as plain strings, bind the same way.
    text = (f'global = {{ flag = "yes"; count = "100"; chunk = "1m"; delay = "10s"; '
            f'mode = "alpha"; }};\n' + text.replace(opts, ""))
    run_job(tmp, text, name="g.cfg")
    r = read_report(rep)
    for k, v in {"opt.flag": "1", "opt.count": "100", "opt.chunk": str(1 << 20),
                 "opt.delay": "10000000000", "opt.mode": "alpha"}.items():
        check(r.get(k) == v, f"global {k}: engine received {r.get(k)!r}, expected {v!r}")
    print("bool, int (ranged and not), size, duration, string and enum values arrive")


def t_probe_defaults(tmp):
    """Without engine options the engine gets its declared defaults."""
    text, rep, _ = probe_job(tmp, "")
    run_job(tmp, text)
    r = read_report(rep)
    want = {"opt.flag": "0", "opt.count": "7", "opt.offset_adj": "-5",
            "opt.chunk": "65536", "opt.delay": "1000000", "opt.label": "probe-default",
            "opt.mode": "beta", "opt.fail_at": "0"}
    for k, v in want.items():
        check(r.get(k) == v, f"default {k}: engine received {r.get(k)!r}, declared {v!r}")
    check(r["host.abi"] == "1.0" and int(r["host.struct_size"]) >= 48,
          f"host: {r['host.abi']}, {r['host.struct_size']}")
    print("defaults arrive; host ABI", r["host.abi"])


def t_probe_ops(tmp):
    """Each op is called as the job asks, and job info matches the job."""
    text, rep, _ = probe_job(tmp, "", 'rw = "randrw"; iodepth = 8; bs = "8k"; fsync = 16; '
                             'end_fsync = true; iodepth_batch_submit = 4;', size="2m")
    doc, _ = run_job(tmp, text)
    j = doc["jobs"][0]
    r = {k: v for k, v in read_report(rep).items()}
    calls = {k[6:]: int(v) for k, v in r.items() if k.startswith("calls.")}
    reads, writes = j["read"]["total_ios"], j["write"]["total_ios"]
    check(reads > 0 and writes > 0, f"randrw did {reads} reads, {writes} writes")
    check(calls["queue_read"] == reads and calls["queue_write"] == writes,
          f"queue calls {calls['queue_read']}/{calls['queue_write']} vs report {reads}/{writes}")
    check(calls["reaped"] == reads + writes, f"reaped {calls['reaped']} of {reads + writes}")
    check(calls["reap"] > 0 and calls["commit"] > 0, f"reap/commit not called: {calls}")
    check(calls["fsync"] >= 2, f"fsync=16 with {writes} writes: {calls['fsync']} fsyncs")
    check(calls["init"] == 1 and calls["open_file"] == 1 and calls["close_file"] == 1 and
          calls["cleanup"] == 1, f"lifecycle calls: {calls}")
    check(int(r["bytes.read"]) == j["read"]["io_bytes"] and
          int(r["bytes.write"]) == j["write"]["io_bytes"], "bytes moved disagree with the report")
    check(r["job.iodepth"] == "8" and r["job.nr_ios"] == "8" and r["job.max_bs"] == "8192" and
          r["job.batch_submit"] == "4" and r["job.nr_files"] == "1" and r["job.name"] == "p",
          f"job info: {r}")
    flags = int(r["job.flags"])
    check(flags & 1 and flags & 2 and flags & 16 and not flags & 4,
          f"job flags {flags:#x}: expected READS|WRITES|RANDOM")
    check(int(r["job.buf_align"]) >= 4096 and r["buf_misaligned"] == "0",
          f"buffers: align {r['job.buf_align']}, misaligned {r['buf_misaligned']}")
    check(r["priv_bad"] == "0", "io->priv was not per-I/O engine scratch, or file->engine_file was lost")
    # Invalidate: the core drops caches of the files before I/O (invalidate=1 default).
    text2 = text.replace("fsync = 16;", "invalidate = true;")
    run_job(tmp, text2, name="inv.cfg")
    r = read_report(rep)
    check(int(r["calls.invalidate"]) >= 1, f"invalidate=1: invalidate called {r['calls.invalidate']}x")
    # fdatasync=N calls the op with datasync != 0.
    text3 = text.replace("fsync = 16;", "fdatasync = 16;").replace("end_fsync = true;", "")
    run_job(tmp, text3, name="fds.cfg")
    r = read_report(rep)
    check(int(r["calls.fdatasync"]) >= 1 and r["calls.fsync"] == "0",
          f"fdatasync=16: fdatasync {r['calls.fdatasync']}x, fsync {r['calls.fsync']}x")
    print(f"{reads} reads, {writes} writes, {calls['reap']} reaps, {calls['commit']} commits, "
          f"{calls['fsync']} fsyncs; invalidate and fdatasync reached the engine")


def t_probe_busy(tmp):
    """An engine that answers BUSY gets the same I/O again: with the random map
    every block is still written exactly once, and nothing is lost or doubled."""
    text, rep, data = probe_job(tmp, "busy_every = 3;", 'rw = "randwrite"; iodepth = 4; bs = "4k";',
                                size="1m")
    doc, _ = run_job(tmp, text)
    w = doc["jobs"][0]["write"]
    r = read_report(rep)
    check(int(r["calls.busy"]) > 10, f"the engine was busy only {r['calls.busy']}x")
    check(w["total_ios"] == 256 and int(r["calls.queue_write"]) == 256,
          f"{w['total_ios']} writes reported, {r['calls.queue_write']} accepted, for 256 blocks")
    st = os.stat(data)
    check(st.st_blocks * 512 >= 1 << 20, f"a block was skipped: {st.st_blocks * 512} bytes allocated")
    print(f"{r['calls.busy']} busy answers, 256 blocks written once each")


def t_probe_get_size(tmp):
    """No size= with a diskless engine: the core asks get_size and uses the answer."""
    data = os.path.join(tmp, "sized.dat")
    with open(data, "wb") as f:
        f.write(os.urandom(3 << 20))
    rep = os.path.join(tmp, "report.txt")
    doc, _ = run_job(tmp, f'jobs = ( {{ name = "s"; ioengine = "{engine("sdk_probe_diskless")}"; '
                     f'filename = "{data}"; rw = "read"; report = "{rep}"; }} );')
    r = read_report(rep)
    check(int(r["calls.get_size"]) >= 1, "get_size was not called")
    check(doc["jobs"][0]["read"]["io_bytes"] == 3 << 20 and r["bytes.read"] == str(3 << 20),
          f"read {doc['jobs'][0]['read']['io_bytes']} bytes of a 3 MiB target")
    print("get_size called; the job read the whole 3 MiB the engine reported")


def t_probe_trim(tmp):
    """rw=trim reaches queue() as IORIG_DDIR_TRIM."""
    text, rep, data = probe_job(tmp, "", 'rw = "trim"; bs = "64k";')
    doc, _ = run_job(tmp, text)
    r = read_report(rep)
    n = doc["jobs"][0]["trim"]["total_ios"]
    check(n == 16 and r["calls.queue_trim"] == "16" and r["bytes.trim"] == str(1 << 20),
          f"trims: report {n}, engine {r['calls.queue_trim']}, bytes {r['bytes.trim']}")
    print("16 trims reached the engine")


def t_probe_numjobs(tmp):
    """numjobs=3: three states, each with its own instance number, all cleaned up."""
    text, rep, _ = probe_job(tmp, 'numjobs = 3; count = 3;')
    run_job(tmp, text)
    for i in range(3):
        path = rep if i == 0 else f"{rep}.{i}"
        check(os.path.exists(path), f"instance {i} wrote no report")
        r = read_report(path)
        check(r["job.instance"] == str(i) and r["calls.cleanup"] == "1" and r["opt.count"] == "3",
              f"instance {i}: {r['job.instance']}, cleanup {r['calls.cleanup']}")
    print("3 instances, 3 states")


def t_probe_bad_options(tmp):
    """Bad engine option values stop the run with exit 2 and name the option."""
    cases = [("count = 101;", "count", "-100 .. 100"),
             ('mode = "delta";', "mode", "alpha"),
             ('chunk = "1k";', "chunk", "out of range"),
             ('flag = "maybe";', "flag", "boolean"),
             ('delay = "abc";', "delay", "duration"),
             ('fail_at = -1;', "fail_at", "out of range"),
             ('countt = 3;', "countt", "count")]
    for i, (opt, name, hint) in enumerate(cases):
        text, _, _ = probe_job(tmp, opt)
        _, p = run_job(tmp, text, expect_rc=2, name=f"bad{i}.cfg")
        check(f"'{name}'" in p.stderr and hint in p.stderr,
              f"{opt}: message does not name '{name}' with '{hint}':\n{p.stderr}")
    print(f"{len(cases)} bad values refused with the option named")


def t_probe_fail(tmp):
    """An engine's set_error message reaches the user, and the run exits 1."""
    text, rep, _ = probe_job(tmp, "fail_at = 5;")
    doc, p = run_job(tmp, text, expect_rc=1)
    check("probe: failing I/O #5" in p.stderr and "fail_at=5" in p.stderr,
          f"engine message missing:\n{p.stderr}")
    check(doc["jobs"][0]["error"] == 5, f"JSON error {doc['jobs'][0]['error']}, expected EIO (5)")
    check(read_report(rep)["calls.cleanup"] == "1", "cleanup not called after the failure")
    print("exit 1 with the engine's message; cleanup still called")


# ---- the example engine, from the build tree ------------------------------------

def faulty_cfg(tmp, so, opts, rw="randread", extra=""):
    data = os.path.join(tmp, "faulty.dat")
    return (f'jobs = ( {{ name = "f"; ioengine = "{so}"; filename = "{data}"; size = "4m"; '
            f'rw = "{rw}"; io_size = "1m"; {extra} {opts} }} );')


def pct(clat, p):
    return clat["percentile"][f"{p:.6f}"]


def check_faulty_latency(tmp, so, iorig=None, extra=()):
    # Sleeps only ever overshoot, by a lot on a loaded machine: the checks
    # use the minimum and percentiles, and loose upper bounds.
    doc, _ = run_job(tmp, faulty_cfg(tmp, so, 'latency = "2ms";'), iorig=iorig, extra=extra,
                     name="lat.cfg")
    clat = doc["jobs"][0]["read"]["clat_ns"]
    check(2_000_000 <= clat["min"] and 2_000_000 <= pct(clat, 50) < 8_000_000,
          f"latency=2ms: clat min {clat['min']} p50 {pct(clat, 50)} ns")
    # Uniform in 2..4 ms: the median near 3 ms (a fixed 2 ms gives ~2.1).
    doc, _ = run_job(tmp, faulty_cfg(tmp, so, 'latency = "2ms"; latency_max = "4ms";'),
                     iorig=iorig, extra=extra, name="lat2.cfg")
    clat = doc["jobs"][0]["read"]["clat_ns"]
    check(2_000_000 <= clat["min"] and 2_600_000 <= pct(clat, 50) <= 8_000_000 and
          pct(clat, 90) >= 3_400_000,
          f"latency 2..4ms: clat min {clat['min']} p50 {pct(clat, 50)} p90 {pct(clat, 90)} ns")
    doc, _ = run_job(tmp, faulty_cfg(tmp, so, 'latency = "2ms"; on = "write";', rw="randrw"),
                     iorig=iorig, extra=extra, name="lat3.cfg")
    j = doc["jobs"][0]
    check(pct(j["read"]["clat_ns"], 50) < 1_000_000 <= 2_000_000 <= j["write"]["clat_ns"]["min"],
          f"on=write: read p50 {pct(j['read']['clat_ns'], 50)}, write min "
          f"{j['write']['clat_ns']['min']}")
    return clat


def check_faulty_errors(tmp, so, iorig=None, extra=()):
    doc, p = run_job(tmp, faulty_cfg(tmp, so, "error_every = 10;", rw="write"), expect_rc=1,
                     iorig=iorig, extra=extra, name="err.cfg")
    check("faulty: injected EIO on write #10" in p.stderr, f"message:\n{p.stderr}")
    check(doc["jobs"][0]["error"] == 5 and doc["jobs"][0]["write"]["total_ios"] == 9,
          f"error {doc['jobs'][0]['error']}, {doc['jobs'][0]['write']['total_ios']} writes done")
    doc, p = run_job(tmp, faulty_cfg(tmp, so, 'error_ppm = 1000000; error_code = "ENOSPC"; '
                                     'on = "read";'), expect_rc=1, iorig=iorig, extra=extra,
                     name="err2.cfg")
    check("injected ENOSPC on read #1" in p.stderr and doc["jobs"][0]["error"] == 28,
          f"error_ppm=1000000: {doc['jobs'][0]['error']}\n{p.stderr}")
    _, p = run_job(tmp, faulty_cfg(tmp, so, "fail_fsync = true;", rw="write", extra="fsync = 8;"),
                   expect_rc=1, iorig=iorig, extra=extra, name="err3.cfg")
    # The engine's own message reaches the user.
    check("injected EIO on fsync" in p.stderr and "fail_fsync=1" in p.stderr,
          f"fail_fsync:\n{p.stderr}")
    # Refused by the engine's init: a run-time error for the core (exit 1).
    _, p = run_job(tmp, faulty_cfg(tmp, so, 'latency = "5ms"; latency_max = "1ms";'),
                   expect_rc=1, iorig=iorig, extra=extra, name="err4.cfg")
    check("latency_max" in p.stderr, f"latency_max < latency not refused clearly:\n{p.stderr}")


def t_faulty_latency(tmp):
    """faulty's injected latency shows in the JSON completion latency."""
    clat = check_faulty_latency(tmp, ENV["FAULTY"])
    print(f"latency 2..4ms: clat p50 {pct(clat, 50) / 1e6:.2f} ms")


def t_faulty_errors(tmp):
    """faulty's injected errors fail the job with exit 1 and its message."""
    check_faulty_errors(tmp, ENV["FAULTY"])
    print("error_every, error_ppm with error_code, fail_fsync: exit 1 with the message")


# ---- the conformance checker ------------------------------------------------------

def checker(tmp, target, *args):
    env = dict(ENV, TMPDIR=ENV.get("IORIG_CHECK_DIR", "/var/tmp"))
    return sh([ENV["CHECK_DRIVER"], *args, target], env=env, timeout=600)


# Shipped engines that cannot run here with their default options.
NEEDS_SETUP = {"rados": "needs a Ceph cluster and pool=",
               "rbd": "needs a Ceph cluster, pool= and image="}


def t_check_shipped(tmp):
    """Every shipped engine and the example pass the conformance checker."""
    engines = sorted(glob.glob(os.path.join(ENV["IORIG_PLUGIN_DIR"], "*.so"))) + [ENV["FAULTY"]]
    for so in engines:
        name = os.path.basename(so)[:-3]
        if name in NEEDS_SETUP:
            print(f"{name}: not checked, {NEEDS_SETUP[name]}")
            continue
        p = checker(tmp, so)
        check(p.returncode == 0, f"{so} fails the conformance checker:\n{p.stdout}\n{p.stderr}")
        summary = p.stdout.strip().splitlines()[-1]
        check(summary.startswith("OK:") and "FAIL" not in p.stdout, p.stdout)
        print(f"{os.path.basename(so)}: {summary}")
    p = checker(tmp, os.path.join(ENV["IORIG_PLUGIN_DIR"], "null.so"))
    check("SKIP  data: diskless" in p.stdout, "null: data checks not reported as skipped")


def t_check_probe(tmp):
    """The probe and the correct variant of the broken engine pass, with every data check."""
    for so in (engine("sdk_probe"), engine("broken_none")):
        p = checker(tmp, so)
        check(p.returncode == 0, f"{so}:\n{p.stdout}")
        for step in ("qd1 seq-read", "qd1 seq-write", "qd1 rand-write", "qd1 rand-read",
                     "qd16 rand-read", "qd16 burst", "read-only-qd16 rand-read"):
            check(f"PASS  {step}:" in p.stdout, f"{so}: no PASS for {step}:\n{p.stdout}")
    p = checker(tmp, engine("sdk_probe"))
    for step in ("qd1 fsync", "qd1 invalidate", "qd1 get_size", "qd1 trim"):
        check(f"PASS  {step}:" in p.stdout, f"probe: no PASS for {step}:\n{p.stdout}")
    print("probe and broken_none pass every check")


def t_check_unusable(tmp):
    """A file that is not an engine: exit 2 with the loader's reason."""
    p = checker(tmp, os.path.join(tmp, "nosuch.so"))
    check(p.returncode == 2 and "FAIL  load:" in p.stdout and "nosuch.so" in p.stdout, p.stdout)
    p = checker(tmp, ENV["FAULTY"], "-o", "latency=banana")
    check(p.returncode == 2 and "latency" in p.stdout, p.stdout)
    print("unloadable engine and bad option: exit 2 with the reason")


def t_check_faulty_errors(tmp):
    """faulty with errors injected fails the checker, with its message."""
    p = checker(tmp, ENV["FAULTY"], "-o", "error_every=300")
    check(p.returncode == 1 and "FAIL  qd1 seq-read: read of 4096 bytes at offset 1224704 failed"
          in p.stdout and "injected EIO" in p.stdout, p.stdout)
    print("error_every=300: the 300th read fails the check with faulty's message")


def t_check_cli(tmp):
    """`iorig engines --check` runs the checker: 0 pass, 1 fail, 2 not loadable."""
    p = sh([ENV["IORIG"], "engines", "--check", ENV["FAULTY"]], timeout=600)
    if p.returncode == 2 and "--check" in p.stderr:
        raise Skip("this iorig has no `engines --check` yet (core/main.c, core/cmdline.c)")
    check(p.returncode == 0 and p.stdout.strip().splitlines()[-1].startswith("OK:"),
          f"iorig engines --check faulty: exit {p.returncode}\n{p.stdout}{p.stderr}")
    p = sh([ENV["IORIG"], "engines", "--check", engine("broken_offset")], timeout=600)
    check(p.returncode == 1 and "data at the wrong offset" in p.stdout, p.stdout)
    p = sh([ENV["IORIG"], "engines", "--check", os.path.join(tmp, "nosuch.so")])
    check(p.returncode == 2 and "FAIL  load:" in p.stdout, p.stdout + p.stderr)
    print("iorig engines --check: exit 0, 1 and 2 as documented")


def expect_broken(tmp, name, patterns):
    p = checker(tmp, engine(name))
    check(p.returncode == 1, f"{name}: checker exit {p.returncode}, expected 1:\n{p.stdout}")
    for pat in patterns:
        check(re.search(pat, p.stdout), f"{name}: no line matching {pat!r}:\n{p.stdout}")
    print(f"{name}: " + "; ".join(l for l in p.stdout.splitlines() if l.startswith("FAIL"))[:400])


def t_check_broken_count(tmp):
    """reap reporting more completions than it stored is caught."""
    expect_broken(tmp, "broken_count", [r"FAIL  qd1 seq-read: reap\(max=1\) returned 2.*wrong "
                                        r"completion count",
                                        r"FAIL  qd16 seq-read: .*wrong completion count"])


def t_check_broken_lost(tmp):
    """A queued I/O that never comes back from reap is caught."""
    expect_broken(tmp, "broken_lost", [r"FAIL  qd1 seq-read: lost completions: 1 queued",
                                       r"FAIL  qd16 seq-read: lost completions"])


def t_check_broken_offset(tmp):
    """I/O at the wrong offset is caught and the offset named."""
    expect_broken(tmp, "broken_offset", [r"FAIL  qd1 seq-read: read of 4096 bytes at offset 0: "
                                         r"holds the data of offset 4096, not 0 \(data at the "
                                         r"wrong offset\)"])


def t_check_broken_unaligned(tmp):
    """I/O through a shifted, unaligned buffer is caught, buffered and with O_DIRECT."""
    pats = [r"FAIL  qd1 seq-read: .*wrote 1 byte\(s\) past the end of io->buf \(unaligned"]
    p = checker(tmp, engine("broken_unaligned"))
    if "PASS  direct" in p.stdout or "FAIL  direct" in p.stdout:
        pats.append(r"FAIL  direct-qd16 seq-read: .*failed: Invalid argument .*unaligned buffer use")
    expect_broken(tmp, "broken_unaligned", pats)


def t_check_broken_crash(tmp):
    """An engine that crashes is reported with the step, and the checker goes on."""
    # A sanitizer build turns the SIGSEGV into its own report and abort().
    expect_broken(tmp, "broken_crash", [r"FAIL  qd1 seq-read: the engine crashed: signal (11|6 \(Aborted\))",
                                        r"FAIL  qd16 seq-read: the engine crashed"])


def t_check_broken_options(tmp):
    """Options the loader accepts but users could never use right are caught."""
    expect_broken(tmp, "broken_options", [
        r"FAIL  options: option 'bs' has the name of a core option",
        r"FAIL  options: option 'depth' has no default, so it is 0, outside its range 1..64"])


# ---- the installed SDK, out of tree ----------------------------------------------

def find_one(root, pattern, what):
    hits = sorted(glob.glob(os.path.join(root, pattern), recursive=True))
    check(hits, f"{what}: nothing matches {pattern} under {root}")
    return hits[0]


def t_installed_sdk(tmp):
    """cmake --install; build the example from the installed copy (pkg-config and
    find_package); run jobs through it with the installed iorig."""
    if not shutil.which("pkg-config"):
        raise Skip("pkg-config not installed")
    prefix = os.path.join(tmp, "prefix")
    ok([ENV["CMAKE"], "--install", ENV["IORIG_BUILD"], "--prefix", prefix], "cmake --install")
    iorig = os.path.join(prefix, "bin", "iorig")
    plugindir = find_one(prefix, "lib*/**/iorig/engines", "engine directory")
    for e in ("null", "psync", "faulty"):
        check(os.path.exists(os.path.join(plugindir, e + ".so")), f"{e}.so not installed")
    header = os.path.join(prefix, "include", "iorig", "engine.h")
    check(open(header).read() == open(os.path.join(SRC, "sdk/include/iorig/engine.h")).read(),
          "installed engine.h differs from sdk/include/iorig/engine.h")
    pc = find_one(prefix, "lib*/**/pkgconfig/iorig-engine.pc", "pkg-config file")
    cmakedir = os.path.dirname(find_one(prefix, "lib*/**/IorigEngineConfig.cmake", "CMake package"))
    find_one(prefix, "lib*/**/IorigEngineConfigVersion.cmake", "CMake package version")
    find_one(prefix, "share/man/man1/iorig.1", "man page")
    for doc in ("engine-abi.md", "job-file.md"):
        find_one(prefix, f"share/doc/iorig/{doc}", "docs")
    example = os.path.dirname(find_one(prefix, "share/doc/iorig/examples/faulty/faulty.c", "example"))

    # pkg-config, relocated to this prefix.
    penv = dict(ENV, PKG_CONFIG_PATH=os.path.dirname(pc))
    var = lambda v: ok(["pkg-config", f"--variable={v}", "iorig-engine"], v, env=penv).stdout.strip()
    check(os.path.realpath(var("plugindir")) == os.path.realpath(plugindir),
          f"plugindir {var('plugindir')} is not {plugindir}")
    abi = re.findall(r"#define IORIG_ABI_(?:MAJOR|MINOR) (\d+)", open(header).read())
    check(var("abi_version") == ".".join(abi), f"abi_version {var('abi_version')}, header {abi}")
    version = ok([iorig, "--version"], "iorig --version").stdout.split()[1]
    modv = ok(["pkg-config", "--modversion", "iorig-engine"], "modversion", env=penv).stdout.strip()
    check(modv == version, f"pkg-config version {modv}, iorig {version}")

    # One command, exactly as documented, from the installed example.
    so1 = os.path.join(tmp, "faulty-pc.so")
    ok(["sh", "-c", f'{ENV.get("CC", "cc")} -O2 -Wall -Wextra -Werror -shared -fPIC '
        f'$(pkg-config --cflags iorig-engine) "{example}/faulty.c" -o "{so1}"'],
       "cc with pkg-config", env=penv)
    check(exports(so1) == [ENTRY], f"pkg-config build exports {exports(so1)}")

    # A few lines of CMake: the installed example's own CMakeLists.txt.
    bdir, iprefix = os.path.join(tmp, "cmbuild"), os.path.join(tmp, "cmprefix")
    ok([ENV["CMAKE"], "-S", example, "-B", bdir, f"-DCMAKE_PREFIX_PATH={prefix}",
        f"-DCMAKE_INSTALL_PREFIX={iprefix}"], "configure with find_package(IorigEngine)")
    ok([ENV["CMAKE"], "--build", bdir], "build the example with CMake")
    ok([ENV["CMAKE"], "--install", bdir], "install the example engine")
    so2 = find_one(iprefix, "lib*/**/iorig/engines/faulty.so", "CMake-installed engine")
    check(exports(so2) == [ENTRY], f"CMake build exports {exports(so2)}")
    # Another ABI major: find_package must refuse the SDK.
    os.makedirs(os.path.join(tmp, "major"))
    write_file(os.path.join(tmp, "major", "CMakeLists.txt"),
               "cmake_minimum_required(VERSION 3.18)\n"
               "project(m C)\nfind_package(IorigEngine 2.0 REQUIRED)\n")
    p = sh([ENV["CMAKE"], "-S", os.path.join(tmp, "major"), "-B", os.path.join(tmp, "majorb"),
            f"-DCMAKE_PREFIX_PATH={prefix}"])
    check(p.returncode != 0 and "IorigEngine" in p.stderr,
          f"find_package(IorigEngine 2.0) accepted an ABI {'.'.join(abi)} SDK")

    # The installed iorig, engines from the installed tree plus ours first.
    extra = ["--plugin-dir", os.path.dirname(so2), "--plugin-dir", plugindir]
    p = ok([iorig, "engines", *extra], "installed iorig engines")
    check(re.search(r"^faulty .*" + re.escape(so2), p.stdout, re.M) and
          re.search(r"^psync .*" + re.escape(os.path.realpath(plugindir)), p.stdout, re.M),
          f"engines from the prefixes not listed:\n{p.stdout}")
    check_faulty_latency(tmp, so1, iorig=iorig, extra=extra)
    check_faulty_errors(tmp, "faulty", iorig=iorig, extra=extra)
    print(f"installed to {prefix}; example built with pkg-config and with find_package; "
          "latency and errors injected through the installed iorig")


# ---- the Debian packages -------------------------------------------------------

def t_package(tmp):
    """cpack -G DEB: iorig and iorig-dev .debs with the right files; a job runs
    from the extracted package."""
    if not shutil.which("dpkg-deb"):
        raise Skip("dpkg-deb not installed")
    build = os.path.join(tmp, "build")
    ok([ENV["CMAKE"], "-S", SRC, "-B", build, "-DCMAKE_INSTALL_PREFIX=/usr",
        "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], "configure for /usr", timeout=600)
    ok([ENV["CMAKE"], "--build", build, f"-j{os.cpu_count() or 2}"], "build", timeout=1200)
    ok([ENV["CPACK"], "-G", "DEB"], "cpack -G DEB", cwd=build, timeout=600)
    debs = sorted(glob.glob(os.path.join(build, "*.deb")))
    names = {os.path.basename(d).split("_")[0]: d for d in debs}
    check(set(names) == {"iorig", "iorig-dev"}, f"packages made: {debs}")

    def contents(deb):
        p = ok(["dpkg-deb", "-c", deb], f"dpkg-deb -c {deb}")
        # "mode owner size date time ./path[ -> target]"
        return [l.split(None, 5)[5].split(" -> ")[0] for l in p.stdout.splitlines() if l.strip()]

    run, dev = contents(names["iorig"]), contents(names["iorig-dev"])
    need_run = [r"\./usr/bin/iorig$", r"\./usr/lib/.*iorig/engines/null\.so$",
                r"\./usr/lib/.*iorig/engines/psync\.so$", r"\./usr/lib/.*iorig/engines/faulty\.so$",
                r"\./usr/share/man/man1/iorig\.1", r"\./usr/share/doc/iorig/engine-abi\.md$"]
    need_dev = [r"\./usr/include/iorig/engine\.h$", r"\./usr/lib/.*pkgconfig/iorig-engine\.pc$",
                r"\./usr/lib/.*cmake/IorigEngine/IorigEngineConfig\.cmake$",
                r"\./usr/share/doc/iorig/examples/faulty/faulty\.c$"]
    for pats, files, deb in ((need_run, run, "iorig"), (need_dev, dev, "iorig-dev")):
        for pat in pats:
            check(any(re.search(pat, f) for f in files), f"{deb}.deb lacks {pat}:\n" +
                  "\n".join(files))
    check(not set(f for f in run if not f.endswith("/")) & set(f for f in dev if not f.endswith("/")),
          "a file is in both packages: they could not be installed together")
    info = ok(["dpkg-deb", "-I", names["iorig"]], "dpkg-deb -I").stdout
    check(re.search(r"Depends:.*libconfig", info), f"iorig.deb does not depend on libconfig:\n{info}")
    info = ok(["dpkg-deb", "-I", names["iorig-dev"]], "dpkg-deb -I").stdout
    check(re.search(r"Depends:.*iorig \(= ", info), f"iorig-dev.deb does not depend on iorig:\n{info}")

    # Extract (not install: the machine stays as it was) and run from there.
    root = os.path.join(tmp, "root")
    for d in debs:
        ok(["dpkg-deb", "-x", d, root], f"dpkg-deb -x {d}")
    shutil.rmtree(os.path.join(build, "plugins"))  # only the package's engines remain
    engines = find_one(root, "usr/lib/**/iorig/engines", "engines in the package")
    iorig = os.path.join(root, "usr", "bin", "iorig")
    env = dict(ENV, IORIG_PLUGIN_PATH=engines)
    p = ok([iorig, "engines"], "packaged iorig engines", env=env)
    check(re.search(r"^psync .*" + re.escape(engines), p.stdout, re.M), p.stdout)
    data = os.path.join(tmp, "pkg.dat")
    doc, _ = run_job(tmp, f'jobs = ( {{ name = "p"; ioengine = "psync"; filename = "{data}"; '
                     f'size = "4m"; rw = "randwrite"; }}, {{ name = "f"; ioengine = "faulty"; '
                     f'filename = "{data}"; size = "4m"; rw = "read"; latency = "1ms"; '
                     f'io_size = "256k"; stonewall = true; }} );', iorig=iorig, env=env)
    jobs = {j["jobname"]: j for j in doc["jobs"]}
    check(jobs["p"]["write"]["io_bytes"] == 4 << 20 and
          jobs["f"]["read"]["clat_ns"]["min"] >= 1_000_000, f"jobs: {doc['jobs']}")
    # The -dev package builds an engine (its .pc is relocatable).
    pc = os.path.dirname(find_one(root, "usr/lib/**/pkgconfig/iorig-engine.pc", "pc"))
    so = os.path.join(tmp, "pkg-faulty.so")
    ex = find_one(root, "usr/share/doc/iorig/examples/faulty/faulty.c", "example")
    ok(["sh", "-c", f'{ENV.get("CC", "cc")} -shared -fPIC $(pkg-config --cflags iorig-engine) '
        f'"{ex}" -o "{so}"'], "build against the extracted -dev package",
       env=dict(ENV, PKG_CONFIG_PATH=pc))
    print(f"{', '.join(os.path.basename(d) for d in debs)}: contents right; a psync and a "
          "faulty job ran from the extracted package")


if __name__ == "__main__":
    sys.exit(main(globals(), "iorig-sdk-", tmp_dir=ENV.get("WORK")))
