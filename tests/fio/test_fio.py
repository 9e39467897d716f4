#!/usr/bin/env python3
"""fio compatibility: fio command lines and INI job files run as they are.

The commands and the job file of issue 6 run shrunk (a test file instead of
a device, small sizes, short runtimes); parsed values are checked through
`iorig validate --show-jobs`, moved data through the JSON report.

Usage: test_fio.py TEST_NAME   (exit 0 pass, 1 fail, 77 skip)
Environment: IORIG (the binary), IORIG_PLUGIN_PATH (built engines).
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from iorig_test import (  # noqa: E402
    Skip, check, expect_exit, expect_ok, fail, main, need_direct, run, run_json, write_cfg)

PLUGINS = os.environ.get("IORIG_PLUGIN_PATH", "")
MiB = 1 << 20

ISSUE_JOB_FILE = """[global]
ioengine=libaio
iodepth=128
time_based
direct=1
thread=1
group_reporting
randrepeat=0
norandommap
numjobs=32
timeout=6000
runtime=120

[randread-4k]
rw=randread
bs=4k
filename=/dev/sdb
rwmixread=100
stonewall

[randwrite-4k]
rw=randwrite
bs=4k
filename=/dev/sdb
stonewall

[read-512k]
rw=read
bs=512k
filename=/dev/sdb
stonewall

[write-512k]
rw=write
bs=512k
filename=/dev/sdb
stonewall
"""


def ok(args, **kw):
    return expect_ok(run(args, **kw), "iorig " + " ".join(args))


def usage_error(args, *needles, **kw):
    """iorig must exit 2 with one error line containing every needle."""
    p = expect_exit(run(args, **kw), 2, "iorig " + " ".join(args))
    for n in needles:
        check(n in p.stderr, f"iorig {' '.join(args)}: '{n}' not in the message:\n{p.stderr}")
    return p


def show_jobs(args, **kw):
    """Parsed jobs from `iorig validate --show-jobs`: [{'name', 'group', key: value}]."""
    p = ok(["validate", "--show-jobs"] + list(args), **kw)
    jobs = []
    for line in p.stdout.splitlines():
        m = re.match(r"job (\d+) '(.*)' group (\d+)$", line)
        if m:
            jobs.append({"index": int(m[1]), "name": m[2], "group": int(m[3])})
        elif line.startswith("  ") and " = " in line:
            k, v = line.strip().split(" = ", 1)
            jobs[-1][k] = v
    check(jobs, f"no jobs shown:\n{p.stdout}")
    return jobs, p


def have_engine(name):
    return any(os.path.exists(os.path.join(d, name + ".so")) for d in PLUGINS.split(":") if d)


def need_engine(name):
    if not have_engine(name):
        raise Skip(f"engine {name} not built")


def make_file(path, size):
    with open(path, "wb") as f:
        f.write(os.urandom(size))


def notes(stderr):
    return [l for l in stderr.splitlines() if l.startswith("iorig: note:")]


# ---- the issue's four command lines ------------------------------------------

def t_cmd_write_512k(tmp):
    """fio -filename=F -direct=1 -iodepth 64 -thread -rw=write -ioengine=libaio -bs=512K
    -numjobs=8 -runtime=20 -group_reporting -name=test"""
    need_engine("libaio")
    need_direct(tmp)
    f = os.path.join(tmp, "F")
    make_file(f, 16 * MiB)
    args = ["-filename=" + f, "-direct=1", "-iodepth", "64", "-thread", "-rw=write",
            "-ioengine=libaio", "-bs=512K", "-numjobs=8", "-runtime=20", "-group_reporting",
            "-name=test"]
    jobs, _ = show_jobs(args)
    j = jobs[0]
    check(len(jobs) == 1 and j["name"] == "test", f"jobs {jobs}")
    expect = {"filename": f, "direct": "1", "iodepth": "64", "rw": "write",
              "ioengine": "libaio", "bs": "524288,524288,524288", "numjobs": "8",
              "runtime_ns": str(20 * 10**9), "group_reporting": "1", "time_based": "0"}
    for k, v in expect.items():
        check(j[k] == v, f"{k} = {j[k]}, expected {v}")
    doc, p = run_json(args)
    check(len(doc["jobs"]) == 1, f"{len(doc['jobs'])} report entries with group_reporting")
    r = doc["jobs"][0]
    check(r["jobname"] == "test" and r["groupid"] == 0 and r["error"] == 0, f"job {r['jobname']}")
    if "iorig" in r and "nr_jobs" in r["iorig"]:
        check(r["iorig"]["nr_jobs"] == 8, f"nr_jobs {r['iorig']['nr_jobs']}")
    # No size: each of the 8 jobs writes the whole 16 MiB file once.
    check(r["write"]["io_bytes"] == 8 * 16 * MiB, f"wrote {r['write']['io_bytes']}")
    check(r["write"]["total_ios"] == 8 * 16 * MiB // (512 << 10), f"ios {r['write']['total_ios']}")
    check(r["read"]["io_bytes"] == 0, "a write job read")
    n = notes(p.stderr)
    check(len(n) == 1 and "thread" in n[0], f"notes: {n}")


def t_cmd_randread_4k(tmp):
    """fio -filename=F -direct=1 -iodepth 1 -thread -rw=randread -ioengine=libaio -bs=4K
    -numjobs=1 -runtime=10 -group_reporting -name=test"""
    need_engine("libaio")
    need_direct(tmp)
    f = os.path.join(tmp, "F")
    make_file(f, 8 * MiB)
    args = ["-filename=" + f, "-direct=1", "-iodepth", "1", "-thread", "-rw=randread",
            "-ioengine=libaio", "-bs=4K", "-numjobs=1", "-runtime=10", "-group_reporting",
            "-name=test"]
    jobs, _ = show_jobs(args)
    j = jobs[0]
    for k, v in {"iodepth": "1", "rw": "randread", "bs": "4096,4096,4096",
                 "runtime_ns": str(10 * 10**9), "numjobs": "1"}.items():
        check(j[k] == v, f"{k} = {j[k]}, expected {v}")
    doc, _ = run_json(args, timeout=60)
    r = doc["jobs"][0]
    check(r["jobname"] == "test" and r["error"] == 0, f"job {r['jobname']} error {r['error']}")
    rd = r["read"]
    # Random map: every 4k block once, unless the 10 s runtime ended it first.
    check(0 < rd["io_bytes"] <= 8 * MiB and rd["io_bytes"] % 4096 == 0, f"read {rd['io_bytes']}")
    check(rd["total_ios"] * 4096 == rd["io_bytes"], f"ios {rd['total_ios']}")
    check(r["write"]["io_bytes"] == 0, "a read job wrote")


def t_cmd_randwrite_iotest(tmp):
    """fio -direct=1 -iodepth=128 -rw=randwrite -ioengine=libaio -bs=4k -size=1G -numjobs=1
    -runtime=10 -group_reporting -filename=iotest -name=Rand_Write_Testing  (size 16M)"""
    need_engine("libaio")
    need_direct(tmp)
    args = ["-direct=1", "-iodepth=128", "-rw=randwrite", "-ioengine=libaio", "-bs=4k",
            "-size=16M", "-numjobs=1", "-runtime=10", "-group_reporting", "-filename=iotest",
            "-name=Rand_Write_Testing"]
    jobs, _ = show_jobs(["-size=1G"] + args[:5] + args[6:], cwd=tmp)
    check(jobs[0]["size"] == str(1 << 30), f"-size=1G read as {jobs[0]['size']}")
    check(jobs[0]["iodepth"] == "128", f"iodepth {jobs[0]['iodepth']}")
    doc, _ = run_json(args, cwd=tmp)
    r = doc["jobs"][0]
    check(r["jobname"] == "Rand_Write_Testing" and r["error"] == 0, f"job {r['jobname']}")
    check(r["write"]["io_bytes"] == 16 * MiB, f"wrote {r['write']['io_bytes']}")
    check(os.path.getsize(os.path.join(tmp, "iotest")) == 16 * MiB, "iotest not 16 MiB in cwd")


def t_cmd_randrw_psync(tmp):
    """fio -filename=F -direct=1 -iodepth 1 -thread -rw=randrw -rwmixread=70 -ioengine=psync
    -bs=16k -size=1G -numjobs=4 -runtime=10 -group_reporting -name=mytest  (size 16M)"""
    need_direct(tmp)
    f = os.path.join(tmp, "F")
    make_file(f, 16 * MiB)
    args = ["-filename=" + f, "-direct=1", "-iodepth", "1", "-thread", "-rw=randrw",
            "-rwmixread=70", "-ioengine=psync", "-bs=16k", "-size=16M", "-numjobs=4",
            "-runtime=10", "-group_reporting", "-name=mytest"]
    jobs, _ = show_jobs(args)
    for k, v in {"rw": "randrw", "rwmixread": "70", "numjobs": "4", "ioengine": "psync",
                 "bs": "16384,16384,16384", "size": str(16 * MiB)}.items():
        check(jobs[0][k] == v, f"{k} = {jobs[0][k]}, expected {v}")
    doc, _ = run_json(args)
    check(len(doc["jobs"]) == 1, f"{len(doc['jobs'])} entries with group_reporting")
    r = doc["jobs"][0]
    rd, wr = r["read"]["io_bytes"], r["write"]["io_bytes"]
    check(rd + wr == 4 * 16 * MiB, f"read {rd} + write {wr} != 4 x 16 MiB")
    share = rd / (rd + wr)
    check(0.62 < share < 0.78, f"read share {share:.3f}, expected about 0.70")


# ---- command-line syntax -------------------------------------------------------

def t_cmd_value_forms(tmp):
    """--opt=val, -opt=val, -opt val, bare flags, -flag 0; globals before --name."""
    base = ["-ioengine=null", "-size=1m"]
    forms = [["--bs=8k"], ["-bs=8k"], ["-bs", "8k"], ["--bs", "8k"]]
    for form in forms:
        jobs, _ = show_jobs(base + form + ["-name=a"])
        check(jobs[0]["bs"] == "8192,8192,8192", f"{form}: bs {jobs[0]['bs']}")
    for form, want in [(["-direct"], "1"), (["-direct", "1"], "1"), (["-direct", "0"], "0"),
                       (["-direct=1"], "1"), (["--direct=0"], "0")]:
        jobs, _ = show_jobs(base + form + ["-name=a"])
        check(jobs[0]["direct"] == want, f"{form}: direct {jobs[0]['direct']}")
    # Bare flags, one after another, and a value starting with '-'-less text.
    jobs, _ = show_jobs(base + ["-time_based", "-norandommap", "-group_reporting",
                                "-refill_buffers", "-zero_buffers", "-runtime", "2",
                                "-rw", "randread", "-name", "a"])
    j = jobs[0]
    for k, v in {"time_based": "1", "norandommap": "1", "group_reporting": "1",
                 "runtime_ns": str(2 * 10**9), "rw": "randread"}.items():
        check(j[k] == v, f"{k} = {j[k]}, expected {v}")
    check(j["name"] == "a", f"-name a gave {j['name']}")
    # Options before the first --name are global; each --name starts a job;
    # --name=global goes back to global options for the jobs after it.
    jobs, _ = show_jobs(base + ["-rw=write", "-iodepth=2", "--name=a", "-bs=8k",
                                "--name=b", "-rw=read", "--name=global", "-iodepth=16",
                                "--name=c", "--stonewall"])
    by = {j["name"]: j for j in jobs}
    check(list(by) == ["a", "b", "c"], f"jobs {list(by)}")
    check(by["a"]["rw"] == "write" and by["a"]["bs"] == "8192,8192,8192", f"a {by['a']}")
    check(by["b"]["rw"] == "read" and by["b"]["bs"] == "4096,4096,4096", f"b {by['b']}")
    check(by["a"]["iodepth"] == "2" and by["b"]["iodepth"] == "2", "global iodepth")
    check(by["c"]["iodepth"] == "16" and by["c"]["rw"] == "write", f"c {by['c']}")
    check([j["group"] for j in jobs] == [0, 0, 1], f"groups {[j['group'] for j in jobs]}")
    # iorig's own flags mix with fio options anywhere.
    doc, _ = run_json(base + ["-rw=write", "--name=a", "--output-format=json", "-bs=64k"])
    check(doc["jobs"][0]["write"]["io_bytes"] == MiB, "mixed flags: wrong I/O")
    check(doc["jobs"][0]["write"]["total_ios"] == 16, "mixed flags: bs=64k not applied")
    # Per-direction values pass through: bs=4k,8k.
    jobs, _ = show_jobs(base + ["-bs=4k,8k", "-name=a"])
    check(jobs[0]["bs"] == "4096,8192,8192", f"bs=4k,8k gave {jobs[0]['bs']}")


def t_cmd_errors(tmp):
    """Unknown options get the closest name and the argument they came from; exit 2."""
    base = ["-ioengine=null", "-size=1m"]
    usage_error(base + ["-iodpeth=4", "-name=x"], "command line, argument 3 '-iodpeth=4'",
                "unknown option 'iodpeth'", "did you mean 'iodepth'")
    usage_error(base + ["-name=x", "-thred"], "argument 4 '-thred'", "did you mean 'thread'")
    usage_error(base + ["-name=x", "-rw=radnread"], "argument 4 '-rw=radnread'",
                "'radnread' is not valid")
    usage_error(base + ["-rw=read"], "no job given", "--name")
    usage_error(base + ["-name"], "--name needs a job name")
    usage_error(base + ["--parse-only", "-name=x"], "fio's --parse-only is not supported",
                "iorig validate")
    usage_error(base + ["-iodepth", "-name=x"], "option 'iodepth': a value is required")
    usage_error(base + ["-kb_base=1000", "-name=x"], "'1000' is not supported", "kb_base")
    usage_error(base + ["-fixedbufs=1", "-name=x"], "unknown option 'fixedbufs'",
                "engine 'null'")


def t_cmd_with_jobfile(tmp):
    """fio options with a job file: global defaults the file's settings override."""
    cfg = os.path.join(tmp, "j.cfg")
    with open(cfg, "w") as f:
        f.write('global = { ioengine = "null"; size = "1m"; };\n'
                'jobs = ( { name = "a"; bs = "8k"; } );\n')
    ini = os.path.join(tmp, "j.fio")
    with open(ini, "w") as f:
        f.write("[global]\nioengine=null\nsize=1m\n[a]\nbs=8k\n")
    for jf in (cfg, ini):
        jobs, _ = show_jobs(["-bs=64k", "-iodepth", "8", jf, "--output-format=json"])
        check(jobs[0]["bs"] == "8192,8192,8192", f"{jf}: the file's bs must win")
        check(jobs[0]["iodepth"] == "8", f"{jf}: command-line default iodepth not applied")
        usage_error(["-iodpeth=8", jf], "command line, argument 1 '-iodpeth=8'",
                    "did you mean 'iodepth'")
        usage_error(["--name=x", jf], "jobs cannot be given both")
    usage_error([cfg, ini], "give one job file")


def t_engine_option_first(tmp):
    """Engine options work before -ioengine (fio fails on --fixedbufs --ioengine=io_uring)."""
    f = os.path.join(tmp, "F")
    make_file(f, 4 * MiB)
    tried = []
    for engine, opt in (("io_uring", "fixedbufs"), ("libaio", "userspace_reap")):
        if not have_engine(engine):
            continue
        args = ["--" + opt, "--ioengine=" + engine, "-filename=" + f, "-rw=read", "-bs=64k",
                "--name=e"]
        jobs, _ = show_jobs(args)
        check(jobs[0]["engine." + opt] == "1", f"{opt} not set: {jobs[0]}")
        jobs, _ = show_jobs(["--" + opt, "0", "--ioengine", engine, "-filename=" + f,
                             "--name=e"])
        check(jobs[0]["engine." + opt] == "0", f"--{opt} 0 not read as false")
        p = run(["--output-format=json"] + args)
        if p.returncode != 0 and engine == "io_uring":
            tried.append(f"io_uring cannot run here: {p.stderr.strip()}")
            continue
        check(p.returncode == 0, f"{engine}: exit {p.returncode}\n{p.stderr}")
        r = json.loads(p.stdout)["jobs"][0]
        check(r["read"]["io_bytes"] == 4 * MiB, f"{engine}: read {r['read']['io_bytes']}")
        return
    raise Skip("; ".join(tried) or "neither io_uring nor libaio is built")


def t_noop_notes(tmp):
    """Options with no effect: one note each on stderr, none with --quiet."""
    args = ["-ioengine=null", "-size=1m", "-thread", "-ioscheduler=noop", "-gtod_reduce=1",
            "-disable_slat", "-name=a", "-thread", "-name=b", "-thread=1"]
    jobs, p = show_jobs(args)
    n = notes(p.stderr)
    check(len(n) == 4, f"expected 4 notes (thread once), got:\n" + "\n".join(n))
    for key in ("thread", "ioscheduler=noop", "gtod_reduce=1", "disable_slat=1"):
        check(sum(key in l for l in n) == 1, f"no single note for {key}:\n" + "\n".join(n))
    check("argument 5 '-thread'" in n[0], f"note does not say where: {n[0]}")
    p = ok(["validate", "--quiet"] + args)
    check(not notes(p.stderr), f"--quiet still printed notes:\n{p.stderr}")
    # fio spellings rewritten: buffered=0 is direct=1; ioengine=sync runs psync.
    jobs, p = show_jobs(["-buffered=0", "-ioengine=sync", "-size=1m", "-name=a"])
    check(jobs[0]["direct"] == "1" and jobs[0]["ioengine"] == "psync", f"{jobs[0]}")
    check(any("ioengine=sync" in l for l in notes(p.stderr)), p.stderr)
    # verify=crc32c-intel is fio's name for the same checksum.
    p = ok(["--output-format=json", "-verify=crc32c-intel", "-ioengine=psync", "-rw=write",
            "-bs=4k", "-size=1m", f"-filename={tmp}/v.dat", "-name=a"])
    v = json.loads(p.stdout)["jobs"][0]["verify"]
    check(v["type"] == "crc32c" and v["blocks"] == 256 and v["errors"] == 0, f"{v}")
    check(any("verify=crc32c-intel" in l and "runs as verify=crc32c" in l
              for l in notes(p.stderr)), p.stderr)


# The verification, rate and shaping options (core/options_ext.inc), as
# --show-jobs prints them; the durations among them are printed in ns.
EXT_OPTIONS = ("verify", "do_verify", "verify_backlog", "verify_only", "verify_fatal",
               "verify_dump", "verify_pattern", "rate", "rate_iops", "rate_min",
               "rate_iops_min", "rate_cycle", "rate_process", "thinktime", "thinktime_spin",
               "thinktime_blocks", "bssplit", "random_distribution", "percentage_random",
               "offset_increment", "zero_buffers", "refill_buffers",
               "buffer_compress_percentage", "buffer_compress_chunk", "dedupe_percentage")
EXT_DURATIONS = ("rate_cycle", "thinktime", "thinktime_spin")


def t_duration_units(tmp):
    """fio's units for a plain number: thinktime and thinktime_spin in
    microseconds, rate_cycle in milliseconds, runtime in seconds; the same
    in fio INI files and libconfig files."""
    want = {"thinktime": str(100 * 10**3), "thinktime_spin": str(40 * 10**3),
            "rate_cycle": str(500 * 10**6), "runtime_ns": str(3 * 10**9)}
    plain = ["-thinktime=100", "-thinktime_spin=40", "-rate_cycle=500", "-runtime=3"]
    jobs, _ = show_jobs(["-ioengine=null", "-size=1m", *plain, "-name=a"])
    ini = os.path.join(tmp, "units.fio")
    with open(ini, "w") as f:
        f.write("[a]\nioengine=null\nsize=1m\nthinktime=100\nthinktime_spin=40\n"
                "rate_cycle=500\nruntime=3\n")
    jobs_ini, _ = show_jobs([ini])
    cfg = os.path.join(tmp, "units.cfg")
    with open(cfg, "w") as f:
        f.write('jobs = ( { name = "a"; ioengine = "null"; size = "1m"; thinktime = 100; '
                'thinktime_spin = 40; rate_cycle = 500; runtime = 3; } );\n')
    jobs_cfg, _ = show_jobs([cfg])
    for what, j in (("command line", jobs[0]), ("fio file", jobs_ini[0]),
                    ("libconfig", jobs_cfg[0])):
        for k, v in want.items():
            check(j[k] == v, f"{what}: {k} = {j[k]}, expected {v}")
    # An explicit unit wins; a plain number out of range says which unit it took.
    jobs, _ = show_jobs(["-ioengine=null", "-size=1m", "-thinktime=2ms", "-rate_cycle=1s",
                         "-name=a"])
    check(jobs[0]["thinktime"] == str(2 * 10**6) and jobs[0]["rate_cycle"] == str(10**9),
          f"{jobs[0]}")
    p = run(["validate", "-ioengine=null", "-size=1m", "-rate_cycle=5", "-name=a"])
    check(p.returncode == 2 and "'5' is out of range" in p.stderr and
          "a plain number is milliseconds" in p.stderr, p.stderr)


def t_cmd_ext_options(tmp):
    """Verify, rate and shaping options show as parsed, under names the options accept."""
    base = ["-ioengine=null", "-size=4m"]
    jobs, _ = show_jobs(base + [
        "-name=a", "-rw=randrw", "-verify=md5", "-rate=10m,5m", "-bssplit=4k/50:64k/50",
        "-random_distribution=zipf:1.2", "-rwmixread=70",
        "-name=b", "-rw=write", "-verify=pattern", "-verify_pattern=0xdeadbeef",
        "-verify_backlog=4", "-rate=,10m", "-rate_min=,1m", "-rate_iops=,300",
        "-rate_process=poisson", "-rate_cycle=500ms", "-thinktime=1ms",
        "-thinktime_spin=100us", "-thinktime_blocks=2",
        "-random_distribution=zoned_abs:60/1m:40/2m", "-percentage_random=50",
        "-offset_increment=64k", "-bssplit=,8k/30:16k"])
    check([j["name"] for j in jobs] == ["a", "b"], f"jobs {[j['name'] for j in jobs]}")
    split = "4096/50:65536/50"
    want = [{"verify": "md5", "do_verify": "1", "verify_pattern": "(none)",
             "rate": "10485760,5242880,5242880", "rate_iops": "0,0,0",
             "rate_min": "0,0,0", "rate_cycle": str(10**9), "rate_process": "linear",
             "thinktime": "0", "thinktime_blocks": "1",
             "bssplit": ",".join([split] * 3), "bs_min": "4096,4096,4096",
             "bs_max": "65536,65536,65536", "random_distribution": "zipf:1.2",
             "rwmixread": "70", "percentage_random": "100,100,100",
             "offset_increment": "0"},
            {"verify": "pattern", "verify_pattern": "0xdeadbeef", "verify_backlog": "4",
             "rate": "0,10485760,10485760", "rate_iops": "0,300,300",
             # A floor only binds the directions the job does: no trims here.
             "rate_min": "0,1048576,0", "rate_cycle": str(500 * 10**6),
             "rate_process": "poisson", "thinktime": str(10**6),
             "thinktime_spin": str(100 * 10**3), "thinktime_blocks": "2",
             "bssplit": ",8192/30:16384/70,8192/30:16384/70",
             "random_distribution": "zoned_abs:60/1048576b:40/2097152b",
             "percentage_random": "50,50,50", "offset_increment": "65536"}]
    for j, w in zip(jobs, want):
        for k, v in w.items():
            check(j.get(k) == v, f"job {j['name']}: {k} = {j.get(k)}, expected {v}")
        check(all(k in j for k in EXT_OPTIONS),
              f"job {j['name']}: not shown: {[k for k in EXT_OPTIONS if k not in j]}")
    # What is printed reads back as the same job (durations given their unit).
    for j in jobs:
        again = [f"-{k}={j[k]}" + ("ns" if k in EXT_DURATIONS else "")
                 for k in EXT_OPTIONS if j[k] != "(none)"]
        b, _ = show_jobs(base + [f"-name={j['name']}", f"-rw={j['rw']}",
                                 f"-rwmixread={j['rwmixread']}"] + again)
        diff = {k: (v, b[0].get(k)) for k, v in j.items()
                if k != "index" and b[0].get(k) != v}
        check(not diff, f"job {j['name']} printed back differs: {diff}")


# ---- INI job files -------------------------------------------------------------

def t_ini_issue_file(tmp):
    """The issue's job file runs with filename, runtime and numjobs shrunk."""
    need_engine("libaio")
    need_direct(tmp)
    f = os.path.join(tmp, "sdb")
    make_file(f, 16 * MiB)
    text = (ISSUE_JOB_FILE.replace("/dev/sdb", f).replace("runtime=120", "runtime=1")
            .replace("numjobs=32", "numjobs=${NUMJOBS}"))
    path = os.path.join(tmp, "issue.fio")
    with open(path, "w") as fh:
        fh.write(text)
    env = {"NUMJOBS": "2"}
    jobs, _ = show_jobs([path], env=env)
    names = [j["name"] for j in jobs]
    check(names == ["randread-4k", "randwrite-4k", "read-512k", "write-512k"], f"{names}")
    check([j["group"] for j in jobs] == [0, 1, 2, 3], "stonewall groups")
    for j in jobs:
        for k, v in {"ioengine": "libaio", "iodepth": "128", "time_based": "1", "direct": "1",
                     "group_reporting": "1", "randrepeat": "0", "norandommap": "1",
                     "numjobs": "2", "runtime_ns": str(10**9), "stonewall": "1"}.items():
            check(j[k] == v, f"{j['name']}: {k} = {j[k]}, expected {v}")
    check(jobs[0]["rwmixread"] == "100", "rwmixread")
    check(jobs[2]["bs"] == "524288,524288,524288", "bs=512k")
    doc, p = run_json([path], env=env, timeout=120)
    rep = {r["jobname"]: r for r in doc["jobs"]}
    check(sorted(rep) == sorted(names), f"report jobs {sorted(rep)}")
    for name, d in (("randread-4k", "read"), ("randwrite-4k", "write"), ("read-512k", "read"),
                    ("write-512k", "write")):
        r = rep[name]
        other = "write" if d == "read" else "read"
        check(r["error"] == 0 and r[d]["io_bytes"] > 0, f"{name}: no {d} I/O")
        check(r[other]["io_bytes"] == 0, f"{name}: did {other} I/O")
        check(r["groupid"] == names.index(name), f"{name}: group {r['groupid']}")
    n = notes(p.stderr)
    check(len(n) == 1 and "thread=1" in n[0] and "issue.fio:6" in n[0], f"notes {n}")


def t_ini_syntax(tmp):
    """Comments, bare flags, include, ${VAR}, later [global], name=, groups, bs=a,b."""
    os.mkdir(os.path.join(tmp, "inc"))
    with open(os.path.join(tmp, "inc", "common.fio"), "w") as f:
        f.write("; shared by every job\n# another comment\nsize=${SZ}   ; inline comment\n"
                "bs=4k,8k\n")
    main = os.path.join(tmp, "main.fio")
    with open(main, "w") as f:
        f.write("# fio job file\n"
                "[global]\n"
                "ioengine = null\n"
                "include inc/common.fio\n"
                "time_based\n"
                "runtime=1\n"
                "\n"
                "[first]\n"
                "rw=randread   # inline comment\n"
                "norandommap\n"
                "[global]\n"
                "iodepth=8\n"
                "[second]\n"
                "name=renamed\n"
                "rw=write\n"
                "wait_for_previous\n"
                "[third]\n"
                "new_group=1\n"
                "iodepth=4\n"
                "[fourth]\n"
                "numjobs=3\n")
    jobs, _ = show_jobs([main], env={"SZ": "2m"})
    by = {j["name"]: j for j in jobs}
    check(list(by) == ["first", "renamed", "third", "fourth"], f"jobs {list(by)}")
    for j in jobs:
        check(j["size"] == str(2 * MiB), f"{j['name']}: size {j['size']} (include/${{SZ}})")
        check(j["bs"] == "4096,8192,8192", f"{j['name']}: bs {j['bs']}")
        check(j["time_based"] == "1" and j["runtime_ns"] == str(10**9), f"{j['name']}: time")
    check(by["first"]["rw"] == "randread" and by["first"]["norandommap"] == "1", "first")
    # The second [global] applies to the jobs after it only.
    check([j["iodepth"] for j in jobs] == ["1", "8", "4", "8"],
          f"iodepths {[j['iodepth'] for j in jobs]}")
    check(by["renamed"]["stonewall"] == "1", "wait_for_previous is stonewall")
    check([j["group"] for j in jobs] == [0, 1, 2, 2], f"groups {[j['group'] for j in jobs]}")
    check(by["fourth"]["numjobs"] == "3", "numjobs")
    doc, _ = run_json([main], env={"SZ": "2m"})
    check(len(doc["jobs"]) == 6, f"{len(doc['jobs'])} report entries, expected 1+1+1+3")


def t_ini_errors(tmp):
    """Errors name the file and line (the included file's own), exit 2."""
    os.mkdir(os.path.join(tmp, "inc"))
    with open(os.path.join(tmp, "inc", "bad.fio"), "w") as f:
        f.write("bs=4k\n\nblocksise=8k\n")

    def jf(name, text):
        return write_cfg(tmp, text, name)

    p = jf("var.fio", "[global]\nioengine=null\n[a]\nsize=${IORIG_TEST_UNSET_VAR}\n")
    env = {"IORIG_TEST_UNSET_VAR": ""}
    os.environ.pop("IORIG_TEST_UNSET_VAR", None)
    usage_error([p], "var.fio:4:", "'IORIG_TEST_UNSET_VAR' is not set")
    usage_error([p], "var.fio:4:", "a value is required", env=env)  # set but empty
    p = jf("unk.fio", "[global]\nioengine=null\nsize=1m\n\n[a]\n; c\nrw=read\niodpeth=4\n")
    usage_error([p], "unk.fio:8:", "job 'a'", "unknown option 'iodpeth'",
                "did you mean 'iodepth'")
    p = jf("unkg.fio", "[global]\nioengine=null\nthred\n[a]\nsize=1m\n")
    usage_error([p], "unkg.fio:3:", "did you mean 'thread'")
    p = jf("inc.fio", "[global]\nioengine=null\nsize=1m\n[a]\ninclude inc/bad.fio\n")
    usage_error([p], "inc/bad.fio:3:", "unknown option 'blocksise'", "did you mean 'blocksize'")
    p = jf("noinc.fio", "[a]\ninclude nothere.fio\n")
    usage_error([p], "noinc.fio:2:", "cannot include", "nothere.fio")
    p = jf("loop.fio", "[a]\ninclude loop.fio\n")
    usage_error([p], "loop.fio:2:", "nested")
    p = jf("outside.fio", "size=1m\n[a]\n")
    usage_error([p], "outside.fio:1:", "outside of any section")
    p = jf("badval.fio", "[global]\nioengine=null\n[a]\nsize=1m\nbs=0\n")
    usage_error([p], "badval.fio:5:", "option 'bs'", "out of range")
    p = jf("bare.fio", "[global]\nioengine=null\n[a]\nsize\n")
    usage_error([p], "bare.fio:4:", "option 'size': a value is required")


def t_detect_format(tmp):
    """fio INI vs libconfig is told by content, for run, validate and convert."""
    ini = os.path.join(tmp, "job")  # no extension on purpose
    with open(ini, "w") as f:
        f.write("; comment first\n\n[j]\nioengine=null\nsize=1m\n")
    cfg = os.path.join(tmp, "job2")
    with open(cfg, "w") as f:
        f.write('# [not] a section: a comment\njobs = ( { name = "j"; ioengine = "null";\n'
                '  size = "1m";\n  percentile_list =\n  [50.0, 99.0]; } );\n')
    for path in (ini, cfg):
        jobs, _ = show_jobs([path])
        check(jobs[0]["name"] == "j" and jobs[0]["size"] == str(MiB), f"{path}: {jobs}")
        doc, _ = run_json([path])
        check(doc["jobs"][0]["read"]["io_bytes"] == MiB, f"{path}: did not run")
        p = ok(["run", "--output-format=json", path])
        check(json.loads(p.stdout)["jobs"][0]["read"]["io_bytes"] == MiB, f"run {path}")
    jobs, _ = show_jobs([cfg])
    check(jobs[0]["percentile_list"] == "50 99", "libconfig array read as such")


def t_convert_roundtrip(tmp):
    """iorig convert's output parses into exactly the same jobs as its input."""
    f = os.path.join(tmp, "sdb")
    make_file(f, MiB)
    issue = os.path.join(tmp, "issue.fio")
    with open(issue, "w") as fh:
        fh.write(ISSUE_JOB_FILE.replace("/dev/sdb", f).replace("numjobs=32", "numjobs=${NJ}"))
    os.mkdir(os.path.join(tmp, "inc"))
    with open(os.path.join(tmp, "inc", "c.fio"), "w") as fh:
        fh.write('description=say "hi" \\ there\nbs=4k,,8k\n')
    mixed = os.path.join(tmp, "mixed.fio")
    with open(mixed, "w") as fh:
        fh.write("[global]\nioengine=null\nsize=1m\nbs=8k\nbs=16k\ninclude inc/c.fio\n"
                 "[a]\nrw=randrw\nrwmixwrite=20\nbuffered=0\nverify=crc32c\n"
                 "verify_backlog=8\nrate=10m,5m\nrate_min=1m\nbssplit=8k/25:16k,4k/50:64k/50\n"
                 "random_distribution=zipf:1.2\npercentage_random=80\nthinktime=1ms\n"
                 "thinktime_spin=200us\nthinktime_blocks=4\n[global]\niodepth=4\n"
                 "[b b]\nname=bee:2\nfilename=x\\:y:z\nrandseed=42\ncpus_allowed=0\n"
                 "percentile_list=99:50\nruntime=1500ms\nnumjobs=2\nnew_group\n"
                 "rwmixread=60\nrate_iops=,300\nrate_process=poisson\n"
                 "random_distribution=zoned:60/10:40/90\noffset_increment=1m\n"
                 "rate=4m\nrate=,2m\npercentage_random=50\npercentage_random=,,70\n")
    env = {"NJ": "3"}
    cases = [("issue", [issue]), ("mixed", [mixed]),
             ("cmdline", ["-filename=" + f, "-direct=1", "-iodepth", "64", "-thread",
                          "-rw=write", "-ioengine=null", "-bs=512K", "-numjobs=8",
                          "-runtime=20", "-group_reporting", "-verify=md5", "-rate=50m",
                          "-bssplit=256k/50:512k/50", "-thinktime=2ms", "-name=test"])]
    for name, args in cases:
        p = ok(["convert"] + args, env=env)
        body = "\n".join(l for l in p.stdout.splitlines() if not l.lstrip().startswith("#"))
        check("thread" not in body and "=" in body, f"{name}: thread left in:\n{p.stdout}")
        out = os.path.join(tmp, name + ".cfg")
        with open(out, "w") as fh:
            fh.write(p.stdout)
        a, pa = show_jobs(args, env=env)
        b, pb = show_jobs([out], env=env)
        check(len(a) >= 1, f"{name}: no jobs")
        # Same jobs, same parsed values, key by key (the last line names the file).
        da = pa.stdout.splitlines()[:-1]
        db = pb.stdout.splitlines()[:-1]
        if da != db:
            diff = [f"{x!r} != {y!r}" for x, y in zip(da, db) if x != y]
            fail(f"{name}: converted jobs differ:\n" + "\n".join(diff[:20]) +
                 f"\n--- converted file ---\n{p.stdout}")
    a, _ = show_jobs([mixed])
    check(a[1]["name"] == "bee:2" and a[1]["filename"] == "x\\:y:z", f"mixed: {a[1]}")
    check(a[0]["description"] == 'say "hi" \\ there', f"description {a[0]['description']}")
    check(a[0]["bs"] == "4096,16384,8192", f"bs {a[0]['bs']}")
    check(a[0]["direct"] == "1" and a[0]["rwmixread"] == "80", f"{a[0]}")
    # The ext options took part in the comparison above with these values.
    for k, v in {"verify": "crc32c", "verify_backlog": "8", "rate": "10485760,5242880,5242880",
                 "rate_min": "1048576,1048576,0", "random_distribution": "zipf:1.2",
                 "bssplit": "8192/25:16384/75,4096/50:65536/50,4096/50:65536/50",
                 "percentage_random": "80,80,80", "thinktime": str(10**6),
                 "thinktime_spin": str(200 * 10**3), "thinktime_blocks": "4"}.items():
        check(a[0][k] == v, f"a: {k} = {a[0][k]}, expected {v}")
    for k, v in {"rwmixread": "60", "rate_iops": "0,300,300", "rate_process": "poisson",
                 "random_distribution": "zoned:60/10:40/90", "offset_increment": str(MiB),
                 "verify": "none", "bssplit": "(none)", "rate": "4194304,2097152,2097152",
                 "percentage_random": "50,50,70"}.items():
        check(a[1][k] == v, f"bee:2: {k} = {a[1][k]}, expected {v}")
    # A per-direction value one entry cannot say: refused, nothing half written.
    odd = os.path.join(tmp, "odd.fio")
    with open(odd, "w") as fh:
        fh.write("[global]\nrate=,7m\n[a]\nioengine=null\nsize=1m\nrate=1m,\nrate=,9m,\n")
    p = run(["convert", odd])
    check(p.returncode == 2 and not p.stdout and "rate=READ,WRITE,TRIM" in p.stderr,
          f"rc {p.returncode}\nstdout: {p.stdout}\nstderr: {p.stderr}")


if __name__ == "__main__":
    sys.exit(main(globals(), "iorig-fio-"))
