"""What iorig's end-to-end tests (tests/*/test_*.py) share.

Each test file is a list of functions t_NAME(tmp); ctest runs one as
`python3 test_x.py NAME` and reads the exit code: 0 pass, 1 fail, 77 skip
(SKIP_RETURN_CODE), 2 usage.  A file imports this module with

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from iorig_test import (  # noqa: E402
        Skip, check, main, run_json, ...)

and ends with `sys.exit(main(globals(), "iorig-xx-"))`.

Here: the dispatcher, the check/fail/Skip vocabulary, running iorig (or any
tool) and reading its JSON report, writing libconfig job files, the O_DIRECT
probe and loop devices.  What only one file needs stays in that file.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

IORIG = os.environ.get("IORIG", "iorig")
SKIP = 77


class Skip(Exception):
    """Raised by a test that cannot run here; the message says why."""


def fail(msg):
    raise AssertionError(msg)


def check(cond, msg):
    if not cond:
        fail(msg)


# ---- the dispatcher -----------------------------------------------------------

def default_tmp_dir():
    """IORIG_TEST_TMP, else /var/tmp: a disk filesystem, where O_DIRECT works."""
    base = os.environ.get("IORIG_TEST_TMP", "/var/tmp")
    return base if os.path.isdir(base) else None


def main(ns, prefix, tmp_dir=None, chdir=False, setup=None, on_fail=None):
    """Run test sys.argv[1], the function t_NAME of the module whose globals() is ns.

    The test gets a fresh directory (made in tmp_dir, default_tmp_dir() when
    None; made the working directory when chdir), removed afterwards.  setup(),
    when given, runs first and may raise Skip too.  on_fail(), when given,
    runs after a failed check, to print what else may explain it.  Returns
    the exit code.
    """
    tests = sorted(n[2:] for n, f in ns.items() if n.startswith("t_") and callable(f))
    if len(sys.argv) != 2:
        print(ns.get("__doc__") or f"usage: {sys.argv[0]} TEST_NAME")
        return 2
    fn = ns.get("t_" + sys.argv[1])
    if not callable(fn):
        print(f"no test {sys.argv[1]}; the tests: {' '.join(tests)}")
        return 2
    tmp = tempfile.mkdtemp(prefix=prefix, dir=default_tmp_dir() if tmp_dir is None else tmp_dir)
    cwd = os.getcwd()
    try:
        if chdir:
            os.chdir(tmp)
        if setup:
            setup()
        fn(tmp)
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    except AssertionError as e:
        print(f"FAIL: {e}")
        if on_fail:
            on_fail()
        return 1
    except Exception:
        if on_fail:  # a timeout, say: the state may explain it too
            on_fail()
        raise
    finally:
        os.chdir(cwd)
        shutil.rmtree(tmp, ignore_errors=True)
    print("PASS")
    return 0


# ---- running iorig and other tools --------------------------------------------

def _env(env):
    """os.environ with env's entries set (None: removed), or None for as it is."""
    if env is None:
        return None
    e = dict(os.environ)
    for k, v in env.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return e


def sh(args, timeout=300, env=None, text=True, **kw):
    """Run a command, output captured (as text unless text=False); env adds to
    (a None value: removes from) this process's environment."""
    return subprocess.run(list(args), capture_output=True, text=text, timeout=timeout,
                          env=_env(env), **kw)


def run(args, timeout=120, iorig=None, **kw):
    """Run iorig (IORIG, or the binary iorig) with args; as sh() otherwise."""
    return sh([iorig or IORIG] + list(args), timeout=timeout, **kw)


def output(p, limit=3000):
    """A finished process's stderr and stdout, for a failure message."""
    return f"stderr:\n{p.stderr}\nstdout:\n{p.stdout[:limit]}"


def expect_exit(p, rc, what, detail=""):
    """Fail unless p exited rc (None: any code), naming what ran; detail and
    p's output follow in the message."""
    check(rc is None or p.returncode == rc,
          f"{what}: exit {p.returncode}, expected {rc}\n{detail}{output(p)}")
    return p


def expect_ok(p, what):
    return expect_exit(p, 0, what)


def parse_json(p, what="iorig"):
    """The JSON report on p's stdout; a failure (not a crash) when it is not JSON."""
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError as e:
        fail(f"{what}: stdout is not JSON ({e}):\n{output(p, 2000)}")


def run_json(args, expect_rc=0, **kw):
    """iorig --output-format=json ARGS: (report, process), exit code checked."""
    p = run(["--output-format=json"] + list(args), **kw)
    what = "iorig " + " ".join(args)
    expect_exit(p, expect_rc, what)
    return parse_json(p, what), p


def run_jobfile(tmp, text, expect_rc=0, name="job.cfg", args=(), need_report=True, **kw):
    """Write the job file tmp/name and run iorig on it (args first) for a JSON
    report: (report, process), exit code checked, the job file in the message.
    The report is None when iorig printed nothing and need_report is False."""
    cfg = write_cfg(tmp, text, name)
    p = run(["--output-format=json", *args, cfg], **kw)
    what = f"iorig {name}"
    expect_exit(p, expect_rc, what, f"job file:\n{text}\n")
    if not need_report and not p.stdout.strip():
        return None, p
    return parse_json(p, what), p


# ---- job files -----------------------------------------------------------------

def write_file(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def write_cfg(tmp, text, name="job.cfg"):
    return write_file(os.path.join(tmp, name), text)


def cfg_value(v):
    """A libconfig value: booleans and integers as such (L past 32 bits), else a string."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v) if abs(v) < 2 ** 31 else f"{v}L"
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def job_entry(opts):
    """One job of a jobs list, from a dict of options (None values left out)."""
    return "{ " + " ".join(f"{k} = {cfg_value(v)};" for k, v in opts.items()
                           if v is not None) + " }"


def jobs_text(entries, sep=", "):
    """A job file holding the job entries (job_entry() strings)."""
    return "jobs = ( " + sep.join(entries) + " );\n"


# ---- what the machine offers ----------------------------------------------------

def supports_direct(d):
    """Can files in directory d be opened with O_DIRECT (not on tmpfs)?"""
    probe = os.path.join(d, ".direct-probe")
    try:
        os.close(os.open(probe, os.O_CREAT | os.O_RDWR | os.O_DIRECT))
        return True
    except OSError:
        return False
    finally:
        try:
            os.unlink(probe)
        except OSError:
            pass


def need_direct(d):
    if not supports_direct(d):
        raise Skip("no O_DIRECT in the temporary directory")


def need_root_loop():
    if os.geteuid() != 0:
        raise Skip("needs root for loop devices")
    if not shutil.which("losetup"):
        raise Skip("no losetup")


class Loop:
    """A loop device on a sparse image in tmp; detached (and unmounted) on exit."""

    def __init__(self, tmp, size_mb=64, name="disk.img", partscan=False):
        self.img = os.path.join(tmp, name)
        with open(self.img, "wb") as f:
            f.truncate(size_mb << 20)
        self.partscan = partscan
        self.mounts = []
        self.dev = None

    def __enter__(self):
        args = ["losetup", "-f", "--show"] + (["-P"] if self.partscan else []) + [self.img]
        p = subprocess.run(args, capture_output=True, text=True)
        if p.returncode:
            raise Skip(f"losetup failed: {p.stderr.strip()}")
        self.dev = p.stdout.strip()
        return self

    def mount(self, dev, mnt):
        os.makedirs(mnt, exist_ok=True)
        if subprocess.run(["mount", dev, mnt], capture_output=True).returncode:
            raise Skip(f"cannot mount {dev} here")
        self.mounts.append(mnt)

    def umount(self, mnt):
        subprocess.run(["umount", mnt], check=True)
        self.mounts.remove(mnt)

    def __exit__(self, *a):
        for m in reversed(self.mounts):
            subprocess.run(["umount", m], capture_output=True)
        if self.dev:
            subprocess.run(["partx", "-d", self.dev], capture_output=True)
            subprocess.run(["losetup", "-d", self.dev], capture_output=True)


def mkfs_ext4(dev):
    if not shutil.which("mkfs.ext4"):
        raise Skip("no mkfs.ext4")
    subprocess.run(["mkfs.ext4", "-q", "-F", dev], check=True, capture_output=True)
