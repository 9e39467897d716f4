#!/usr/bin/env python3
"""End-to-end engine tests: run the iorig binary with each engine and check
its JSON report.

Usage: test_e2e.py TEST_NAME   (exit 0 pass, 1 fail, 77 skip)
Environment: IORIG (the binary), IORIG_PLUGIN_PATH (the built engines).
Files go under /var/tmp: O_DIRECT needs a disk filesystem.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from iorig_test import Loop, check, main, need_root_loop, run_jobfile  # noqa: E402

ASYNC = ("libaio", "io_uring")
ALL = ("libaio", "io_uring", "mmap", "splice")


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
    doc, _ = run_jobfile(tmp, text)
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
    doc, _ = run_jobfile(tmp, text, name=f"{engine}.cfg")
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


def t_io_uring_workers(tmp):
    """io_uring where the kernel's workers do the I/O (buffered tmpfs): every
    completion comes back as deferred task work.  Verified random writes at
    depth 32, then a verified read-back: no completion lost or misdelivered."""
    if not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK):
        sys.exit(77)
    path = f"/dev/shm/iorig-e2e-{os.getpid()}.dat"
    text = f"""
jobs = ( {{ name = "shm"; ioengine = "io_uring"; filename = "{path}"; size = "32m";
           bs = "4k"; rw = "randwrite"; iodepth = 32; verify = "crc32c";
           do_verify = true; unlink = true; }} );
"""
    try:
        doc, p = run_jobfile(tmp, text, args=("--debug",))
    finally:
        if os.path.exists(path):
            os.unlink(path)
    j = doc["jobs"][0]
    check(j["error"] == 0, f"error {j['error']}: {j.get('iorig', {}).get('errmsg')}")
    check(j["write"]["io_bytes"] == 32 << 20, f"wrote {j['write']['io_bytes']} bytes")
    check(j["verify"]["blocks"] == 8192 and j["verify"]["errors"] == 0,
          f"verify: {j['verify']}")
    setup = [ln for ln in p.stderr.splitlines() if "io_uring: sq " in ln]
    check(setup, f"--debug printed no ring setup line:\n{p.stderr}")
    print(setup[0])


def t_blockdev(tmp):
    """Every engine on a loop block device (root only; always detached)."""
    need_root_loop()
    with Loop(tmp, name="loop.img") as lo:
        for e in ALL:
            write_then_read(tmp, e, lo.dev, False, layout=False)
            if e in ASYNC:
                write_then_read(tmp, e, lo.dev, True, layout=False)


def refused(tmp, text, needle):
    doc, p = run_jobfile(tmp, text, expect_rc=1)
    msg = doc["jobs"][0].get("iorig", {}).get("errmsg", "") + p.stderr
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
    # An engine option out of its range is a usage error naming the range.
    for v in ("2", "-2", '"yes"'):
        _, p = run_jobfile(tmp, f'jobs = ( {{ name = "n"; ioengine = "io_uring"; '
                                f'nonvectored = {v}; {base} }} );', expect_rc=2,
                           need_report=False)
        check("option 'nonvectored'" in p.stderr and "-1 .. 1" in p.stderr, p.stderr)


if __name__ == "__main__":
    sys.exit(main(globals(), "iorig-e2e-"))
