#!/usr/bin/env python3
"""End-to-end engine tests: run the iorig binary with each engine and check
its JSON report.

Usage: test_e2e.py TEST_NAME   (exit 0 pass, 1 fail, 77 skip)
Environment: IORIG (the binary), IORIG_PLUGIN_PATH (the built engines).
Files go under /var/tmp: O_DIRECT needs a disk filesystem.
"""
import json
import os
import subprocess
import sys
import tempfile

IORIG = os.environ.get("IORIG", "iorig")
SKIP = 77
ASYNC = ("libaio", "io_uring")
ALL = ("libaio", "io_uring", "mmap", "splice")


class Skip(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def run_cfg(tmp, text, expect_rc=0, name="job.cfg"):
    cfg = os.path.join(tmp, name)
    with open(cfg, "w") as f:
        f.write(text)
    p = subprocess.run([IORIG, "--output-format=json", cfg], capture_output=True,
                       text=True, timeout=120)
    check(p.returncode == expect_rc,
          f"exit {p.returncode}, expected {expect_rc}\njob file:\n{text}\n"
          f"stderr:\n{p.stderr}\nstdout:\n{p.stdout[:2000]}")
    try:
        return json.loads(p.stdout), p.stderr
    except json.JSONDecodeError as e:
        raise AssertionError(f"stdout is not JSON ({e}):\n{p.stdout[:2000]}\n{p.stderr}")


def depth_at_least_32(job):
    lv = job["iodepth_level"]
    return lv.get("32", 0.0) + lv.get(">=64", 0.0)


def check_depth(tmp, engine, extra=""):
    """iodepth=32 O_DIRECT random reads: 32 in flight for most of the run."""
    text = f"""
jobs = ( {{ name = "depth"; ioengine = "{engine}"; direct = true; rw = "randread";
           bs = "4k"; size = "64m"; iodepth = 32; runtime = "2s"; time_based = true;
           filename = "{tmp}/depth.dat"; unlink = true; {extra} }} );
"""
    doc, _ = run_cfg(tmp, text)
    j = doc["jobs"][0]
    check(j["error"] == 0, f"{engine}: error {j['error']}: {j.get('iorig', {}).get('errmsg')}")
    check(j["read"]["total_ios"] > 1000, f"{engine}: only {j['read']['total_ios']} reads")
    at32 = depth_at_least_32(j)
    print(f"{engine} {extra}: iodepth_level {j['iodepth_level']} "
          f"iodepth_complete {j['iodepth_complete']} iops {j['read']['iops']:.0f}")
    check(at32 >= 75.0,
          f"{engine} {extra}: 32 I/Os in flight for only {at32:.1f}% of submissions "
          f"(iodepth_level {j['iodepth_level']}); expected most of the run")


def t_depth_libaio(tmp):
    check_depth(tmp, "libaio")


def t_depth_io_uring(tmp):
    check_depth(tmp, "io_uring")
    check_depth(tmp, "io_uring", "fixedbufs = true; registerfiles = true;")
    check_depth(tmp, "io_uring", "sqthread_poll = true;")


def write_then_read(tmp, engine, target, direct, size="16m", layout=True):
    """A write job then (stonewalled) a read job over the same bytes."""
    d = "true" if direct else "false"
    unlink = "unlink = true;" if layout else ""
    text = f"""
global = {{ ioengine = "{engine}"; filename = "{target}"; size = "{size}"; bs = "64k";
           direct = {d}; iodepth = 8; }};
jobs = (
  {{ name = "w"; rw = "write"; end_fsync = true; }},
  {{ name = "r"; rw = "randread"; stonewall = true; {unlink} }}
);
"""
    doc, _ = run_cfg(tmp, text, name=f"{engine}.cfg")
    size_b = int(size[:-1]) << 20
    by = {j["jobname"]: j for j in doc["jobs"]}
    for n in ("w", "r"):
        j = by[n]
        check(j["error"] == 0, f"{engine} {target} direct={d}: job {n} error {j['error']}: "
                               f"{j.get('iorig', {}).get('errmsg')}")
    check(by["w"]["write"]["io_bytes"] == size_b,
          f"{engine}: wrote {by['w']['write']['io_bytes']} of {size_b}")
    check(by["r"]["read"]["io_bytes"] == size_b,
          f"{engine}: read {by['r']['read']['io_bytes']} of {size_b}")
    print(f"{engine} {target} direct={d}: ok")


def t_files(tmp):
    """Every engine writes and reads a file; async engines also with direct=1."""
    for e in ALL:
        write_then_read(tmp, e, f"{tmp}/{e}.dat", False)
        if e in ASYNC:
            write_then_read(tmp, e, f"{tmp}/{e}-direct.dat", True)


def t_blockdev(tmp):
    """Every engine on a loop block device (root only; always detached)."""
    if os.geteuid() != 0:
        raise Skip("loop devices need root")
    img = os.path.join(tmp, "loop.img")
    with open(img, "wb") as f:
        f.truncate(64 << 20)
    p = subprocess.run(["losetup", "-f", "--show", img], capture_output=True, text=True)
    if p.returncode != 0:
        raise Skip(f"losetup failed: {p.stderr.strip()}")
    dev = p.stdout.strip()
    try:
        for e in ALL:
            write_then_read(tmp, e, dev, False, layout=False)
            if e in ASYNC:
                write_then_read(tmp, e, dev, True, layout=False)
    finally:
        subprocess.run(["losetup", "-d", dev])


def refused(tmp, text, needle):
    doc, err = run_cfg(tmp, text, expect_rc=1)
    msg = doc["jobs"][0].get("iorig", {}).get("errmsg", "") + err
    check(needle in msg, f"message lacks '{needle}':\n{msg}")


def t_refusals(tmp):
    """Options that cannot work fail the job with a message saying what to change."""
    base = f'filename = "{tmp}/r.dat"; size = "4m"; rw = "read"; unlink = true;'
    refused(tmp, f'jobs = ( {{ name = "h"; ioengine = "io_uring"; hipri = true; {base} }} );',
            "hipri needs O_DIRECT on a device with poll queues")
    refused(tmp, f'jobs = ( {{ name = "c"; ioengine = "io_uring"; sqthread_poll_cpu = 0; '
                 f'{base} }} );', "sqthread_poll=1")
    refused(tmp, f'jobs = ( {{ name = "m"; ioengine = "mmap"; direct = true; {base} }} );',
            "direct")


TESTS = {n[2:]: f for n, f in globals().items() if n.startswith("t_")}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in TESTS:
        print(f"usage: {sys.argv[0]} {{{'|'.join(sorted(TESTS))}}}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="iorig-e2e-", dir="/var/tmp") as tmp:
        try:
            TESTS[sys.argv[1]](tmp)
        except Skip as s:
            print(f"skip: {s}")
            return SKIP
        except AssertionError as a:
            print(f"FAIL: {a}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
