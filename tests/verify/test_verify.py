#!/usr/bin/env python3
"""End-to-end tests of verification, rate limiting and workload shaping.

Usage: test_verify.py TEST_NAME   (exit 0 pass, 1 fail, 77 skip)
Environment: IORIG (the binary), VT_FAULT (the vt_fault test engine .so).
"""
import collections
import hashlib
import os
import re
import statistics
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from iorig_test import (  # noqa: E402
    check, job_entry, jobs_text, main, run, run_jobfile, write_cfg)

VT = os.environ.get("VT_FAULT", "vt_fault")
KINDS = ("corrupted", "torn", "misdirected", "stale", "never_written")
# The block header (core/verify.h): 96 bytes, little-endian.
HDR = struct.Struct("<IHBBIIQQQQQII32s")
MAGIC = 0x56524F49
TYPES = ("none", "crc32c", "xxh64", "xxh3", "sha256", "md5", "pattern")


def cfg_text(*jobs):
    """A job file of the jobs, each a dict of options."""
    return jobs_text([job_entry(j) for j in jobs])


def run_jobs(tmp, *jobs, rc=0, name="job.cfg"):
    """Run the jobs (dicts of options): the JSON report and stderr, exit code checked."""
    doc, p = run_jobfile(tmp, cfg_text(*jobs), rc, name, timeout=240)
    return doc, p.stderr


def bad_counts(job):
    return {k: v for k, v in job["verify"]["bad"].items() if v}


def engines():
    p = run(["engines"])
    return set(re.findall(r"^\s*(\w+)\s", p.stdout, re.M))


def records(path, instance=0):
    out = []
    with open(f"{path}.{instance}") as f:
        for line in f:
            d, off, ln = line.split()
            out.append((d, int(off), int(ln)))
    return out


# ---- crc32c, as an independent oracle of the header checksum -----------------

def _crc32c_table():
    t = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        t.append(c)
    return t


CRC_T = _crc32c_table()


def crc32c(data, crc=0xFFFFFFFF):
    for b in data:
        crc = CRC_T[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc


def crc32c_final(data):
    return crc32c(data) ^ 0xFFFFFFFF


def header(block):
    f = HDR.unpack_from(block)
    keys = ("magic", "version", "type", "flags", "len", "gen", "offset", "job_key", "seq",
            "seed", "time_ns", "file_index", "hdr_crc", "csum")
    return dict(zip(keys, f))


# ---- verification -------------------------------------------------------------

def t_verify_types(tmp):
    """Every checksum type round-trips; headers and checksums check out independently."""
    for vt in TYPES[1:]:
        f = os.path.join(tmp, f"data.{vt}")
        job = {"name": "w", "ioengine": "psync", "rw": "randwrite", "bs": "4k", "size": "1m",
               "filename": f, "verify": vt}
        if vt == "pattern":
            job["verify_pattern"] = "0xdeadbeef"
        doc, _ = run_jobs(tmp, job)
        j = doc["jobs"][0]
        check(j["error"] == 0, f"{vt}: error {j['error']}")
        check(j["verify"]["blocks"] == 256 and j["verify"]["errors"] == 0,
              f"{vt}: verify section {j['verify']}")
        check(j["verify"]["type"] == vt, f"{vt}: type {j['verify']['type']}")
        data = open(f, "rb").read()
        for blk in range(0, 256, 17):
            b = data[blk * 4096:(blk + 1) * 4096]
            h = header(b)
            check(h["magic"] == MAGIC and h["version"] == 1, f"{vt}: block {blk} magic/version")
            check(h["type"] == TYPES.index(vt), f"{vt}: block {blk} type {h['type']}")
            check(h["offset"] == blk * 4096 and h["len"] == 4096, f"{vt}: block {blk} {h}")
            check(h["gen"] == 1, f"{vt}: block {blk} generation {h['gen']}")
            hc = crc32c_final(b[:60] + b[64:96])
            check(hc == h["hdr_crc"], f"{vt}: block {blk} header crc {hc:#x} != {h['hdr_crc']:#x}")
            payload = b[96:]
            if vt == "sha256":
                check(h["csum"] == hashlib.sha256(payload).digest(), f"block {blk}: sha256")
            elif vt == "md5":
                check(h["csum"][:16] == hashlib.md5(payload).digest(), f"block {blk}: md5")
            elif vt == "crc32c":
                check(struct.unpack_from("<I", h["csum"])[0] == crc32c_final(payload),
                      f"block {blk}: crc32c")
            elif vt == "pattern":
                check(payload == bytes.fromhex("deadbeef") * 1000, f"block {blk}: pattern")
        print(f"{vt}: ok")


def fault_job(f, **kw):
    job = {"name": "v", "ioengine": VT, "rw": "write", "bs": "4k", "size": "256k",
           "filename": f, "verify": "crc32c"}
    job.update(kw)
    return job


def t_verify_kinds(tmp):
    """Each kind of damage, injected between write and verify, is found and named."""
    cases = [
        ("corrupt", {"fault": "corrupt"}, {"corrupted": 1}),
        ("torn", {"fault": "torn"}, {"torn": 1}),
        ("torn over an older generation", {"fault": "torn", "loops": 2, "fault_write": 2},
         {"torn": 1}),
        ("lost write", {"fault": "lost", "loops": 2, "fault_write": 2}, {"stale": 1}),
        ("never written", {"fault": "lost"}, {"never_written": 1}),
        ("zeroed", {"fault": "zero"}, {"never_written": 1}),
        ("misdirected", {"fault": "misdirect", "fault_target": "16k"},
         {"misdirected": 1, "never_written": 1}),
    ]
    for i, (what, kw, want) in enumerate(cases):
        f = os.path.join(tmp, f"k{i}")
        doc, err = run_jobs(tmp, fault_job(f, fault_offset="64k", **kw), rc=1)
        j = doc["jobs"][0]
        got = bad_counts(j)
        check(got == want, f"{what}: bad blocks {got}, expected {want}\n{err}")
        check(j["error"] != 0, f"{what}: job error not set")
        check(j["verify"]["blocks"] >= 64, f"{what}: only {j['verify']['blocks']} blocks checked")
        kind = next(iter(want)) if len(want) == 1 else "misdirected"
        off = 16384 if kind == "misdirected" else 65536
        check(re.search(rf"job 'v'.*{re.escape(f)}, offset {off}, length 4096: {kind}", err),
              f"{what}: stderr does not name job, file, offset, length and kind:\n{err}")
        check("expected: offset=" in err and "found:" in err, f"{what}: no field comparison")
        check(kind in j["verify"]["first_error"], f"{what}: first_error {j['verify']['first_error']}")
        print(f"{what}: {got}")
    # Bit flip: the report shows the first differing byte.
    check(re.search(r"first difference at byte 1000 of the block", open_err(tmp)),
          "the corrupted block's first differing byte is not named")


def open_err(tmp):
    f = os.path.join(tmp, "flip")
    _, err = run_jobs(tmp, fault_job(f, fault="corrupt", fault_offset="8k"), rc=1, name="flip.cfg")
    return err


def write_then_damage(tmp, f, vtype="xxh3"):
    job = {"name": "w", "ioengine": "psync", "rw": "randwrite", "bs": "4k", "size": "1m",
           "filename": f, "verify": vtype, "do_verify": False}
    doc, _ = run_jobs(tmp, job, name="write.cfg")
    check(doc["jobs"][0]["verify"]["blocks"] == 0, "do_verify=0 still verified")
    return job


def damage(f):
    """One of each kind, done to the file at rest."""
    data = bytearray(open(f, "rb").read())
    B = 4096
    data[3 * B + 500] ^= 0x01                                   # corrupted
    data[6 * B:7 * B] = data[5 * B:6 * B]                       # misdirected
    data[9 * B + 2048:10 * B] = data[20 * B + 2048:21 * B]      # torn
    data[12 * B:13 * B] = bytes(B)                              # never written: zeros
    data[14 * B:15 * B] = os.urandom(B)                         # never written: foreign
    open(f, "wb").write(data)


def t_verify_offline(tmp):
    """verify_only checks another process's blocks from their headers alone."""
    f = os.path.join(tmp, "data")
    job = write_then_damage(tmp, f)
    vo = dict(job, verify_only=True, rw="randwrite")
    doc, _ = run_jobs(tmp, vo, name="vo.cfg")
    j = doc["jobs"][0]
    check(j["verify"]["blocks"] == 256 and j["verify"]["errors"] == 0, f"clean: {j['verify']}")
    check(j["read"]["io_bytes"] == 1 << 20, f"verify_only read {j['read']['io_bytes']} bytes")
    check(j["write"]["io_bytes"] == 0, "verify_only wrote")
    before = open(f, "rb").read()
    damage(f)
    doc, err = run_jobs(tmp, vo, rc=1, name="vo.cfg")
    got = bad_counts(doc["jobs"][0])
    want = {"corrupted": 1, "misdirected": 1, "torn": 1, "never_written": 2}
    check(got == want, f"bad blocks {got}, expected {want}\n{err}")
    check(open(f, "rb").read() != before, "damage not applied")
    # Blocks of another job are misdirected, not good.
    doc, _ = run_jobs(tmp, dict(vo, name="other"), rc=1, name="other.cfg")
    check(doc["jobs"][0]["verify"]["bad"]["misdirected"] >= 250, "another job's blocks passed")


def t_verify_fatal(tmp):
    f = os.path.join(tmp, "data")
    job = write_then_damage(tmp, f)
    damage(f)
    vo = dict(job, verify_only=True, verify_fatal=True)
    doc, err = run_jobs(tmp, vo, rc=1, name="vo.cfg")
    j = doc["jobs"][0]
    check(j["verify"]["errors"] == 1, f"verify_fatal counted {j['verify']['errors']} bad blocks")
    check("verify_fatal" in err, err)


def t_verify_dump(tmp):
    """verify_dump writes the block found and the block expected."""
    f = os.path.join(tmp, "data")
    job = write_then_damage(tmp, f, "sha256")
    orig = open(f, "rb").read()[3 * 4096:4 * 4096]
    data = bytearray(open(f, "rb").read())
    data[3 * 4096 + 777] ^= 0x80
    open(f, "wb").write(data)
    dump = os.path.join(tmp, "dump")
    os.mkdir(dump)
    doc, err = run_jobs(tmp, dict(job, verify_only=True, verify_dump=True, directory=dump),
                        rc=1, name="vo.cfg")
    rec = os.path.join(dump, "data.12288.received")
    exp = os.path.join(dump, "data.12288.expected")
    check(os.path.exists(rec) and os.path.exists(exp), f"dump files missing: {os.listdir(dump)}")
    check(open(rec, "rb").read() == bytes(data[3 * 4096:4 * 4096]), "received != block on disk")
    check(open(exp, "rb").read() == orig, "expected != the block as written")
    check(rec in err, f"dump not mentioned: {err}")


def t_verify_backlog(tmp):
    """verify_backlog checks blocks while writing; damage is caught inline."""
    f = os.path.join(tmp, "data")
    doc, _ = run_jobs(tmp, {"name": "b", "ioengine": "psync", "rw": "randwrite", "bs": "4k",
                            "size": "2m", "filename": f, "verify": "crc32c",
                            "verify_backlog": 32, "do_verify": False})
    j = doc["jobs"][0]
    check(j["verify"]["blocks"] == 512 and j["verify"]["errors"] == 0, f"{j['verify']}")
    check(j["read"]["io_bytes"] == 2 << 20, f"inline reads {j['read']['io_bytes']}")
    g = os.path.join(tmp, "fault")
    doc, _ = run_jobs(tmp, fault_job(g, fault="corrupt", fault_offset="0", verify_backlog=16,
                                     do_verify=False), rc=1, name="f.cfg")
    check(bad_counts(doc["jobs"][0]) == {"corrupted": 1}, f"{doc['jobs'][0]['verify']}")


def t_verify_engines(tmp):
    """Long verified runs with overwrites and mixed sizes find nothing, on every engine."""
    have = engines()
    ran = 0
    for eng in ("psync", "libaio", "io_uring", "mmap", "splice", VT):
        if eng != VT and eng not in have:
            print(f"{eng}: not built, skipped")
            continue
        base = {"ioengine": eng, "size": "16m", "iodepth": 16}
        jobs = [
            dict(base, name="rand", rw="randwrite", bssplit="4k/50:16k/50", verify="xxh64",
                 filename=os.path.join(tmp, "r"), runtime="2s", time_based=True),
            dict(base, name="seq", rw="write", bsrange="4k-32k", verify="md5", loops=3,
                 filename=os.path.join(tmp, "s")),
            dict(base, name="mix", rw="randrw", rwmixread=30, bs="8k", verify="sha256",
                 norandommap=True, filename=os.path.join(tmp, "m"), io_size="48m"),
        ]
        doc, err = run_jobs(tmp, *jobs, name=f"{os.path.basename(eng)}.cfg")
        for j in doc["jobs"]:
            v = j["verify"]
            check(j["error"] == 0 and v["errors"] == 0 and v["blocks"] > 100,
                  f"{eng} {j['jobname']}: {v}\n{err}")
        print(eng, [(j["jobname"], j["verify"]["blocks"]) for j in doc["jobs"]])
        ran += 1
    check(ran >= 2, "fewer than two engines ran")


def t_verify_report(tmp):
    """The normal report has a verify line; the JSON a verify section per job."""
    f = os.path.join(tmp, "data")
    job = write_then_damage(tmp, f)
    damage(f)
    cfg = write_cfg(tmp, cfg_text(dict(job, verify_only=True)))
    p = run([cfg])
    check(p.returncode == 1, f"exit {p.returncode}")
    m = re.search(r"^  verify       : blocks=256, bad=5 \(corrupted=1, torn=1, misdirected=1, "
                  r"never_written=2\)", p.stdout, re.M)
    check(m, f"no verify line:\n{p.stdout}")
    doc, _ = run_jobs(tmp, dict(job, verify_only=True), rc=1, name="j.cfg")
    v = doc["jobs"][0]["verify"]
    check(set(v["bad"]) == set(KINDS), f"kinds {v['bad']}")
    check(v["errors"] == 5 and v["bytes"] == 1 << 20, f"{v}")


# ---- rate limiting ------------------------------------------------------------

def achieved(d):
    return d["io_bytes"] / (d["runtime"] / 1000.0)


def t_rate_accuracy(tmp):
    """rate and rate_iops are met within 1.5% over 3 s on null and psync, depth 1 and 32."""
    f = os.path.join(tmp, "data")
    cases = []
    for eng in ("null", "psync"):
        for depth in (1, 32):
            cases.append((eng, depth, {"rate": "20m"}, 20 << 20, "bytes"))
    cases.append(("null", 32, {"rate_iops": 7000}, 7000, "ios"))
    cases.append(("null", 8, {"rate_iops": 5000, "rate_process": "poisson"}, 5000, "ios"))
    cases.append(("psync", 1, {"rate_iops": 3000}, 3000, "ios"))
    for eng, depth, kw, target, unit in cases:
        job = dict({"name": "r", "ioengine": eng, "rw": "randread", "bs": "4k", "size": "32m",
                    "filename": f, "runtime": "3s", "time_based": True, "iodepth": depth}, **kw)
        doc, _ = run_jobs(tmp, job)
        r = doc["jobs"][0]["read"]
        secs = doc["jobs"][0]["iorig"]["runtime_ns"] / 1e9
        got = (r["io_bytes"] if unit == "bytes" else r["total_ios"]) / secs
        err = abs(got - target) / target
        print(f"{eng} iodepth={depth} {kw}: {got:.0f} {unit}/s, {100 * err:.3f}% off")
        check(err < 0.015, f"{eng} iodepth={depth} {kw}: {got:.0f} vs {target} ({100 * err:.2f}%)")


def t_rate_directions(tmp):
    """Per-direction rates: reads and writes each meet their own cap."""
    doc, _ = run_jobs(tmp, {"name": "r", "ioengine": "null", "rw": "randrw", "rwmixread": 80,
                            "bs": "4k", "size": "64m", "runtime": "3s", "time_based": True,
                            "rate": "8m,2m", "iodepth": 4})
    j = doc["jobs"][0]
    secs = j["iorig"]["runtime_ns"] / 1e9
    for d, want in (("read", 8 << 20), ("write", 2 << 20)):
        got = j[d]["io_bytes"] / secs
        check(abs(got - want) / want < 0.02, f"{d}: {got:.0f} B/s, cap {want}")


def slow_job(**kw):
    job = {"name": "s", "ioengine": VT, "rw": "randread", "bs": "4k", "size": "4m",
           "runtime": "3s", "time_based": True, "async": True, "delay": "1ms"}
    job.update(kw)
    return job


def t_rate_ilat(tmp):
    """Latency from the intended issue time shows the backlog a slow device builds."""
    f = os.path.join(tmp, "data")
    open(f, "wb").write(os.urandom(4 << 20))
    doc, _ = run_jobs(tmp, slow_job(filename=f, rate_iops=1500, iodepth=8))
    r = doc["jobs"][0]["read"]
    lat, ilat = r["lat_ns"], r["iorig"]["lat_intended_ns"]
    print(f"over capacity: lat mean {lat['mean'] / 1e6:.2f} ms, intended {ilat['mean'] / 1e6:.2f} ms,"
          f" max {ilat['max'] / 1e6:.0f} ms")
    check(lat["mean"] < 12e6, f"latency from issue {lat['mean']} ns: the queue is only 8 deep")
    check(ilat["mean"] > 10 * lat["mean"], "intended-time latency does not show the backlog")
    check(ilat["max"] > 500e6, f"backlog of 500 I/Os/s for 3 s, intended max {ilat['max']}")
    check(ilat["N"] == r["total_ios"], "not every I/O has an intended-time latency")
    doc, _ = run_jobs(tmp, slow_job(filename=f, rate_iops=400, iodepth=8), name="ok.cfg")
    r = doc["jobs"][0]["read"]
    lat, ilat = r["lat_ns"], r["iorig"]["lat_intended_ns"]
    print(f"within capacity: lat {lat['mean'] / 1e6:.2f} ms, intended {ilat['mean'] / 1e6:.2f} ms")
    # No backlog: only wake-up delays (a few ms on a busy machine) separate the two.
    check(ilat["mean"] < lat["mean"] + 5e6, "intended-time latency without a backlog")
    cfg = write_cfg(tmp, cfg_text(slow_job(filename=f, rate_iops=400, iodepth=8)), "n.cfg")
    p = run([cfg])
    check(re.search(r"^    ilat \((usec|msec)\)", p.stdout, re.M), f"no ilat line:\n{p.stdout}")


def t_rate_no_quiesce(tmp):
    """Latency under rate_iops does not depend on iodepth (fio issue #635)."""
    f = os.path.join(tmp, "data")
    open(f, "wb").write(os.urandom(4 << 20))
    lat = {}
    for depth in (1, 32):
        doc, _ = run_jobs(tmp, slow_job(filename=f, rate_iops=300, iodepth=depth, runtime="2s"),
                          name=f"d{depth}.cfg")
        r = doc["jobs"][0]["read"]
        lat[depth] = r["lat_ns"]["mean"]
        check(abs(r["total_ios"] / 2.0 - 300) < 15, f"depth {depth}: {r['total_ios']} I/Os in 2 s")
    print(f"lat mean: depth 1 {lat[1] / 1e6:.3f} ms, depth 32 {lat[32] / 1e6:.3f} ms")
    check(lat[32] < 1.3 * lat[1] and lat[32] < 2e6, f"latency grows with iodepth: {lat}")


def t_rate_min(tmp):
    """A rate floor that is not met fails the job with a clear message."""
    f = os.path.join(tmp, "data")
    open(f, "wb").write(os.urandom(1 << 20))
    job = {"name": "m", "ioengine": VT, "rw": "randread", "bs": "4k", "size": "1m",
           "filename": f, "runtime": "3s", "time_based": True, "delay": "2ms",
           "rate_iops_min": 1000, "rate_cycle": "500ms"}
    doc, err = run_jobs(tmp, job, rc=1)
    j = doc["jobs"][0]
    check(j["error"] != 0, "job did not fail")
    check(re.search(r"read rate \d+ IOPS over the last 0\.5\d* s is below rate_iops_min=1000", err),
          f"message: {err}")
    check(j["read"]["runtime"] < 1500, f"job ran {j['read']['runtime']} ms past the failed cycle")
    job.update(rate_iops_min=0, rate_min="1m")
    doc, err = run_jobs(tmp, job, name="ok.cfg")
    check(doc["jobs"][0]["error"] == 0, err)


def t_thinktime(tmp):
    """thinktime pauses after thinktime_blocks I/Os; thinktime_spin burns CPU instead."""
    base = {"name": "t", "ioengine": "null", "rw": "read", "bs": "4k", "size": "1m",
            "runtime": "2s", "time_based": True, "thinktime": "1ms", "thinktime_blocks": 4}
    doc, _ = run_jobs(tmp, base)
    j = doc["jobs"][0]
    iops = j["read"]["iops"]
    print(f"sleeping: {iops:.0f} IOPS, cpu {j['usr_cpu'] + j['sys_cpu']:.1f}%")
    # At most 4 I/Os per ms; sleeping may overshoot on a busy machine.
    check(2000 < iops <= 4050, f"{iops} IOPS with 4 I/Os per 1 ms")
    cpu_sleep = j["usr_cpu"] + j["sys_cpu"]
    check(cpu_sleep < 40, "thinktime without spin used the CPU")
    doc, _ = run_jobs(tmp, dict(base, thinktime_spin="1ms"), name="spin.cfg")
    j = doc["jobs"][0]
    print(f"spinning: {j['read']['iops']:.0f} IOPS, cpu {j['usr_cpu'] + j['sys_cpu']:.1f}%")
    # A busy machine preempts a spinning thread: bounds, not exact figures.
    check(1000 < j["read"]["iops"] <= 4050, f"{j['read']['iops']} IOPS when spinning")
    check(j["usr_cpu"] + j["sys_cpu"] > max(8, 4 * cpu_sleep), "thinktime_spin did not spin")


# ---- workload shaping -----------------------------------------------------------

def rec_job(tmp, **kw):
    f = os.path.join(tmp, "data")
    if not os.path.exists(f):
        with open(f, "wb") as fh:
            fh.truncate(8 << 20)
    job = {"name": "s", "ioengine": VT, "bs": "4k", "size": "4m", "filename": f,
           "record": os.path.join(tmp, "rec")}
    job.update(kw)
    return job


def t_bssplit(tmp):
    run_jobs(tmp, rec_job(tmp, rw="randwrite", size="64m", bssplit="4k/25:16k/75",
                          norandommap=True))
    sizes = collections.Counter(r[2] for r in records(os.path.join(tmp, "rec")))
    n = sum(sizes.values())
    check(set(sizes) == {4096, 16384}, f"sizes {sizes}")
    share = sizes[4096] / n
    print(f"{n} I/Os, 4k share {share:.4f}")
    check(abs(share - 0.25) < 0.02, f"4k share {share}")
    run_jobs(tmp, rec_job(tmp, rw="randrw", size="16m", bssplit="4k/50:8k/50,64k",
                          norandommap=True, record=os.path.join(tmp, "rec2")), name="d.cfg")
    recs = records(os.path.join(tmp, "rec2"))
    rs = collections.Counter(r[2] for r in recs if r[0] == "R")
    ws = collections.Counter(r[2] for r in recs if r[0] == "W")
    check(set(rs) == {4096, 8192} and set(ws) == {65536}, f"reads {rs}, writes {ws}")
    check(abs(rs[4096] / sum(rs.values()) - 0.5) < 0.05, f"read split {rs}")


def t_rwmix(tmp):
    """The read/write mix is held within 1% (bounded credit, docs/job-file.md)."""
    for kw, want in (({"rwmixread": 70}, 0.70), ({"rwmixwrite": 20}, 0.80),
                     ({"rwmixread": 33}, 0.33)):
        for extra in ({"size": "8m"}, {"size": "64m", "runtime": "1s", "time_based": True}):
            doc, _ = run_jobs(tmp, dict({"name": "m", "ioengine": "null", "rw": "randrw",
                                         "bs": "4k"}, **kw, **extra))
            j = doc["jobs"][0]
            r, w = j["read"]["total_ios"], j["write"]["total_ios"]
            share = r / (r + w)
            check(abs(share - want) < 0.01, f"{kw} {extra}: read share {share:.4f}")
            print(kw, extra, f"{r + w} I/Os, read share {share:.4f}")


def offsets(tmp, dist, n_ios=50000, size="4m", name="rec", **kw):
    rec = os.path.join(tmp, name)
    run_jobs(tmp, rec_job(tmp, rw="randread", random_distribution=dist, size=size,
                          io_size=f"{n_ios * 4}k", record=rec, **kw), name=f"{name}.cfg")
    return [r[1] for r in records(rec)]


def t_zipf(tmp):
    """zipf:1.2 block frequencies follow rank^-1.2."""
    offs = offsets(tmp, "zipf:1.2")
    freq = sorted(collections.Counter(offs).values(), reverse=True)
    n = 1024
    h = sum(k ** -1.2 for k in range(1, n + 1))
    for k in (2, 4, 8):
        ratio = freq[0] / freq[k - 1]
        print(f"f1/f{k} = {ratio:.2f} (zipf: {k ** 1.2:.2f})")
        check(abs(ratio / k ** 1.2 - 1) < 0.15, f"f1/f{k} = {ratio}")
    top = sum(freq[:10]) / len(offs)
    want = sum(k ** -1.2 for k in range(1, 11)) / h
    print(f"top 10 blocks: {top:.4f} of accesses (zipf: {want:.4f})")
    check(abs(top - want) < 0.02, f"top-10 share {top} vs {want}")
    # The hot blocks are scattered, not the first blocks of the file.
    hot = [o for o, _ in collections.Counter(offs).most_common(10)]
    check(max(hot) > 64 * 4096, f"hot blocks all at the start: {hot}")


def t_pareto(tmp):
    offs = offsets(tmp, "pareto:0.8")
    freq = sorted(collections.Counter(offs).values(), reverse=True)
    share = sum(freq[:int(0.2 * 1024)]) / len(offs)
    print(f"hottest 20% of blocks: {share:.4f} of accesses")
    check(abs(share - 0.8) < 0.025, f"pareto:0.8 hot share {share}")


def t_normal(tmp):
    offs = [o / (4 << 20) for o in offsets(tmp, "normal:10")]
    mean, sd = statistics.fmean(offs), statistics.pstdev(offs)
    print(f"mean {mean:.4f}, sd {sd:.4f} of the region")
    check(abs(mean - 0.5) < 0.01 and abs(sd - 0.10) < 0.01, f"normal:10: mean {mean}, sd {sd}")


def t_zoned(tmp):
    offs = [o / (4 << 20) for o in offsets(tmp, "zoned:60/10:30/20:10/70")]
    n = len(offs)
    z = (sum(o < 0.1 for o in offs) / n, sum(0.1 <= o < 0.3 for o in offs) / n,
         sum(o >= 0.3 for o in offs) / n)
    print(f"zone shares {z}")
    for got, want in zip(z, (0.6, 0.3, 0.1)):
        check(abs(got - want) < 0.015, f"zones {z}")
    offs = offsets(tmp, "zoned_abs:50/1m:50/3m", name="abs")
    lo = sum(o < (1 << 20) for o in offs) / len(offs)
    check(abs(lo - 0.5) < 0.015, f"zoned_abs first zone share {lo}")


def t_percentage_random(tmp):
    for pct, lo, hi in ((50, 0.47, 0.53), (0, 0.99, 1.0), (100, 0.0, 0.01)):
        rec = os.path.join(tmp, f"p{pct}")
        run_jobs(tmp, rec_job(tmp, rw="randread", percentage_random=pct, io_size="80m",
                              record=rec), name=f"p{pct}.cfg")
        r = records(rec)
        seq = sum(1 for a, b in zip(r, r[1:]) if b[1] == a[1] + a[2]) / (len(r) - 1)
        print(f"percentage_random={pct}: {seq:.4f} sequential steps")
        check(lo <= seq <= hi, f"percentage_random={pct}: sequential share {seq}")


def t_reproducible(tmp):
    """Same seed: same offsets, sizes and directions, whatever the engine mode; other seeds differ."""
    def seq(name, **kw):
        rec = os.path.join(tmp, name)
        job = rec_job(tmp, rw="randrw", bssplit="4k/40:8k/60", random_distribution="zipf:0.9",
                      io_size="8m", record=rec, **kw)
        run_jobs(tmp, job, name=f"{name}.cfg")
        return records(rec)
    a = seq("a")
    b = seq("b")
    c = seq("c", **{"async": True, "iodepth": 16})
    check(len(a) > 1000 and a == b, "two runs with the default seed differ")
    check(a == c, "the async engine at iodepth 16 saw another sequence")
    d = seq("d", randseed=12345)
    e = seq("e", randseed=12345)
    check(d == e and d != a, "randseed does not decide the sequence")
    f = seq("f", randrepeat=False)
    g = seq("g", randrepeat=False)
    check(f != g, "randrepeat=0 repeated the sequence")


def t_offset_increment(tmp):
    f = os.path.join(tmp, "shared")
    rec = os.path.join(tmp, "rec")
    run_jobs(tmp, {"name": "o", "ioengine": VT, "rw": "randwrite", "bs": "4k", "size": "1m",
                   "numjobs": 3, "offset_increment": "1m", "filename": f, "record": rec})
    for i in range(3):
        offs = [r[1] for r in records(rec, i)]
        check(len(offs) == 256, f"clone {i}: {len(offs)} writes")
        check(min(offs) == i << 20 and max(offs) == (i << 20) + (1 << 20) - 4096,
              f"clone {i}: offsets {min(offs)}..{max(offs)}")
    check(os.path.getsize(f) == 3 << 20, f"file size {os.path.getsize(f)}")


def ratio(path):
    data = open(path, "rb").read()
    return len(zlib.compress(data, 6)) / len(data), data


def t_buffers(tmp):
    def write(name, **kw):
        f = os.path.join(tmp, name)
        run_jobs(tmp, dict({"name": "b", "ioengine": "psync", "rw": "write", "bs": "64k",
                            "size": "8m", "filename": f}, **kw), name=f"{name}.cfg")
        return f
    r, _ = ratio(write("plain"))
    check(r > 0.98, f"default buffers compress to {r}")
    r, _ = ratio(write("c60", buffer_compress_percentage=60, refill_buffers=True))
    print(f"buffer_compress_percentage=60: compresses to {r:.3f}")
    check(0.36 <= r <= 0.47, f"buffer_compress_percentage=60 compresses to {r}")
    _, data = ratio(write("zero", zero_buffers=True))
    check(data.count(0) == len(data), "zero_buffers wrote non-zero bytes")
    f = write("dd", bs="4k", dedupe_percentage=50)
    data = open(f, "rb").read()
    blocks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
    uniq = len(set(blocks)) / len(blocks)
    print(f"dedupe_percentage=50: {uniq:.3f} of blocks unique")
    check(abs(uniq - 0.5) < 0.05, f"dedupe_percentage=50: unique share {uniq}")
    f = write("rf", bs="4k", refill_buffers=True)
    data = open(f, "rb").read()
    blocks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
    check(len(set(blocks)) == len(blocks), "refill_buffers repeated a block")


def t_option_errors(tmp):
    """Every new option refuses bad input with file, line, job and option named."""
    cases = [
        ("verify", '"crc64"', r"'crc64' is not valid; accepted: none, crc32c, xxh64, xxh3, sha256, md5, pattern"),
        ("do_verify", '"maybe"', "is not a boolean"),
        ("verify_backlog", "-1", "out of range"),
        ("verify_only", '"perhaps"', "is not a boolean"),
        ("verify_fatal", '"2"', "is not a boolean"),
        ("verify_dump", '"x"', "is not a boolean"),
        ("verify_pattern", '"0xZZ"', "is not a pattern"),
        ("rate", '"fast"', "is not a size"),
        ("rate_iops", '"1,2,3,4"', "is not a list"),
        ("rate_min", '"-5"', "is not a size"),
        ("rate_iops_min", '"lots"', "is not an integer"),
        ("rate_cycle", '"1ms"', "out of range"),
        ("rate_process", '"burst"', "'burst' is not valid; accepted: linear, poisson"),
        ("thinktime", '"abc"', "is not a duration"),
        ("thinktime_spin", '"-1s"', "is not a duration"),
        ("thinktime_blocks", "0", "out of range"),
        ("bssplit", '"4k/50:8k/40"', "do not add up to 100"),
        ("bssplit", '"4q/100"', "bad block size"),
        ("random_distribution", '"zipf:0"', "bad zipf theta"),
        ("random_distribution", '"pareto:1.5"', "bad pareto h"),
        ("random_distribution", '"normal:0"', "bad normal sigma"),
        ("random_distribution", '"zoned:50/50:40/50"', "access shares that do not add up"),
        ("random_distribution", '"gaussian"', "is not valid"),
        ("percentage_random", "101", "out of range"),
        ("offset_increment", '"x"', "is not a size"),
        ("zero_buffers", '"maybe"', "is not a boolean"),
        ("refill_buffers", '"maybe"', "is not a boolean"),
        ("buffer_compress_percentage", "101", "out of range"),
        ("buffer_compress_chunk", "0", "out of range"),
        ("dedupe_percentage", '"half"', "is not an integer"),
    ]
    for i, (opt, value, why) in enumerate(cases):
        cfg = write_cfg(tmp, f'jobs = ( {{ name = "x"; ioengine = "null"; size = "1m";\n'
                             f'  {opt} = {value}; }} );')
        p = run([cfg])
        pat = rf"job\.cfg:2: job 'x': option '{opt}': .*{why}"
        check(p.returncode == 2, f"{opt}={value}: exit {p.returncode}\n{p.stderr}")
        check(re.search(pat, p.stderr), f"{opt}={value}: {p.stderr!r} !~ {pat}")
    cross = [
        ('verify_only = true;', "verify_only", "verify_only needs verify"),
        ('verify = "pattern";', "verify", "verify=pattern needs verify_pattern"),
        ('verify = "crc32c"; bs = "256";', "bs", "at least 512 bytes"),
        ('rate = "1m"; rate_min = "2m";', "rate_min", "above rate"),
        ('rate_iops = 10; rate_iops_min = 20;', "rate_iops_min", "above rate_iops"),
        ('thinktime = "1ms"; thinktime_spin = "2ms";', "thinktime_spin", "longer than thinktime"),
        ('zero_buffers = true; dedupe_percentage = 10;', "zero_buffers", "cannot be combined"),
        ('rw = "read"; rate_min = ",1m";', "rate_min", "floor is set for writes"),
        ('verify = "md5"; rw = "trim";', "rw", "cannot check trimmed"),
    ]
    for i, (text, opt, why) in enumerate(cross):
        opts = "\n".join(f"  {s.strip()};" for s in text.split(";") if s.strip())
        cfg = write_cfg(tmp, 'jobs = ( { name = "x"; ioengine = "null"; size = "1m";\n' + opts +
                        ' } );')
        cfg_lines = open(cfg).read().splitlines()
        line = next(n for n, l in enumerate(cfg_lines, 1) if re.match(rf"\s*{opt} =", l))
        p = run([cfg])
        check(p.returncode == 2, f"{text}: exit {p.returncode}\n{p.stderr}")
        check(re.search(rf"job\.cfg:{line}: job 'x': .*{why}", p.stderr), f"{text}: {p.stderr!r}")


if __name__ == "__main__":
    sys.exit(main(globals(), "iorig-vt-", chdir=True))
