#!/usr/bin/env python3
"""The rbd and rados engines against the throwaway cluster of cluster-start.

Usage: test_ceph.py TEST_NAME   (exit 0 pass, 1 fail, 77 skip)
Environment:
  IORIG            the iorig binary
  IORIG_PLUGIN_PATH  the built engines
  IORIG_CEPH_ENV   the file cluster-start --env-file wrote (CEPH_CONF, ...)
  IORIG_CEPH_TOOLS this directory (cluster-osd)
Skips when the cluster was not started (Ceph not installed) or the engine
was not built.  Every test names its own images/objects, so tests may run
in parallel on the one cluster; osd_stop takes the OSD away and must run
alone (CMake orders it after the others).
"""
import json
import os
import shlex
import shutil
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from iorig_test import (  # noqa: E402
    IORIG, Skip, check, job_entry, jobs_text, main, run, run_jobfile, sh, write_cfg)

TOOLS = os.environ.get("IORIG_CEPH_TOOLS", os.path.dirname(os.path.abspath(__file__)))
MB = 1 << 20


def load_cluster():
    path = os.environ.get("IORIG_CEPH_ENV", "")
    if not path or not os.path.isfile(path):
        raise Skip(f"no cluster: {path or 'IORIG_CEPH_ENV'} missing (did ceph.cluster_start run?)")
    env = {}
    for line in open(path):
        for tok in shlex.split(line):
            k, _, v = tok.partition("=")
            env[k] = v
    if env.get("IORIG_CEPH_SKIP"):
        raise Skip(env["IORIG_CEPH_SKIP"])
    check(os.path.isfile(env.get("CEPH_CONF", "")), f"{path} names no ceph.conf: {env}")
    return env


CL = {}


def cli(*args, timeout=60, check_rc=True, binary=False):
    """A Ceph command line tool on the test cluster."""
    p = sh(args, timeout=timeout, env={"CEPH_CONF": CL["CEPH_CONF"], "CEPH_ARGS": None},
           text=not binary)
    if check_rc:
        check(p.returncode == 0, f"{' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p


def rbd_ls():
    return cli("rbd", "ls", "-p", CL["IORIG_CEPH_POOL"]).stdout.split()


def rados_ls():
    return cli("rados", "-p", CL["IORIG_CEPH_POOL"], "ls").stdout.split()


def engine_built(name):
    p = run(["engines", name], timeout=60)
    if p.returncode != 0:
        raise Skip(f"engine {name} not available: {p.stderr.strip() or p.stdout.strip()}")


_verify = None


def has_verify(tmp):
    """Does this iorig take verify= yet (the core's data verification)?"""
    global _verify
    if _verify is None:
        cfg = write_cfg(tmp, 'jobs = ( { name = "p"; ioengine = "rbd"; rw = "write"; '
                        'bs = "4k"; size = "1m"; verify = "crc32c"; } );\n', "probe.cfg")
        p = run(["validate", cfg], timeout=60)
        _verify = p.returncode == 0
    return _verify


def job_text(name, engine, **opts):
    """One job entry in libconfig syntax; options set to None are left out."""
    return job_entry(dict(name=name, ioengine=engine, **opts))


def run_jobs(tmp, jobs, expect_rc=0, timeout=120, env=None, name="job.cfg"):
    """The jobs (job_text() entries) on the test cluster, env added to (None:
    removed from) ours: (report or None, process, seconds taken)."""
    e = {"CEPH_CONF": CL.get("CEPH_CONF", ""), "CEPH_ARGS": None}
    e.update(env or {})
    t0 = time.monotonic()
    doc, p = run_jobfile(tmp, jobs_text(jobs, ",\n  "), expect_rc, name, need_report=False,
                         timeout=timeout, env=e, cwd=tmp)
    return doc, p, time.monotonic() - t0


def ok_jobs(doc):
    for j in doc["jobs"]:
        check(j["error"] == 0, f"job {j['jobname']}: error {j['error']}: "
              f"{j.get('iorig', {}).get('errmsg')}")
    return doc["jobs"]


def check_verify_headers(data, bs, base, what):
    """Blocks iorig wrote with verify= start with its header: magic, length, offset."""
    for off in range(0, len(data), bs):
        magic, _ver, _typ, _fl, length, _gen, foff = struct.unpack_from("<IHBBIIQ", data, off)
        check(magic == 0x56524F49, f"{what}: no verify header at {base + off}")
        check(length == bs and foff == base + off,
              f"{what}: block at {base + off} says length {length} offset {foff}")


def not_zero(data, what):
    check(len(data) > 0 and data.count(0) < len(data) * 0.9,
          f"{what}: {len(data)} bytes, mostly zeros: the writes did not land")


# ---- data round trips -----------------------------------------------------

def t_rbd_roundtrip(tmp):
    """Write an image with iorig, read it back with rbd export and with iorig."""
    engine_built("rbd")
    img, pool = "it-roundtrip", CL["IORIG_CEPH_POOL"]
    cli("rbd", "rm", f"{pool}/{img}", check_rc=False)
    verify = has_verify(tmp)
    vopt = {"verify": "crc32c"} if verify else {}
    try:
        doc, _, _ = run_jobs(tmp, [job_text("rt", "rbd", rbdname=img, create_image=True,
                                            rw="write", bs="64k", size="8m", iodepth=16,
                                            end_fsync=True, **vopt)])
        j = ok_jobs(doc)[0]
        check(j["write"]["total_ios"] == 128 and j["write"]["io_bytes"] == 8 * MB,
              f"wrote {j['write']['total_ios']} I/Os, {j['write']['io_bytes']} bytes")
        check(img in rbd_ls(), f"create_image=1: {img} not in rbd ls")
        info = json.loads(cli("rbd", "info", "--format", "json", f"{pool}/{img}").stdout)
        check(info["size"] == 8 * MB, f"image size {info['size']}")
        check(info["features"] == ["layering"], f"features {info['features']}")
        data = cli("rbd", "export", f"{pool}/{img}", "-", binary=True).stdout
        check(len(data) == 8 * MB, f"rbd export gave {len(data)} bytes")
        not_zero(data, "rbd export")
        if verify:
            check_verify_headers(data, 64 * 1024, 0, "rbd export")
        # No size: the image's own (get_size), named by rbdname or by filename.
        # Same job name: verify= knows the blocks as this job's.
        for naming in ({"rbdname": img}, {"filename": img}):
            doc, _, _ = run_jobs(tmp, [job_text("rt", "rbd", rw="randread", bs="64k",
                                                iodepth=8, **naming, **vopt)])
            j = ok_jobs(doc)[0]
            check(j["read"]["io_bytes"] == 8 * MB, f"{naming}: read {j['read']['io_bytes']} bytes")
        if verify:
            # Overwrite one block behind iorig's back: the next verify must see it.
            cli("rbd", "bench", "--io-type", "write", "--io-size", "64K", "--io-total", "64K",
                "--io-pattern", "seq", f"{pool}/{img}")
            doc, p, _ = run_jobs(tmp, [job_text("rt", "rbd", rbdname=img, rw="read",
                                                bs="64k", size="8m", **vopt)], expect_rc=None)
            check(p.returncode != 0 and doc["jobs"][0]["error"] != 0,
                  f"verify missed a block rbd bench overwrote:\n{p.stderr}")
    finally:
        cli("rbd", "rm", f"{pool}/{img}", check_rc=False)


def t_rados_roundtrip(tmp):
    """Objects iorig writes are there with rados get; iorig reads them back."""
    engine_built("rados")
    pool, prefix = CL["IORIG_CEPH_POOL"], "it-rados-rt"
    verify = has_verify(tmp)
    vopt = {"verify": "crc32c"} if verify else {}
    common = dict(pool=pool, object_prefix=prefix, object_size="1m", bs="64k", size="8m")
    doc, _, _ = run_jobs(tmp, [job_text("rt", "rados", rw="write", iodepth=16, **common, **vopt)])
    j = ok_jobs(doc)[0]
    check(j["write"]["io_bytes"] == 8 * MB, f"wrote {j['write']['io_bytes']} bytes")
    objs = sorted(o for o in rados_ls() if o.startswith(prefix + "."))
    want = [f"{prefix}.{i:016x}" for i in range(8)]
    check(objs == want, f"objects {objs}, expected {want}")
    for i in (0, 5):
        data = cli("rados", "-p", pool, "get", want[i], "-", binary=True).stdout
        check(len(data) == MB, f"{want[i]}: {len(data)} bytes")
        not_zero(data, want[i])
        if verify:
            check_verify_headers(data, 64 * 1024, i * MB, want[i])
    doc, _, _ = run_jobs(tmp, [job_text("rt", "rados", rw="randread", iodepth=16,
                                        remove_objects=True, **common, **vopt)])
    j = ok_jobs(doc)[0]
    check(j["read"]["io_bytes"] == 8 * MB, f"read {j['read']['io_bytes']} bytes")
    left = [o for o in rados_ls() if o.startswith(prefix + ".")]
    check(not left, f"remove_objects=1 left {left}")
    # Without touch_objects, reading objects nobody wrote fails with ENOENT.
    doc, p, _ = run_jobs(tmp, [job_text("nx", "rados", rw="read", touch_objects=False,
                                        **common)], expect_rc=1)
    check("never written" in p.stderr and "touch_objects" in p.stderr, p.stderr)
    # nrfiles on a diskless engine: one run of objects per file, NAME.INSTANCE.N,
    # written round robin (as fio's rados engine with nrfiles= spreads I/O).
    doc, _, _ = run_jobs(tmp, [job_text("it-nf", "rados", pool=pool, rw="write", nrfiles=4,
                                        object_size="1m", bs="64k", size="4m", iodepth=8)])
    j = ok_jobs(doc)[0]
    check(j["write"]["io_bytes"] == 4 * MB, f"nrfiles=4: wrote {j['write']['io_bytes']} bytes")
    objs = sorted(o for o in rados_ls() if o.startswith("it-nf."))
    want = [f"it-nf.0.{i}.{0:016x}" for i in range(4)]
    check(objs == want, f"nrfiles=4: objects {objs}, expected {want}")
    for o in want:
        data = cli("rados", "-p", pool, "get", o, "-", binary=True).stdout
        check(len(data) == MB, f"{o}: {len(data)} bytes")
        not_zero(data, o)
        cli("rados", "-p", pool, "rm", o)


# ---- depth and numjobs ----------------------------------------------------

def check_depth(j, ddir, depth, what):
    lv = j["iodepth_level"]
    check(lv.get(str(depth), 0) >= 90.0, f"{what}: iodepth_level {lv}")
    # Little's law on the cluster's own timing: IOPS x mean latency is the
    # number of I/Os really in flight, not just what the core counted.
    d = j[ddir]
    inflight = d["iops"] * d["lat_ns"]["mean"] / 1e9
    check(inflight >= depth * 0.75, f"{what}: {d['iops']:.0f} IOPS x "
          f"{d['lat_ns']['mean'] / 1e3:.0f} us = {inflight:.1f} in flight, want ~{depth}")


def t_iodepth(tmp):
    """iodepth=16 is reached on rbd and on rados."""
    engine_built("rbd")
    engine_built("rados")
    pool, img = CL["IORIG_CEPH_POOL"], "it-depth"
    cli("rbd", "rm", f"{pool}/{img}", check_rc=False)
    try:
        doc, _, _ = run_jobs(tmp, [
            job_text("rbd", "rbd", rbdname=img, create_image=True, remove_image=True,
                     rw="randwrite", bs="4k", size="16m", iodepth=16, runtime="2s",
                     time_based=True),
            job_text("rados", "rados", pool=pool, object_prefix="it-depth", object_size="64k",
                     remove_objects=True, rw="randwrite", bs="4k", size="16m", iodepth=16,
                     runtime="2s", time_based=True)])
        rbd_job, rados_job = ok_jobs(doc)
        check_depth(rbd_job, "write", 16, "rbd")
        check_depth(rados_job, "write", 16, "rados")
        check(img not in rbd_ls(), "remove_image=1 left the image")
    finally:
        cli("rbd", "rm", f"{pool}/{img}", check_rc=False)


def t_numjobs(tmp):
    """numjobs=4 with rbdname=...%j: four images, each written by its own job."""
    engine_built("rbd")
    pool = CL["IORIG_CEPH_POOL"]
    names = [f"it-nj-{i}" for i in range(4)]
    for n in names:
        cli("rbd", "rm", f"{pool}/{n}", check_rc=False)
    try:
        doc, _, _ = run_jobs(tmp, [job_text("nj", "rbd", rbdname="it-nj-%j", create_image=True,
                                            numjobs=4, rw="write", bs="64k", size="4m",
                                            iodepth=4)])
        jobs = ok_jobs(doc)
        check(len(jobs) == 4, f"{len(jobs)} job entries")
        for j in jobs:
            check(j["write"]["io_bytes"] == 4 * MB, f"a clone wrote {j['write']['io_bytes']}")
        images = rbd_ls()
        for n in names:
            check(n in images, f"{n} missing from rbd ls: {images}")
            data = cli("rbd", "export", f"{pool}/{n}", "-", binary=True).stdout
            check(len(data) == 4 * MB, f"{n}: {len(data)} bytes")
            not_zero(data, n)
        # Same again with remove_image: nothing of them is left.
        for n in names:
            cli("rbd", "rm", f"{pool}/{n}")
        doc, _, _ = run_jobs(tmp, [job_text("nj", "rbd", rbdname="it-nj-%j", create_image=True,
                                            remove_image=True, numjobs=4, rw="randwrite",
                                            bs="4k", size="4m", iodepth=4, runtime="1s",
                                            time_based=True)])
        ok_jobs(doc)
        left = [n for n in rbd_ls() if n.startswith("it-nj-")]
        check(not left, f"remove_image=1 left {left}")
    finally:
        for n in names:
            cli("rbd", "rm", f"{pool}/{n}", check_rc=False)


def t_create_remove(tmp):
    """create_image/remove_image and touch/remove_objects leave nothing behind."""
    engine_built("rbd")
    engine_built("rados")
    pool = CL["IORIG_CEPH_POOL"]
    # Other tests use the pool at the same time: look at our names only.
    check("it-cr" not in rbd_ls(), "it-cr exists already")
    check(not [o for o in rados_ls() if o.startswith("it-cr.")], "it-cr.* exist already")
    doc, _, _ = run_jobs(tmp, [
        job_text("img", "rbd", rbdname="it-cr", create_image=True, remove_image=True,
                 rw="randrw", bs="4k", size="8m", iodepth=8, runtime="1s", time_based=True),
        job_text("obj", "rados", pool=pool, object_prefix="it-cr", object_size="256k",
                 touch_objects=True, remove_objects=True, rw="randrw", bs="4k", size="8m",
                 iodepth=8, runtime="1s", time_based=True)])
    for j in ok_jobs(doc):
        check(j["write"]["total_ios"] > 0 and j["read"]["total_ios"] > 0,
              f"{j['jobname']}: no I/O")
    # The jobs did I/O on an image and objects that did not exist: created.
    check("it-cr" not in rbd_ls(), "remove_image=1 left it-cr")
    left = [o for o in rados_ls() if o.startswith("it-cr.")]
    check(not left, f"remove_objects=1 left {left}")
    # An image this job did not create is never removed.
    cli("rbd", "create", "--size", "4M", "--image-feature", "layering", f"{pool}/it-keep")
    try:
        doc, _, _ = run_jobs(tmp, [job_text("keep", "rbd", filename="it-keep", create_image=True,
                                            remove_image=True, rw="write", bs="64k")])
        j = ok_jobs(doc)[0]
        check(j["write"]["io_bytes"] == 4 * MB, "no size: the image's 4 MiB")
        check("it-keep" in rbd_ls(), "remove_image removed an image the job did not create")
    finally:
        cli("rbd", "rm", f"{pool}/it-keep", check_rc=False)


# ---- failures: bounded, and saying what failed ------------------------------

BOUND = 3  # client_mount_timeout for the failure tests, seconds


def fails(tmp, engine, expect, bound, **opts):
    """A job that must fail fast, exit 1, with every string of expect in its message."""
    opts.setdefault("client_mount_timeout", f"{BOUND}s")
    opts.setdefault("rw", "read")
    opts.setdefault("bs", "4k")
    opts.setdefault("size", "1m")
    env = opts.pop("env", None)
    doc, p, took = run_jobs(tmp, [job_text("bad", engine, **opts)], expect_rc=1,
                            timeout=bound + 60, env=env)
    check(took < bound, f"{engine}: took {took:.1f}s, bound {bound}s\n{p.stderr}")
    msg = doc["jobs"][0].get("iorig", {}).get("errmsg", "") if doc else ""
    for s in expect:
        check(s in p.stderr and s in msg, f"{engine}: '{s}' not in the message:\n"
              f"stderr: {p.stderr}\nJSON errmsg: {msg}")
    return took


def t_wrong_pool(tmp):
    engine_built("rbd")
    engine_built("rados")
    fails(tmp, "rbd", ["pool 'it-nopool' does not exist", "cluster 'ceph'", "image 'it-nopool/x'"],
          10, pool="it-nopool", rbdname="x")
    fails(tmp, "rados", ["pool 'it-nopool' does not exist", "cluster 'ceph'"], 10,
          pool="it-nopool")


def t_wrong_image(tmp):
    engine_built("rbd")
    pool = CL["IORIG_CEPH_POOL"]
    fails(tmp, "rbd", [f"image '{pool}/it-noimage' does not exist", "cluster 'ceph'",
                       f"pool '{pool}'"], 10, rbdname="it-noimage")
    # No size and no image: get_size says so too.
    fails(tmp, "rbd", [f"image '{pool}/it-noimage' does not exist"], 10, filename="it-noimage",
          size=None)


def t_wrong_key(tmp):
    engine_built("rbd")
    engine_built("rados")
    bad = os.path.join(tmp, "bad.keyring")
    cli("ceph-authtool", "--create-keyring", bad, "--gen-key", "-n", "client.admin")
    for engine, extra in (("rbd", {"rbdname": "x"}), ("rados", {"pool": CL["IORIG_CEPH_POOL"]})):
        fails(tmp, engine, ["refused client.admin", "authentication failed", "cluster 'ceph'"],
              10, keyring=bad, **extra)
        fails(tmp, engine, ["keyring=/nonexistent/keyring cannot be read"], 10,
              keyring="/nonexistent/keyring", **extra)


def t_stopped_cluster(tmp):
    """No monitor at mon_host (what a stopped cluster looks like): fails after the timeout."""
    engine_built("rbd")
    engine_built("rados")
    conf = os.path.join(tmp, "stopped.conf")
    # Ports nothing listens on: bound just now, then closed.
    import socket
    ports = []
    for _ in range(2):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        ports.append(s.getsockname()[1])
        s.close()
    with open(CL["CEPH_CONF"]) as src, open(conf, "w") as dst:
        for line in src:
            if line.startswith("mon_host"):
                line = f"mon_host = [v2:127.0.0.1:{ports[0]},v1:127.0.0.1:{ports[1]}]\n"
            dst.write(line)
    for engine, extra in (("rbd", {"rbdname": "x"}), ("rados", {"pool": CL["IORIG_CEPH_POOL"]})):
        took = fails(tmp, engine, ["cannot connect to cluster 'ceph'", "no monitor answered",
                                   f"client_mount_timeout={BOUND}s", conf], BOUND + 5,
                     conf=conf, **extra)
        check(took >= BOUND - 0.5, f"{engine}: failed after {took:.1f}s, before the timeout?")


def t_no_conf(tmp):
    """Neither conf= nor CEPH_CONF nor a default file: a clean error, no crash."""
    engine_built("rbd")
    engine_built("rados")
    env = {"CEPH_CONF": None, "HOME": tmp}
    for engine, extra in (("rbd", {"rbdname": "x"}), ("rados", {"pool": CL["IORIG_CEPH_POOL"]})):
        fails(tmp, engine, ["no Ceph configuration", "set conf="], 10,
              clustername="iorig-noconf", env=env, **extra)
        fails(tmp, engine, ["conf=/nonexistent/ceph.conf cannot be read"], 10,
              conf="/nonexistent/ceph.conf", **extra)
        fails(tmp, engine, ["CEPH_CONF=/nonexistent/c.conf cannot be read"], 10,
              env={"CEPH_CONF": "/nonexistent/c.conf"}, **extra)
    # conf= alone is enough (CEPH_CONF unset).
    doc, _, _ = run_jobs(tmp, [job_text("c", "rados", conf=CL["CEPH_CONF"],
                                        pool=CL["IORIG_CEPH_POOL"], object_prefix="it-conf",
                                        remove_objects=True, rw="write", bs="4k", size="64k")],
                         env={"CEPH_CONF": None, "HOME": tmp})
    ok_jobs(doc)


def t_osd_stop(tmp):
    """The OSD stops under running jobs: they end with I/O errors, not a hang."""
    engine_built("rbd")
    engine_built("rados")
    pool, img, d = CL["IORIG_CEPH_POOL"], "it-osd", CL["IORIG_CEPH_DIR"]
    cli("rbd", "rm", f"{pool}/{img}", check_rc=False)
    # A loaded machine (CI builds next door) can make the first request slow.
    cli("rbd", "create", "--size", "16M", "--image-feature", "layering", f"{pool}/{img}",
        timeout=150)
    osd = os.path.join(TOOLS, "cluster-osd")
    result = {}

    def job():
        result["r"] = run_jobs(tmp, [
            job_text("rbd", "rbd", rbdname=img, rw="randwrite", bs="4k", iodepth=8,
                     runtime="60s", time_based=True, rados_osd_op_timeout="3s"),
            job_text("rados", "rados", pool=pool, object_prefix="it-osd", object_size="64k",
                     rw="randwrite", bs="4k", size="4m", iodepth=8, runtime="60s",
                     time_based=True, rados_osd_op_timeout="3s")], expect_rc=None, timeout=90)

    stopped = False
    try:
        t = threading.Thread(target=job)
        t.start()
        time.sleep(3)
        check(t.is_alive(), f"the jobs ended before the OSD stopped: {result}")
        t_stop = time.monotonic()
        subprocess.run([osd, "stop", d], check=True, timeout=60)
        stopped = True
        t.join(60)
        check(not t.is_alive(), "iorig still runs 60 s after the OSD stopped: a hang")
        took = time.monotonic() - t_stop
        doc, p, _ = result["r"]
        check(p.returncode == 1, f"exit {p.returncode}\n{p.stderr}")
        check(took < 20, f"took {took:.1f}s after the OSD stopped (op timeout 3s)")
        for j in doc["jobs"]:
            msg = j.get("iorig", {}).get("errmsg", "")
            check(j["error"] != 0 and j["write"]["total_ios"] > 0,
                  f"{j['jobname']}: error {j['error']} after {j['write']['total_ios']} writes")
            check("write of 4096 bytes" in msg and "rados_osd_op_timeout" in msg,
                  f"{j['jobname']}: message {msg}")
    finally:
        if stopped:
            subprocess.run([osd, "start", d], check=True, timeout=90)
        t.join(90)
        cli("rbd", "rm", f"{pool}/{img}", check_rc=False, timeout=120)
        for o in rados_ls():
            if o.startswith("it-osd."):
                cli("rados", "-p", pool, "rm", o, check_rc=False)
    # The cluster works again for whatever runs next.
    cli("rados", "-p", pool, "stat", "rbd_directory", timeout=60)


def setup():
    CL.update(load_cluster())
    if shutil.which(IORIG) is None and not os.path.isfile(IORIG):
        raise Skip(f"no iorig binary at {IORIG}")


def cluster_state():
    """After a failure: what the cluster said of itself (a stalled OSD, a
    full memstore, PGs not active), each command bounded."""
    asok = os.path.join(CL.get("IORIG_CEPH_DIR", ""), "run", "osd.0.asok")
    # No mgr runs: pg and df commands would wait for one.  The OSD's own
    # socket tells which requests it holds and why.
    for args in (("ceph", "--connect-timeout", "10", "-s"),
                 ("ceph", "--connect-timeout", "10", "health", "detail"),
                 ("ceph", "--connect-timeout", "10", "osd", "dump"),
                 ("ceph", "--admin-daemon", asok, "dump_ops_in_flight"),
                 ("ceph", "--admin-daemon", asok, "dump_historic_slow_ops")):
        try:
            p = subprocess.run(args, capture_output=True,
                               text=True, timeout=20,
                               env={**os.environ, "CEPH_CONF": CL.get("CEPH_CONF", "")})
            print(f"$ {' '.join(args)}\n{p.stdout}{p.stderr}")
        except (OSError, subprocess.TimeoutExpired) as e:
            print(f"$ {' '.join(args)}: {e}")


if __name__ == "__main__":
    sys.exit(main(globals(), "iorig-ceph-", setup=setup, on_fail=cluster_state))
