#!/usr/bin/env python3
"""ABI contract tests (see CMakeLists.txt for what each one checks).

Usage: test_abi.py TEST_NAME   (exit 0 pass, 1 fail, 77 skip)
Environment: IORIG, IORIG_SRC, IORIG_PLUGIN_DIR, FAULTY, OLD_ENGINE, LAYOUT,
LAYOUT_FROZEN, CHECK_DRIVER, CC, CXX, WORK (a scratch directory).
"""
import glob
import os
import platform
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from iorig_test import Skip, check, main, run_jobfile, sh  # noqa: E402

ENV = os.environ
SRC = ENV.get("IORIG_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
HEADER_DIR = os.path.join(SRC, "sdk", "include")
ABI_DIR = os.path.join(SRC, "tests", "abi")
ENTRY = "iorig_engine_entry"
STRICT = ["-Wall", "-Wextra", "-pedantic", "-Werror"]


def dyn_symbols(path, flag):
    p = sh(["nm", "-D", flag, path])
    check(p.returncode == 0, f"nm -D {flag} {path} failed: {p.stderr}")
    out = []
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts:
            out.append((parts[-2] if len(parts) > 1 else "?", parts[-1].split("@")[0]))
    return out


def shipped_engines():
    engines = sorted(glob.glob(os.path.join(ENV["IORIG_PLUGIN_DIR"], "*.so")))
    check(engines, f"no engines in {ENV['IORIG_PLUGIN_DIR']}")
    return engines + [ENV["FAULTY"]]


# ---- tests ------------------------------------------------------------------

def t_exports(tmp):
    """Each shipped engine exports exactly the entry; iorig exports nothing."""
    if not shutil.which("nm") or not shutil.which("readelf"):
        raise Skip("nm/readelf (binutils) not installed")
    core = {name for _, name in dyn_symbols(ENV["IORIG"], "--defined-only")}
    # Copy relocations (stdout, stderr, environ) put library data in the
    # executable's table: those are the libraries' symbols, not iorig's.
    libs = set()
    for lib in re.findall(r"=> (/\S+)", sh(["ldd", ENV["IORIG"]]).stdout):
        libs |= {name for _, name in dyn_symbols(lib, "--defined-only")}
    ours = sorted(n for n in core - libs if not n.startswith("_"))
    check(not ours, f"iorig exports {ours}: build it without -rdynamic; engines must "
          "not link against the core")
    for so in shipped_engines():
        defined = sorted(name for _, name in dyn_symbols(so, "--defined-only"))
        check(defined == [ENTRY], f"{so} exports {defined}, expected only {ENTRY}: "
              "build with -fvisibility=hidden and mark only the entry IORIG_EXPORT")
        # Under ASan/UBSan the sanitizer runtime lives in the executable and
        # every instrumented .so calls into it: that is the toolchain's, not ours.
        undefined = {name for _, name in dyn_symbols(so, "--undefined-only")
                     if not name.startswith(("__asan_", "__ubsan_", "__lsan_", "__sanitizer_"))}
        check(not (undefined & core), f"{so} needs {sorted(undefined & core)} from iorig")
        needed = re.findall(r"\(NEEDED\).*\[(.*)\]", sh(["readelf", "-d", so]).stdout)
        check(not [n for n in needed if "iorig" in n], f"{so} links against {needed}")
        print(f"{os.path.basename(so)}: exports only {ENTRY}; needs {needed}")


def compile_header(compiler, std, src_text, ext, tmp, extra=()):
    src = os.path.join(tmp, f"hdr_{std.replace('+', 'x')}.{ext}")
    with open(src, "w") as f:
        f.write(src_text)
    p = sh([compiler, f"-std={std}", *STRICT, "-I", HEADER_DIR, "-fsyntax-only", *extra, src])
    check(p.returncode == 0, f"<iorig/engine.h> does not compile as {std} with "
          f"{' '.join(STRICT)}:\n{p.stderr}")
    print(f"{std}: clean")


# Uses every macro of the header: included twice (guard), a descriptor.
C_USER = """#include <iorig/engine.h>
#include <iorig/engine.h>
static int q(void *s, struct iorig_io *io) { (void)s; io->result = (int64_t)io->len; return IORIG_Q_COMPLETED; }
struct o { int b; };
static const struct iorig_option opts[] = {
	{ "b", IORIG_OPT_BOOL, offsetof(struct o, b), "0", 0, 0, NULL, "a flag" },
	IORIG_OPTION_END,
};
static const struct iorig_engine d = {
	IORIG_ENGINE_HEADER, .name = "x", .caps = IORIG_CAP_DISKLESS, .queue = q,
	.options = opts, .options_size = sizeof(struct o),
};
IORIG_ENGINE_DEFINE(d)
"""


def t_header_c(tmp):
    """engine.h compiles as C11 (and gnu11, c17) with -Wall -Wextra -pedantic -Werror."""
    cc = ENV.get("CC") or "cc"
    for std in ("c11", "gnu11", "c17"):
        compile_header(cc, std, C_USER, "c", tmp)


def t_header_cxx(tmp):
    """engine.h compiles as C++17/C++20; a C++ engine exports the entry unmangled and loads."""
    cxx = ENV.get("CXX")
    if not cxx or not shutil.which(cxx):
        raise Skip("no C++ compiler (g++) found")
    compile_header(cxx, "c++17", "#include <iorig/engine.h>\n#include <iorig/engine.h>\n",
                   "cpp", tmp)
    for std in ("c++17", "c++20"):
        so = os.path.join(tmp, f"abi_cxx_{std.replace('+', 'x')}.so")
        p = sh([cxx, f"-std={std}", *STRICT, "-shared", "-fPIC", "-fvisibility=hidden",
                "-Wl,--no-undefined", "-I", HEADER_DIR,
                os.path.join(ABI_DIR, "cxx_engine.cpp"), "-o", so])
        if p.returncode and "unrecognized command-line option" in p.stderr and std == "c++20":
            print(f"{std}: not supported by {cxx}, skipped")
            continue
        check(p.returncode == 0, f"C++ engine does not build as {std}:\n{p.stderr}")
        defined = [name for _, name in dyn_symbols(so, "--defined-only")]
        check(defined == [ENTRY], f"{std} engine exports {defined}, expected [{ENTRY}] "
              "(IORIG_ENGINE_DEFINE must give it C linkage)")
        p = sh([ENV["IORIG"], "engines", so])
        check(p.returncode == 0 and "abi_cxx" in p.stdout and "depth" in p.stdout,
              f"iorig engines {so}: rc {p.returncode}\n{p.stdout}{p.stderr}")
        p = sh([ENV["CHECK_DRIVER"], so])
        check(p.returncode == 0, f"conformance check of the {std} engine failed:\n{p.stdout}")
        print(f"{std}: C++ engine builds, exports {ENTRY}, loads and passes the checker")


def layout_lines(exe):
    p = sh([exe])
    check(p.returncode == 0, f"{exe} failed: {p.stderr}")
    return p.stdout.splitlines()


def t_layout(tmp):
    """The ABI layout matches the checked-in file of its version; nothing older changed."""
    if platform.architecture()[0] != "64bit":
        raise Skip("layout files are for LP64 (64-bit) Linux")
    cur = layout_lines(ENV["LAYOUT"])
    ver = cur[0].split()[1]
    major, minor = (int(x) for x in ver.split("."))
    path = os.path.join(ABI_DIR, f"layout-{ver}.txt")
    check(os.path.exists(path),
          f"engine.h says ABI {ver} but tests/abi/layout-{ver}.txt does not exist: after "
          f"checking that every change only appended fields, write the output of "
          f"{ENV['LAYOUT']} to it, add a '**{ver}**' entry to the ABI changelog in "
          "docs/engine-abi.md, and extend old_engine coverage if needed")
    want = open(path).read().splitlines()
    if cur != want:
        diff = [f"- {l}" for l in want if l not in cur] + [f"+ {l}" for l in cur if l not in want]
        raise AssertionError(
            f"the engine ABI layout changed but IORIG_ABI_{{MAJOR,MINOR}} still say {ver}:\n"
            + "\n".join(diff[:40]) +
            "\nAppend new fields at the end of their struct, bump IORIG_ABI_MINOR, and add "
            "tests/abi/layout-<new version>.txt (a changed or removed field needs a new "
            "major).")
    print(f"layout of ABI {ver}: {len(cur)} lines match {os.path.basename(path)}")

    # Every older minor of this major is contained: fields and constants
    # unchanged, structs no smaller.
    cur_set = set(cur)
    sizes = {l.split()[1]: int(l.split()[2]) for l in cur if l.startswith("sizeof ")}
    for old in sorted(glob.glob(os.path.join(ABI_DIR, f"layout-{major}.*.txt"))):
        if old == path:
            continue
        for l in open(old).read().splitlines():
            if l.startswith(("field ", "const ")):
                check(l in cur_set, f"{os.path.basename(old)}: '{l}' is gone or changed in "
                      f"ABI {ver}: engines built for the older minor would break")
            elif l.startswith("sizeof "):
                name, size = l.split()[1], int(l.split()[2])
                check(sizes.get(name, 0) >= size, f"{os.path.basename(old)}: struct {name} "
                      f"shrank from {size} to {sizes.get(name)}")
        print(f"{os.path.basename(old)}: contained in ABI {ver}")

    frozen = layout_lines(ENV["LAYOUT_FROZEN"])
    check(frozen == open(os.path.join(ABI_DIR, "layout-1.0.txt")).read().splitlines(),
          "tests/abi/engine-1.0.h no longer has the 1.0 layout: it is frozen, restore it")
    print("frozen engine-1.0.h has the 1.0 layout")

    doc = open(os.path.join(SRC, "docs", "engine-abi.md")).read()
    check(f"**{ver}**" in doc, f"docs/engine-abi.md has no changelog entry '**{ver}**'")
    print(f"docs/engine-abi.md has a changelog entry for {ver}")


def t_old_engine(tmp):
    """An engine built against the frozen 1.0 header loads, runs jobs and passes the checker."""
    so = ENV["OLD_ENGINE"]
    p = sh([ENV["IORIG"], "engines", so])
    check(p.returncode == 0 and "abi:          1.0" in p.stdout,
          f"iorig engines {so}: rc {p.returncode}\n{p.stdout}{p.stderr}")
    data = os.path.join(tmp, "old.dat")
    doc, _ = run_jobfile(
        tmp, f'global = {{ ioengine = "{so}"; filename = "{data}"; size = "2m"; bs = "4k"; }};\n'
        'jobs = ( { name = "w"; rw = "randwrite"; end_fsync = true; },\n'
        '         { name = "r"; rw = "read"; stonewall = true; } );\n', name="old.cfg")
    jobs = {j["jobname"]: j for j in doc["jobs"]}
    check(jobs["w"]["error"] == 0 and jobs["w"]["write"]["io_bytes"] == 2 << 20,
          f"write job through the 1.0 engine: {jobs['w']['error']}, "
          f"{jobs['w']['write']['io_bytes']} bytes")
    check(jobs["r"]["read"]["io_bytes"] == 2 << 20, "read job moved the wrong amount")
    check(os.path.getsize(data) == 2 << 20, "the file was not written to its size")
    p = sh([ENV["CHECK_DRIVER"], so])
    check(p.returncode == 0, f"the conformance checker fails the 1.0 engine:\n{p.stdout}")
    print("1.0 engine: loads, runs a write and a read job, passes the checker")


if __name__ == "__main__":
    sys.exit(main(globals(), "iorig-abi-", tmp_dir=ENV.get("WORK")))
