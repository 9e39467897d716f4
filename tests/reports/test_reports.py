#!/usr/bin/env python3
"""End-to-end tests of iorig's reports, logs, progress line and device safety.

Usage: test_reports.py TEST_NAME   (exit 0 pass, 1 fail, 77 skip)
Environment: IORIG (the binary), IORIG_SRC (source tree).

Loop-device tests need root and losetup; fio comparisons need fio; the HTML
test needs Chromium (Debian's `chromium`).  Each skips (77) with a reason
when what it needs is missing.
"""
import json
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from iorig_test import (  # noqa: E402
    IORIG, Loop, Skip, check, expect_ok, job_entry, jobs_text, main, mkfs_ext4,
    need_root_loop, run, write_cfg)


def job(name, **opts):
    """One libconfig job: job("j", rw="read", size="1m", direct=True)."""
    return job_entry(dict(name=name, **opts))


def jobfile(tmp, *jobs, name="job.cfg"):
    return write_cfg(tmp, jobs_text(jobs, ",\n"), name)


def split_normal_json(out):
    """stdout of --output-format=normal,json: the text, then the JSON document."""
    i = out.find("\n{\n")
    check(i >= 0, f"no JSON document after the normal report:\n{out[:2000]}")
    return out[:i + 1], json.loads(out[i + 1:])


def write_mbr(path, parts):
    """A DOS partition table: parts = [(first_lba, sectors), ...], type Linux."""
    mbr = bytearray(512)
    for i, (start, n) in enumerate(parts):
        mbr[446 + 16 * i:462 + 16 * i] = struct.pack("<B3sB3sII", 0, b"\xff\xff\xfe", 0x83,
                                                     b"\xff\xff\xfe", start, n)
    mbr[510:512] = b"\x55\xaa"
    with open(path, "r+b") as f:
        f.write(mbr)


def partition_nodes(tmp, dev):
    """Device nodes of dev's partitions (made in tmp when devtmpfs has none)."""
    subprocess.run(["partx", "-a", dev], capture_output=True)
    base = os.path.basename(dev)
    nodes = []
    for n in (1, 2):
        name = f"{base}p{n}"
        sysdev = f"/sys/block/{base}/{name}/dev"
        if not os.path.exists(sysdev):
            raise Skip("the kernel did not scan the loop device's partitions")
        path = f"/dev/{name}"
        if not os.path.exists(path):
            major, minor = map(int, open(sysdev).read().split(":"))
            path = os.path.join(tmp, name)
            os.mknod(path, 0o600 | 0o060000, os.makedev(major, minor))
        nodes.append(path)
    return nodes


def fio_json(args, cwd=None):
    if not shutil.which("fio"):
        return None
    p = subprocess.run(["fio", "--output-format=json"] + args, capture_output=True, text=True,
                       timeout=120, cwd=cwd)
    if p.returncode:
        return None
    return json.loads(p.stdout[p.stdout.find("{"):])


# ---- disk stats ------------------------------------------------------------------

DISK_LINE = re.compile(r"^  (\S+): ios=(\d+)/(\d+), merge=(\d+)/(\d+), ticks=(\d+)/(\d+), "
                       r"in_queue=(\d+), util=(\d+\.\d\d)%$")
DISK_KEYS = {"name", "read_ios", "write_ios", "read_merges", "write_merges", "read_ticks",
             "write_ticks", "in_queue", "util"}


def disk_section(text):
    lines = text.splitlines()
    check("Disk stats (read/write):" in lines, f"no Disk stats section:\n{text[-1500:]}")
    i = lines.index("Disk stats (read/write):")
    check(lines[i - 1] == "", "a blank line comes before Disk stats, as fio")
    return [DISK_LINE.match(l) for l in lines[i + 1:] if l.strip()]


def t_disk_stats(tmp):
    """A loop-device job: non-zero disk stats, same figures in text and JSON, fio's layout."""
    need_root_loop()
    with Loop(tmp) as lo:
        cfg = jobfile(tmp, job("ds", ioengine="psync", rw="randrw", bs="4k", size="16m",
                               filename=lo.dev, direct=True, runtime="1s", time_based=True,
                               overwrite_device=True))
        p = run(["--output-format=normal,json", cfg])
        expect_ok(p, "loop-device job")
        text, doc = split_normal_json(p.stdout)
        name = os.path.basename(lo.dev)
        du = doc["disk_util"]
        check(len(du) == 1 and du[0]["name"] == name, f"disk_util: {du}")
        d = du[0]
        check(set(d) == DISK_KEYS, f"disk_util keys {sorted(d)}")
        j = doc["jobs"][0]
        # direct 4k I/O on a loop device: one request per I/O (merges aside)
        for k, jd in (("read_ios", "read"), ("write_ios", "write")):
            ios = j[jd]["total_ios"]
            check(d[k] > 0 and d[k] >= 0.5 * ios, f"{k}={d[k]} for {ios} I/Os")
        check(0 < d["util"] <= 100, f"util {d['util']}")
        m = disk_section(text)
        check(len(m) == 1 and m[0], f"disk line does not match fio's layout: {text[-400:]}")
        g = m[0].groups()
        check(g[0] == name and list(map(int, g[1:8])) == [
            d["read_ios"], d["write_ios"], d["read_merges"], d["write_merges"],
            d["read_ticks"], d["write_ticks"], d["in_queue"]], f"text {g} vs JSON {d}")
        check(abs(float(g[8]) - d["util"]) < 0.006, "util differs between text and JSON")

        # fio on the same device: same keys, and its line matches the same pattern
        fdoc = fio_json([f"--filename={lo.dev}", "--name=f", "--rw=randread", "--bs=4k",
                         "--size=16m", "--direct=1", "--runtime=1", "--time_based"])
        if fdoc:
            check(set(fdoc["disk_util"][0]) == DISK_KEYS,
                  f"fio's disk_util keys differ: {sorted(fdoc['disk_util'][0])}")
            fp = subprocess.run(["fio", f"--filename={lo.dev}", "--name=f", "--rw=read",
                                 "--size=4m", "--direct=1"], capture_output=True, text=True)
            check(all(disk_section(fp.stdout)), "our pattern does not match fio's own line")


def t_disk_stats_file(tmp):
    """Files on a filesystem report the filesystem's disk; a partition reports its disk."""
    need_root_loop()
    with Loop(tmp, partscan=True) as lo:
        write_mbr(lo.img, [(2048, 40960), (43008, 40960)])
        p1, _ = partition_nodes(tmp, lo.dev)
        mkfs_ext4(p1)
        mnt = os.path.join(tmp, "mnt")
        lo.mount(p1, mnt)
        cfg = jobfile(tmp, job("f", ioengine="psync", rw="write", bs="64k", size="8m",
                               filename=os.path.join(mnt, "data"), direct=True, end_fsync=True))
        p = run(["--output-format=json", cfg])
        expect_ok(p, "file on a partition's filesystem")
        du = json.loads(p.stdout)["disk_util"]
        check([d["name"] for d in du] == [os.path.basename(lo.dev)],
              f"expected the whole disk {lo.dev}: {du}")
        check(du[0]["write_ios"] > 0, f"no writes seen on the disk: {du}")


# ---- terse ------------------------------------------------------------------------

def t_terse(tmp):
    """fio's terse v3 fields, by index, against our JSON of the same run."""
    cfg = jobfile(tmp, job("tj", ioengine="psync", rw="randrw", rwmixread=60, bs="4k",
                           size="8m", filename=os.path.join(tmp, "tf"), runtime="1s",
                           time_based=True, description="terse test"))
    p = run(["--output-format=json,terse", cfg])
    expect_ok(p, "terse run")
    lines = p.stdout.splitlines()
    terse = [l for l in lines if l.startswith("3;")]
    check(len(terse) == 1, f"one terse line expected:\n{p.stdout[-1000:]}")
    doc = json.loads("\n".join(l for l in lines if not l.startswith("3;")))
    f = terse[0].split(";")
    ndisk = len(doc["disk_util"])
    check(len(f) == 121 + 9 * ndisk + 1, f"{len(f)} fields (disks {ndisk})")
    j = doc["jobs"][0]
    check(f[0] == "3" and f[1].startswith("iorig-") and f[2] == "tj" and f[3] == "0" and
          f[4] == "0", f"header fields {f[:5]}")
    for base, d in ((5, "read"), (46, "write")):
        jd = j[d]
        check(int(f[base]) == jd["io_kbytes"], f"{d} io KiB {f[base]} vs {jd['io_kbytes']}")
        check(int(f[base + 1]) == jd["bw"], f"{d} bw {f[base + 1]} vs {jd['bw']}")
        check(int(f[base + 2]) == round(jd["iops"]), f"{d} iops {f[base + 2]} vs {jd['iops']}")
        check(int(f[base + 3]) == jd["runtime"], f"{d} runtime")
        clat = jd["clat_ns"]
        check(int(f[base + 8]) == clat["min"] // 1000 and int(f[base + 9]) == clat["max"] // 1000,
              f"{d} clat min/max")
        check(abs(float(f[base + 10]) - clat["mean"] / 1000) < 0.001, f"{d} clat mean")
        pct = clat["percentile"]
        for k in range(20):
            key, val = f[base + 12 + k].split("%=")
            if k < len(pct):
                want = sorted(pct, key=float)[k]
                check(abs(float(key) - float(want)) < 1e-9 and int(val) == pct[want] // 1000,
                      f"{d} percentile field {k}: {f[base + 12 + k]} vs {want}={pct[want]}")
            else:
                check(key == "0" and val == "0", f"unused percentile slot {f[base + 12 + k]}")
        lat = jd["lat_ns"]
        check(int(f[base + 32]) == lat["min"] // 1000, f"{d} lat min")
        check(int(f[base + 36]) == jd["bw_min"] and int(f[base + 37]) == jd["bw_max"],
              f"{d} bw min/max {f[base + 36:base + 38]}")
        check(f[base + 38].endswith("%"), f"{d} bw agg is a percentage: {f[base + 38]}")
    check(f[87].endswith("%") and abs(float(f[87][:-1]) - j["usr_cpu"]) < 0.001, "usr cpu")
    check(int(f[89]) == j["ctx"], "ctx")
    check(f[92] == "%.1f%%" % j["iodepth_level"]["1"], f"iodepth 1: {f[92]}")
    lat_fields = [float(x[:-1]) for x in f[99:121]]
    check(abs(sum(lat_fields) - 100) < 1.0, f"latency buckets add to {sum(lat_fields)}")
    check(f[-1] == "terse test", "description is the last field")
    if shutil.which("fio"):
        fp = subprocess.run(["fio", "--output-format=terse", "--name=x", "--rw=randrw",
                             "--size=4m", f"--filename={os.path.join(tmp, 'ff')}",
                             "--description=terse test"], capture_output=True, text=True)
        fl = [l for l in fp.stdout.splitlines() if l.startswith("3;")]
        if fl:
            nf = len(fl[0].split(";"))
            fdisks = (nf - 122) // 9
            check(nf - 9 * fdisks == len(f) - 9 * ndisk,
                  f"fio has {nf} fields ({fdisks} disks), we have {len(f)} ({ndisk})")


# ---- sync latency ---------------------------------------------------------------------

SYNC_BLOCK = re.compile(
    r"^  fsync/fdatasync/sync_file_range:\n"
    r"    sync \((nsec|usec|msec)\): min=(\S+), max=(\S+), avg=\s*([\d.]+), stdev=\s*([\d.]+)\n"
    r"    sync percentiles \((nsec|usec|msec)\):\n"
    r"((?:     \|(?: +[\d.]+th=\[ *\d+\],?)+\n)+)", re.M)
UNIT_NS = {"nsec": 1, "usec": 1000, "msec": 1000000}
NO_SYNC = {"total_ios": 0, "lat_ns": {"min": 0, "max": 0, "mean": 0.0, "stddev": 0.0, "N": 0}}


def sync_job(tmp, name="s", **opts):
    """A psync write job of 2048 4k writes to tmp/NAME.dat, with opts added."""
    base = dict(ioengine="psync", rw="write", bs="4k", size="8m",
                filename=os.path.join(tmp, name + ".dat"))
    base.update(opts)
    return job(name, **{k: v for k, v in base.items() if v is not None})


def run_normal_json(tmp, *jobs):
    p = run(["--output-format=normal,json", jobfile(tmp, *jobs)])
    expect_ok(p, "sync job")
    return split_normal_json(p.stdout)


def check_sync(j, n, what):
    """j's "sync" object: fio's shape and place, n syncs, figures that hold together."""
    keys = list(j)
    check("sync" in j and keys.index("sync") == keys.index("trim") + 1,
          f"{what}: \"sync\" must follow \"trim\", as fio: {keys}")
    s = j["sync"]
    check(list(s) == ["total_ios", "lat_ns"], f"{what}: sync keys {list(s)}")
    if not n:
        check(s == NO_SYNC, f"{what}: a job without syncs has fio's zeros: {s}")
        return
    lat = s["lat_ns"]
    check(list(lat) == ["min", "max", "mean", "stddev", "N", "percentile"],
          f"{what}: lat_ns keys {list(lat)}")
    check(s["total_ios"] == n and lat["N"] == n,
          f"{what}: {s['total_ios']} syncs, N {lat['N']}, expected {n}")
    check(0 < lat["min"] <= lat["mean"] <= lat["max"], f"{what}: min/mean/max {lat}")
    pct = lat["percentile"]
    order = sorted(pct, key=float)
    check(list(pct) == order and len(pct) == 17 and "99.990000" in pct,
          f"{what}: fio's default percentiles in order: {list(pct)}")
    vals = [pct[k] for k in order]
    check(vals == sorted(vals), f"{what}: percentiles decrease somewhere: {pct}")
    # bucket midpoints: within a bucket (< 0.4%) of the samples' range
    check(lat["min"] * 0.99 <= vals[0] and vals[-1] <= lat["max"] * 1.01,
          f"{what}: percentiles {vals[0]}..{vals[-1]} outside {lat['min']}..{lat['max']}")
    if n == 1:
        check(lat["min"] == lat["max"] == lat["mean"] and lat["stddev"] == 0,
              f"{what}: one sample: {lat}")


def check_sync_text(text, j, what):
    """The normal report's sync block (after the latency distribution, before
    cpu) says what the JSON says; the fourth issued figure is the sync count."""
    m = SYNC_BLOCK.search(text)
    check(m, f"{what}: no fsync/fdatasync/sync_file_range block in fio's layout:\n{text}")
    lines = text[:m.start()].splitlines()
    check(lines[-1].startswith("  lat ("), f"{what}: the block follows the latency "
          f"distribution, as fio: {lines[-1]!r}")
    check(text[m.end():].startswith("  cpu          : "), f"{what}: cpu comes next, as fio")
    lat = j["sync"]["lat_ns"]
    div = UNIT_NS[m.group(1)]
    for got, want in ((m.group(2), lat["min"] // div), (m.group(3), lat["max"] // div)):
        check(not got.isdigit() or int(got) == want, f"{what}: min/max {m.group(0)} vs {lat}")
    check(abs(float(m.group(4)) - lat["mean"] / div) < 0.006, f"{what}: avg vs {lat['mean']}")
    div = UNIT_NS[m.group(6)]
    shown = re.findall(r"([\d.]+)th=\[ *(\d+)\]", m.group(7))
    want = sorted(lat["percentile"].items(), key=lambda kv: float(kv[0]))
    check(len(shown) == len(want) and all(
        abs(float(a) - float(k)) < 1e-9 and int(b) == v // div
        for (a, b), (k, v) in zip(shown, want)), f"{what}: percentiles {shown} vs {want}")
    issued = re.search(r"issued rwts: total=\d+,\d+,\d+,(\d+) ", text)
    check(issued and int(issued.group(1)) >= j["sync"]["total_ios"],
          f"{what}: issued rwts' fourth figure counts the syncs")


def fio_normal_json(tmp, args):
    """fio --output-format=normal,json ARGS: (text, JSON), or None without fio."""
    if not shutil.which("fio"):
        return None
    p = subprocess.run(["fio", "--output-format=normal,json"] + args, capture_output=True,
                       text=True, timeout=120, cwd=tmp)
    check(p.returncode == 0, f"fio {args}: {p.stderr}")
    i = p.stdout.find("{\n")  # fio writes the JSON document first, then the text
    check(i >= 0, f"no JSON in fio's output:\n{p.stdout[:2000]}")
    doc, end = json.JSONDecoder().raw_decode(p.stdout, i)
    return p.stdout[:i] + p.stdout[end:], doc


def t_sync_fsync(tmp):
    """fsync=16 over 2048 writes: 128 timed syncs, in fio's JSON shape and normal block."""
    text, doc = run_normal_json(tmp, sync_job(tmp, fsync=16))
    j = doc["jobs"][0]
    check(j["write"]["total_ios"] == 2048, f"{j['write']['total_ios']} writes")
    check_sync(j, 128, "fsync=16")
    check_sync_text(text, j, "fsync=16")
    check("     issued rwts: total=0,2048,0,128 short=0,0,0,0 dropped=0,0,0,0" in text,
          "issued rwts: 128 syncs fourth")
    # fio, same job: the same keys in the same places, the same block layout
    fio = fio_normal_json(tmp, ["--name=s", "--rw=write", "--bs=4k", "--size=8m",
                                "--fsync=16", f"--filename={os.path.join(tmp, 'f.dat')}"])
    if fio:
        ftext, fdoc = fio
        fj = fdoc["jobs"][0]
        check([k for k in j if k in fj] == list(fj), f"job keys: ours {list(j)}, fio's {list(fj)}")
        fs, s = fj["sync"], j["sync"]
        check(list(fs) == list(s) and list(fs["lat_ns"]) == list(s["lat_ns"]) and
              list(fs["lat_ns"]["percentile"]) == list(s["lat_ns"]["percentile"]),
              f"sync shape: fio {fs}, ours {s}")
        check(abs(fs["total_ios"] - 128) <= 1, f"fio synced {fs['total_ios']} times")
        check(SYNC_BLOCK.search(ftext), f"our pattern does not match fio's own block:\n{ftext}")


def t_sync_end_fsync(tmp):
    """end_fsync alone: exactly one sync per file of the job."""
    text, doc = run_normal_json(tmp, sync_job(tmp, end_fsync=True))
    j = doc["jobs"][0]
    check_sync(j, 1, "end_fsync, one file")
    check_sync_text(text, j, "end_fsync, one file")
    text, doc = run_normal_json(tmp, sync_job(tmp, filename=None, directory=tmp, nrfiles=2,
                                              end_fsync=True))
    check_sync(doc["jobs"][0], 2, "end_fsync, two files")
    check_sync_text(text, doc["jobs"][0], "end_fsync, two files")
    # fsync=16 and end_fsync: 128 + 1
    _, doc = run_normal_json(tmp, sync_job(tmp, fsync=16, end_fsync=True))
    check_sync(doc["jobs"][0], 129, "fsync=16 and end_fsync")


def t_sync_read_only(tmp):
    """A job that writes nothing syncs nothing: fio's zeros, no sync block."""
    text, doc = run_normal_json(tmp, sync_job(tmp, rw="read", fsync=16, end_fsync=True))
    j = doc["jobs"][0]
    check(j["read"]["total_ios"] == 2048, f"{j['read']['total_ios']} reads")
    check_sync(j, 0, "read-only")
    check("fsync/fdatasync/sync_file_range" not in text and "sync (" not in text,
          f"a job without syncs prints no sync block (fio neither):\n{text}")
    check("     issued rwts: total=2048,0,0,0 short=0,0,0,0 dropped=0,0,0,0" in text,
          "issued rwts: no syncs")
    fio = fio_normal_json(tmp, ["--name=s", "--rw=read", "--bs=4k", "--size=8m", "--fsync=16",
                                f"--filename={os.path.join(tmp, 'f.dat')}"])
    if fio:
        ftext, fdoc = fio
        check(fdoc["jobs"][0]["sync"] == NO_SYNC, f"fio's sync: {fdoc['jobs'][0]['sync']}")
        check("fsync/fdatasync/sync_file_range" not in ftext, "fio prints a block for no syncs")


def t_sync_group(tmp):
    """numjobs=2: group_reporting adds the syncs up; without it each has its own."""
    text, doc = run_normal_json(tmp, sync_job(tmp, filename=None, directory=tmp, fsync=16,
                                              numjobs=2, group_reporting=True))
    check(len(doc["jobs"]) == 1, f"{len(doc['jobs'])} entries with group_reporting")
    j = doc["jobs"][0]
    check(j["write"]["total_ios"] == 4096, f"{j['write']['total_ios']} writes")
    check_sync(j, 256, "numjobs=2, group_reporting")
    check_sync_text(text, j, "numjobs=2, group_reporting")
    check(",4096,0,256 short=" in text, "issued rwts: the group's 256 syncs")
    text, doc = run_normal_json(tmp, sync_job(tmp, filename=None, directory=tmp,
                                              fdatasync=16, numjobs=2))
    check(len(doc["jobs"]) == 2, f"{len(doc['jobs'])} entries without group_reporting")
    for i, j in enumerate(doc["jobs"]):
        check_sync(j, 128, f"fdatasync=16, instance {i}")
    check(len(SYNC_BLOCK.findall(text)) == 2, "one sync block per instance")


# ---- global options -------------------------------------------------------------------

def global_options(tmp, args, what):
    """The "global options" object of iorig --output-format=json ARGS, keys in order."""
    p = run(["--output-format=json"] + list(args), cwd=tmp)
    expect_ok(p, what)
    doc = json.loads(p.stdout)
    check("global options" in doc, f"{what}: no \"global options\": {sorted(doc)}")
    return list(doc["global options"].items())


def t_global_options(tmp):
    """"global options" holds the global section as written, as fio; {} without one."""
    # libconfig: strings as written, numbers and booleans ("1"/"0") as text.
    cfg = write_cfg(tmp, 'global = { ioengine = "null"; bs = "4k"; group_reporting = true;\n'
                         '  randrepeat = false; iodepth = 4; size = "1m"; };\n'
                         'jobs = ( { name = "a"; rw = "randread"; bs = "8k"; },\n'
                         '         { name = "b"; rw = "write"; } );\n', "g.cfg")
    got = global_options(tmp, [cfg], "libconfig job file with a global section")
    want = [("ioengine", "null"), ("bs", "4k"), ("group_reporting", "1"),
            ("randrepeat", "0"), ("iodepth", "4"), ("size", "1m")]
    check(got == want, f"libconfig global options {got}, expected {want}")

    # fio INI: text as written (not fio_compat's rewrite), a bare flag is ""
    # (as fio), a repeated key keeps its first place and its last value; a
    # [global] after a job applies to the later jobs only and is not listed.
    ini = write_cfg(tmp, "; fio job\n[global]\nioengine=null\nbs=4k\ndirect=0\nthread\n"
                         "size=1m   ; comment\nbs=8k\n\n[a]\nrw=read\n\n"
                         "[global]\niodepth=2\n\n[b]\nrw=write\n", "g.fio")
    got = global_options(tmp, [ini], "fio job file with a [global] section")
    want = [("ioengine", "null"), ("bs", "8k"), ("direct", "0"), ("thread", ""),
            ("size", "1m")]
    check(got == want, f"fio [global] options {got}, expected {want}")

    # Command-line globals come first, the file's own settings win.
    got = global_options(tmp, ["--bs=2k", "--rw=read", "--iodepth", "3", ini],
                         "fio job file with command-line globals")
    want = [("bs", "8k"), ("rw", "read"), ("iodepth", "3"), ("ioengine", "null"),
            ("direct", "0"), ("thread", ""), ("size", "1m")]
    check(got == want, f"command line + [global] options {got}, expected {want}")

    # fio's command line alone: the options before the first --name.
    got = global_options(tmp, ["--ioengine=null", "--size=1m", "--bs", "16k", "--name=x",
                               "--rw=write", "--name=y"], "fio command line")
    want = [("ioengine", "null"), ("size", "1m"), ("bs", "16k")]
    check(got == want, f"command-line global options {got}, expected {want}")

    # No global section: an empty object (not left out).
    for name, text in (("n.cfg", 'jobs = ( { name = "a"; ioengine = "null"; size = "1m"; } );\n'),
                       ("n.fio", "[a]\nioengine=null\nsize=1m\n")):
        got = global_options(tmp, [write_cfg(tmp, text, name)], f"{name}: no globals")
        check(got == [], f"{name}: global options {got}, expected {{}}")


# ---- status interval ----------------------------------------------------------------

def interval_sums(lines, doc):
    """Every job's interval figures add up to its totals in the JSON report."""
    tot = {}
    for ln in lines:
        for j in ln["jobs"]:
            for d in ("read", "write", "trim"):
                if d not in j:
                    continue
                t = tot.setdefault((j["jobname"], d), [0, 0, 0])
                t[0] += j[d]["io_bytes"]
                t[1] += j[d]["total_ios"]
                t[2] += j[d]["clat_ns"]["N"]
    for jj in doc["jobs"]:
        for d in ("read", "write"):
            if jj[d]["total_ios"] == 0:
                continue
            t = tot.get((jj["jobname"], d))
            check(t is not None, f"no interval figures for {jj['jobname']} {d}")
            check(t[0] == jj[d]["io_bytes"] and t[1] == jj[d]["total_ios"],
                  f"{jj['jobname']} {d}: intervals {t[:2]} vs totals "
                  f"{jj[d]['io_bytes']}, {jj[d]['total_ios']}")
            check(t[2] == jj[d]["clat_ns"]["N"], f"{jj['jobname']} {d}: interval clat N {t[2]}")


def t_status_interval(tmp):
    """Per-interval JSON lines in a file: not cumulative, percentiles, sums = totals."""
    sf = os.path.join(tmp, "status.jsonl")
    cfg = jobfile(tmp,
                  job("a", ioengine="psync", rw="randrw", bs="4k", size="8m",
                      filename=os.path.join(tmp, "fa"), runtime="2500ms", time_based=True),
                  job("b", ioengine="psync", rw="read", bs="16k", size="8m", stonewall=True,
                      filename=os.path.join(tmp, "fb"), runtime="1200ms", time_based=True))
    p = run(["--output-format=json", "--status-interval=500ms", f"--status-file={sf}", cfg])
    expect_ok(p, "status-interval run")
    doc = json.loads(p.stdout)
    lines = [json.loads(l) for l in open(sf)]
    check(len(lines) >= 6, f"{len(lines)} interval lines for a 3.7 s run")
    check([l["seq"] for l in lines] == list(range(len(lines))), "seq numbers")
    check(sum(l["group_end"] for l in lines) == 2, "one group_end line per group")
    full = [l for l in lines if not l["group_end"]]
    # Lines fall on the run's 500 ms grid: a group's first interval starts
    # when the group does (after laying out files), so it may be shorter.
    firsts = [lines[0]] + [lines[i + 1] for i, l in enumerate(lines[:-1]) if l["group_end"]]
    for l in full:
        if l not in firsts:
            check(250 <= l["interval_ms"] <= 1000, f"interval_ms {l['interval_ms']}")
        check(l["elapsed_ms"] % 500 <= 300, f"line off the 500 ms grid: {l['elapsed_ms']}")
    # Not cumulative: a steady job moves about the same bytes in each full interval.
    a_reads = [j["read"]["io_bytes"] for l in full for j in l["jobs"] if j["jobname"] == "a"]
    check(len(a_reads) >= 3 and max(a_reads[1:]) < 3 * sum(a_reads) / len(a_reads),
          f"interval bytes look cumulative: {a_reads}")
    one = next(j for l in full for j in l["jobs"] if j["jobname"] == "a")
    pct = one["read"]["clat_ns"]["percentile"]
    check("50.000000" in pct and "99.000000" in pct and pct["50.000000"] <= pct["99.000000"],
          f"interval percentiles: {pct}")
    check(one["read"]["bw"] == one["read"]["bw_bytes"] // 1024, "bw is KiB/s")
    check(all("elapsed_ms" in l and "time_ms" in l for l in lines), "timestamps")
    interval_sums(lines, doc)


def t_status_interval_stdout(tmp):
    """Without --status-file the lines go to stdout, before the report."""
    cfg = jobfile(tmp, job("s", ioengine="psync", rw="write", bs="4k", size="4m",
                           filename=os.path.join(tmp, "fs"), runtime="1200ms", time_based=True))
    p = run(["--status-interval=1", cfg])
    expect_ok(p, "status-interval on stdout")
    out = p.stdout.splitlines()
    ivs = [json.loads(l) for l in out if l.startswith('{"type":"interval"')]
    check(len(ivs) >= 2, f"{len(ivs)} lines on stdout")
    first_report = next(i for i, l in enumerate(out) if l.startswith("s: (groupid="))
    check(all(l.startswith('{"type"') for l in out[:first_report] if l.strip()),
          "interval lines precede the report")
    p = run(["--status-interval=0", cfg])
    check(p.returncode == 2 and "--status-interval" in p.stderr, "0 is refused")
    p = run(["--status-interval=1", "--status-file=/nonexistent/dir/x", cfg])
    check(p.returncode == 2 and "/nonexistent/dir/x" in p.stderr, "bad status file: exit 2")


# ---- logs ---------------------------------------------------------------------------

def read_log(path):
    rows = []
    for line in open(path):
        rows.append([int(x) for x in line.split(",")])
    return rows


def t_logs_avg(tmp):
    """log_avg_msec windows: fio's names and columns, one row per direction per window."""
    cfg = jobfile(tmp, job("lj", ioengine="psync", rw="randrw", bs="4k", size="8m",
                           filename=os.path.join(tmp, "fl"), runtime="2s", time_based=True,
                           write_bw_log="avg", write_iops_log="avg", write_lat_log="avg",
                           log_avg_msec=500))
    p = run(["--output-format=json", cfg], cwd=tmp)
    expect_ok(p, "averaged logs")
    doc = json.loads(p.stdout)
    names = sorted(n for n in os.listdir(tmp) if n.endswith(".log"))
    check(names == ["avg_bw.1.log", "avg_clat.1.log", "avg_iops.1.log", "avg_lat.1.log",
                    "avg_slat.1.log"], f"log files: {names}")
    if shutil.which("fio"):
        fdir = os.path.join(tmp, "fio")
        os.mkdir(fdir)
        fio_json(["--name=x", "--rw=randrw", "--size=4m", "--filename=ff", "--runtime=1",
                  "--time_based", "--write_bw_log=avg", "--write_iops_log=avg",
                  "--write_lat_log=avg", "--log_avg_msec=500"], cwd=fdir)
        fnames = sorted(n for n in os.listdir(fdir) if n.endswith(".log"))
        if fnames:
            check(fnames == names, f"fio names its logs {fnames}, we {names}")
            frow = open(os.path.join(fdir, "avg_bw.1.log")).readline()
            check(not frow or len(frow.split(",")) == 5, f"fio's averaged rows: {frow!r}")
    j = doc["jobs"][0]
    for kind in ("bw", "iops", "lat", "clat"):
        rows = read_log(os.path.join(tmp, f"avg_{kind}.1.log"))
        check(all(len(r) == 5 for r in rows), f"{kind}: 5 columns (time, value, ddir, bs, prio)")
        check(all(r[3] == 0 and r[4] == 0 for r in rows), f"{kind}: bs and prio are 0")
        for d in (0, 1):
            dr = [r for r in rows if r[2] == d]
            check(3 <= len(dr) <= 5, f"{kind} ddir {d}: {len(dr)} rows for 2 s / 500 ms")
            check(all(r[0] % 500 == 0 for r in dr[:-1]), f"{kind}: window times {dr}")
            check(all(r[1] > 0 for r in dr), f"{kind}: zero values {dr}")
        if kind == "iops":
            for d, name in ((0, "read"), (1, "write")):
                vals = [r[1] for r in rows if r[2] == d]
                mean = j[name]["iops"]
                check(min(vals) * 0.8 <= mean <= max(vals) * 1.2,
                      f"{name} iops {mean} outside logged {min(vals)}..{max(vals)}")
        if kind == "lat":
            vals = [r[1] for r in rows if r[2] == 0]
            mean = j["read"]["lat_ns"]["mean"]
            check(min(vals) * 0.8 <= mean <= max(vals) * 1.2,
                  f"read lat mean {mean} outside logged {min(vals)}..{max(vals)}")
    check(os.path.getsize(os.path.join(tmp, "avg_slat.1.log")) == 0,
          "a sync engine has no submission latency (fio leaves the file empty)")


def t_logs_per_io(tmp):
    """log_avg_msec=0: one row per I/O, with offsets when log_offset is set."""
    size = 2 << 20
    cfg = jobfile(tmp, job("pj", ioengine="psync", rw="randwrite", bs="4k", size="2m",
                           filename=os.path.join(tmp, "fp"), write_bw_log="", write_lat_log="pio",
                           write_iops_log="pio", log_offset=True),
                  job("q", ioengine="psync", rw="read", bs="8k", size="1m",
                      filename=os.path.join(tmp, "fq"), write_iops_log="q2"))
    p = run(["--output-format=json", cfg], cwd=tmp)
    expect_ok(p, "per-I/O logs")
    doc = json.loads(p.stdout)
    n = doc["jobs"][0]["write"]["total_ios"]
    check(n == size // 4096, f"{n} I/Os")
    bw = read_log(os.path.join(tmp, "pj_bw.1.log"))   # empty prefix: the job name
    lat = read_log(os.path.join(tmp, "pio_lat.1.log"))
    clat = read_log(os.path.join(tmp, "pio_clat.1.log"))
    iops = read_log(os.path.join(tmp, "pio_iops.1.log"))
    for name, rows in (("bw", bw), ("lat", lat), ("clat", clat), ("iops", iops)):
        check(len(rows) == n, f"{name}: {len(rows)} rows for {n} I/Os")
        check(all(len(r) == 6 for r in rows), f"{name}: 6 columns with log_offset")
        check(all(r[2] == 1 and r[3] == 4096 and r[5] == 0 for r in rows), f"{name}: ddir/bs/prio")
    offs = sorted(r[4] for r in lat)
    check(offs == list(range(0, size, 4096)), "randwrite without norandommap: every block once")
    check(all(a[1] >= b[1] for a, b in zip(lat, clat)), "lat >= clat row by row")
    check(all(r[1] == 1 for r in iops), "per-I/O iops rows are 1")
    check(all(r[1] == 4096 * 1000000 // max(c[1], 1) for r, c in zip(bw, clat)),
          "per-I/O bw is bytes over clat, as fio")
    times = [r[0] for r in lat]
    check(times == sorted(times), "rows in completion order")
    q = read_log(os.path.join(tmp, "q2_iops.2.log"))
    check(len(q) == doc["jobs"][1]["read"]["total_ios"] and all(len(r) == 5 for r in q),
          "second job: its own numbered file, 5 columns")
    bad = jobfile(tmp, job("b", ioengine="psync", rw="read", size="1m",
                           filename=os.path.join(tmp, "fq"), write_bw_log="/nonexistent/dir/x"),
                  name="bad.cfg")
    p = run([bad])
    check(p.returncode == 2 and "/nonexistent/dir/x_bw.1.log" in p.stderr,
          f"a log that cannot be created fails the job before any I/O: {p.returncode} {p.stderr}")
    mean = sum(r[1] for r in lat) / len(lat)
    want = doc["jobs"][0]["write"]["lat_ns"]["mean"]
    check(abs(mean - want) <= 0.01 * want + 1, f"logged lat mean {mean} vs report {want}")


# ---- HTML -----------------------------------------------------------------------------

def png_pixels(path):
    """(width, height, rows of RGBA/RGB bytes) of an 8-bit non-interlaced PNG."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
            check(depth == 8 and ctype in (2, 6) and not inter, f"PNG type {depth}/{ctype}/{inter}")
            bpp = 4 if ctype == 6 else 3
        elif typ == b"IDAT":
            idat += body
        pos += 12 + ln
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        ft, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ft == 1:
                line[x] = (line[x] + a) & 255
            elif ft == 2:
                line[x] = (line[x] + b) & 255
            elif ft == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ft == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows, bpp


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return name
    return None


def t_html(tmp):
    """--report-html: self-contained, renders in headless Chromium, screenshot not blank."""
    html = os.path.join(tmp, "report.html")
    cfg = jobfile(tmp, job("web", ioengine="psync", rw="randrw", bs="4k", size="8m",
                           filename=os.path.join(tmp, "fh"), runtime="2s", time_based=True),
                  job("seq <&>", ioengine="psync", rw="read", bs="64k", size="8m",
                      filename=os.path.join(tmp, "fh2"), runtime="1s", time_based=True,
                      stonewall=True))
    p = run(["--output-format=json", f"--report-html={html}", cfg])
    expect_ok(p, "html run")
    doc = json.loads(p.stdout)
    page = open(html).read()
    check(page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>"), "document")
    for bad in ("<script", " src=", "href=", "@import", "url("):
        check(bad not in page, f"the page must fetch nothing: found {bad!r}")
    check("seq &lt;&amp;&gt;" in page and "seq <&>" not in page, "job names are escaped")
    # web: bw, iops, percentiles, read and write histograms; seq: bw, iops, pct, read
    check(page.count("<svg") == 5 + 4, f"{page.count('<svg')} charts")
    for cls in ("bw-time", "iops-time", "lat-pct", "lat-hist"):
        check(f'class="chart {cls}"' in page, f"no {cls} chart")
    web = doc["jobs"][0]
    check(f"{round(web['read']['iops'])}" in page or "k</td>" in page, "summary IOPS")
    br = chromium()
    if not br:
        raise Skip("HTML written and checked; Chromium is not installed, so not rendered")
    prof = os.path.join(tmp, "profile")
    flags = [br, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run",
             f"--user-data-dir={prof}", "--enable-logging=stderr", "--v=0"]
    url = "file://" + html
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120)
    check(dom.returncode == 0, f"chromium --dump-dom failed: {dom.stderr[-2000:]}")
    check('id="summary"' in dom.stdout and dom.stdout.count("<svg") == page.count("<svg"),
          "the rendered DOM lacks the summary or charts")
    check(dom.stdout.count("<polyline") >= 3 * 2, "line charts rendered")
    errs = [l for l in dom.stderr.splitlines() if "CONSOLE" in l or "Uncaught" in l]
    check(not errs, f"console errors: {errs}")
    shot = os.path.join(tmp, "shot.png")
    s = subprocess.run(flags + [f"--screenshot={shot}", "--window-size=1280,1600",
                                "--hide-scrollbars", url],
                       capture_output=True, text=True, timeout=120, cwd=tmp)
    check(s.returncode == 0 and os.path.exists(shot), f"no screenshot: {s.stderr[-2000:]}")
    w, h, rows, bpp = png_pixels(shot)
    check((w, h) == (1280, 1600), f"screenshot {w}x{h}")
    colors = set()
    for r in rows[::16]:
        for x in range(0, len(r), bpp * 8):
            colors.add(r[x:x + 3])
    check(len(colors) > 8, f"the screenshot looks blank ({len(colors)} colours)")
    # the chart colours of read (blue) and write (red) lines are on the page
    check(any(c[2] > 150 and c[0] < 90 for c in colors), "no blue read line rendered")
    keep = os.environ.get("IORIG_KEEP_SCREENSHOT")
    if keep:
        shutil.copy(shot, keep)


# ---- progress -------------------------------------------------------------------------

PROGRESS = re.compile(r"Jobs: (\d+) \(f=(\d+)\): \[([^\]]+)\]\[(\d+\.\d|-\.-)%\]"
                      r"\[r=[0-9.]+[KMGT]?i?B/s\]\[r=[0-9.]+[kMG]? IOPS\]\[eta (\d\dm:\d\ds|--m:--s)\]")


def progress_cfg(tmp):
    return jobfile(tmp, job("pg", ioengine="psync", rw="randread", bs="4k", size="8m",
                            filename=os.path.join(tmp, "fpg"), runtime="2500ms", time_based=True))


def run_with_pty_stderr(args):
    """Run iorig with stderr on a pseudo-terminal, stdout on a pipe."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([IORIG] + args, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    tty, deadline = b"", time.time() + 60
    while time.time() < deadline:
        r, _, _ = select.select([master], [], [], 0.5)
        if r:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            tty += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode()
    proc.wait(timeout=30)
    os.close(master)
    return proc.returncode, out, tty.decode(errors="replace")


def t_progress_tty(tmp):
    """On a terminal: fio's progress line, redrawn in place, erased before the report."""
    cfg = progress_cfg(tmp)
    rc, out, tty = run_with_pty_stderr([cfg])
    check(rc == 0, f"exit {rc}: {tty}")
    frames = [f for f in tty.split("\r") if f.strip()]
    m = [PROGRESS.search(f) for f in frames]
    good = [x for x in m if x]
    check(len(good) >= 2, f"no progress lines on the terminal: {tty!r}")
    check(all(g.group(1) == "1" and g.group(2) == "1" and g.group(3) == "r(1)" for g in good),
          f"jobs/files/status: {[g.group(0) for g in good]}")
    pcts = [float(g.group(4)) for g in good]
    check(pcts == sorted(pcts) and pcts[-1] > 30, f"percent done {pcts}")
    check(tty.rstrip(" ").endswith("\r"), "the line is erased at the end")
    check("Jobs:" not in out and "pg: (groupid=0" in out, "stdout holds the report only")
    rc, out, tty = run_with_pty_stderr(["--eta=never", cfg])
    check(rc == 0 and "Jobs:" not in tty, f"--eta=never still draws: {tty!r}")


def t_progress_not_tty(tmp):
    """No terminal: no progress line, unless --eta=always."""
    cfg = progress_cfg(tmp)
    p = run([cfg])
    expect_ok(p, "run without a terminal")
    check("Jobs:" not in p.stderr and "Jobs:" not in p.stdout, f"progress on a pipe: {p.stderr!r}")
    p = run(["--eta=always", cfg])
    expect_ok(p, "--eta=always")
    check(PROGRESS.search(p.stderr), f"--eta=always draws on a pipe too: {p.stderr!r}")
    p = run(["--eta=sometimes", cfg])
    check(p.returncode == 2 and "auto, always, never" in p.stderr, "bad --eta value")


# ---- safety ---------------------------------------------------------------------------

def write_job(tmp, dev, name="w.cfg", **extra):
    return jobfile(tmp, job("w", ioengine="psync", rw="write", bs="64k", size="1m",
                            filename=dev, direct=True, **extra), name=name)


def read_job(tmp, dev):
    return jobfile(tmp, job("r", ioengine="psync", rw="read", bs="64k", size="1m",
                            filename=dev, direct=True), name="r.cfg")


def refused(p, *words):
    check(p.returncode == 2, f"expected a refusal (exit 2), got {p.returncode}\n{p.stderr}")
    for w in words:
        check(w in p.stderr, f"the refusal does not say {w!r}: {p.stderr}")


def t_safety_signature(tmp):
    """Blank device: written.  ext4 or a partition table: refused unless overwrite_device."""
    need_root_loop()
    with Loop(tmp) as lo:
        expect_ok(run([write_job(tmp, lo.dev)]), "blank device")
        mkfs_ext4(lo.dev)
        p = run([write_job(tmp, lo.dev)])
        refused(p, "ext4 filesystem signature", lo.dev, "overwrite_device=1")
        expect_ok(run([read_job(tmp, lo.dev)]), "reading a device with a filesystem")
        trim = jobfile(tmp, job("t", ioengine="psync", rw="trim", bs="64k", size="1m",
                                filename=lo.dev), name="t.cfg")
        check(run([trim]).returncode == 2, "trims count as writes")
        expect_ok(run([write_job(tmp, lo.dev, overwrite_device=True)]), "overwrite_device=1")
        with open(lo.dev, "r+b") as f:  # wipe what is left of the superblock
            f.write(bytes(1 << 20))
            f.seek(0)
            os.fsync(f.fileno())
        subprocess.run(["wipefs", "-a", "-q", lo.dev], capture_output=True)
        write_mbr(lo.dev, [(2048, 4096)])
        p = run([write_job(tmp, lo.dev)])
        refused(p, "dos partition table")
        expect_ok(run([write_job(tmp, lo.dev, allow_mounted_write=True)]), "allow_mounted_write=1")


def t_safety_mounted(tmp):
    """Mounted ext4: refused even with overwrite_device, allowed by allow_mounted_write."""
    need_root_loop()
    with Loop(tmp) as lo:
        mkfs_ext4(lo.dev)
        mnt = os.path.join(tmp, "mnt")
        lo.mount(lo.dev, mnt)
        refused(run([write_job(tmp, lo.dev)]), "mounted on", mnt, "allow_mounted_write=1")
        refused(run([write_job(tmp, lo.dev, overwrite_device=True)]), "mounted on")
        expect_ok(run([read_job(tmp, lo.dev)]), "reading a mounted device")
        # far from the superblock: the kernel's view of the filesystem survives
        cfg = jobfile(tmp, job("w", ioengine="psync", rw="write", bs="64k", size="1m",
                               offset="48m", filename=lo.dev, direct=True,
                               allow_mounted_write=True))
        expect_ok(run([cfg]), "allow_mounted_write=1")


def t_safety_partition(tmp):
    """A partition of a disk with a mounted partition, and the disk itself: refused."""
    need_root_loop()
    with Loop(tmp, partscan=True) as lo:
        write_mbr(lo.img, [(2048, 40960), (43008, 40960)])
        p1, p2 = partition_nodes(tmp, lo.dev)
        expect_ok(run([write_job(tmp, p2)]), "blank partition of an unused disk")
        mkfs_ext4(p1)
        mnt = os.path.join(tmp, "mnt")
        lo.mount(p1, mnt)
        disk = os.path.basename(lo.dev)
        refused(run([write_job(tmp, p2)]), "partition of", disk, "mounted on")
        refused(run([write_job(tmp, lo.dev)]), "mounted on", f"{disk}p1")
        refused(run([write_job(tmp, p1)]), "mounted on")
        expect_ok(run([read_job(tmp, p2)]), "reads stay allowed")
        expect_ok(run([write_job(tmp, p2, allow_mounted_write=True)]), "allow_mounted_write=1")


if __name__ == "__main__":
    sys.exit(main(globals(), "iorig-rep-"))
