/*
 * The engine conformance checker (see check_engine.h): the parent side.
 *
 * Checks the descriptor and options table, binds the options, creates the
 * temporary file, and forks one child per session (a depth, buffered or
 * O_DIRECT, read-write or read-only) that runs check_engine_io.c's
 * workloads.  The child reports each step on a pipe; the parent prints the
 * lines and turns a crash or a timeout into a FAIL of the step that was
 * running, so a broken engine cannot take the checker down with it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check_engine.h"
#include "check_engine_io.h"
#include "engines_cmd.h"
#include "options.h"

#define CK_DEPTH 16u
#define CK_TIMEOUT_S 60u

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct tally {
	FILE *out;
	unsigned pass, fail, skip;
};

static void line(struct tally *t, char kind, const char *step, const char *fmt, ...)
	IORIG_PRINTF(4, 5);

static void line(struct tally *t, char kind, const char *step, const char *fmt, ...)
{
	va_list ap;

	fprintf(t->out, "%-4s  %s: ", kind == 'P' ? "PASS" : kind == 'F' ? "FAIL" : "SKIP", step);
	va_start(ap, fmt);
	vfprintf(t->out, fmt, ap);
	va_end(ap);
	fputc('\n', t->out);
	fflush(t->out);
	t->pass += kind == 'P';
	t->fail += kind == 'F';
	t->skip += kind == 'S';
}

/* Feed "K step\tmsg" lines; returns the step last begun (kept in last). */
static void child_lines(struct tally *t, char *buf, size_t *len, char *last, size_t lastlen,
			bool *open_step)
{
	char *nl, *p = buf;

	while ((nl = memchr(p, '\n', *len - (size_t)(p - buf)))) {
		char *tab;

		*nl = '\0';
		tab = strchr(p, '\t');
		if (tab && p[0] && p[1] == ' ') {
			*tab = '\0';
			if (p[0] == 'B') {
				snprintf(last, lastlen, "%s", p + 2);
				*open_step = true;
			} else {
				line(t, p[0], p + 2, "%s", tab + 1);
				*open_step = false;
			}
		}
		p = nl + 1;
	}
	*len -= (size_t)(p - buf);
	memmove(buf, p, *len);
}

static void run_child(struct tally *t, const struct ck_target *c, const struct ck_session *s,
		      unsigned timeout_s)
{
	char buf[8192], last[192];
	uint64_t deadline = now_ns() + (uint64_t)timeout_s * 1000000000u;
	bool open_step = false, hung = false;
	size_t len = 0;
	int fds[2], st = 0;
	pid_t pid;

	snprintf(last, sizeof(last), "%s start", s->name);
	if (pipe2(fds, O_CLOEXEC)) {
		line(t, 'F', s->name, "cannot create a pipe: %s", strerror(errno));
		return;
	}
	fflush(t->out);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		line(t, 'F', s->name, "cannot fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		ck_run_session(c, s, fds[1]);
		_exit(0);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		uint64_t now = now_ns();
		ssize_t n;
		int pr;

		if (now >= deadline) {
			hung = true;
			break;
		}
		pr = poll(&pfd, 1, (int)((deadline - now) / 1000000u) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			continue; /* the deadline check above ends it */
		n = read(fds[0], buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		child_lines(t, buf, &len, last, sizeof(last), &open_step);
		if (len == sizeof(buf) - 1)
			len = 0; /* a line longer than the buffer: drop it */
	}
	close(fds[0]);
	if (hung)
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (hung)
		line(t, 'F', last, "no result within %u s: the engine hangs (a reap that "
		     "ignores its timeout, or waits for I/O it lost?)", timeout_s);
	else if (WIFSIGNALED(st))
		line(t, 'F', last, "the engine crashed: signal %d (%s)", WTERMSIG(st),
		     strsignal(WTERMSIG(st)));
	else if (WIFEXITED(st) && WEXITSTATUS(st))
		line(t, 'F', last, "the process exited with status %d inside the engine "
		     "(an engine must not call exit())", WEXITSTATUS(st));
	else if (open_step)
		line(t, 'F', last, "the step ended without a result");
}

static void check_descriptor(struct tally *t, const struct engine *e)
{
	char caps[128];
	bool ok = true;

	if (!e->version[0]) {
		line(t, 'F', "descriptor", "version is empty: set .version (iorig engines shows it)");
		ok = false;
	}
	if (!e->description[0]) {
		line(t, 'F', "descriptor", "description is empty: set .description to one line");
		ok = false;
	}
	if (strchr(e->description, '\n')) {
		line(t, 'F', "descriptor", "description has a newline: keep it to one line");
		ok = false;
	}
	if (e->io_priv_size > (1u << 20)) {
		line(t, 'F', "descriptor", "io_priv_size is %zu bytes per I/O: per-I/O scratch "
		     "is for small state; allocate big buffers in init", e->io_priv_size);
		ok = false;
	}
	engine_caps_text(e->caps, caps, sizeof(caps));
	if (ok)
		line(t, 'P', "descriptor", "name '%s', version '%s', ABI %u.%u, capabilities %s",
		     e->name, e->version, e->abi_major, e->abi_minor, caps);
}

/* What the loader does not already refuse: ranges, unreachable names. */
static void check_options(struct tally *t, const struct engine *e)
{
	unsigned bad = 0;

	for (size_t i = 0; i < e->n_options; i++) {
		const struct iorig_option *o = &e->options[i];
		bool ranged = o->type == IORIG_OPT_INT || o->type == IORIG_OPT_SIZE ||
			      o->type == IORIG_OPT_DURATION;
		char f[64];

		snprintf(f, sizeof(f), "option '%s'", o->name);
		if (options_is_core(o->name)) {
			line(t, 'F', "options", "%s has the name of a core option, which wins: "
			     "users can never set it; rename it", f);
			bad++;
		}
		if (strchr(o->help, '\n')) {
			line(t, 'F', "options", "%s: help has a newline; keep it to one line", f);
			bad++;
		}
		if (ranged && o->min > o->max) {
			line(t, 'F', "options", "%s: min %lld > max %lld, so the range is never "
			     "checked; swap them (or set both to 0 for no range)", f,
			     (long long)o->min, (long long)o->max);
			bad++;
		}
		/* A NULL default is 0, which the binder never range-checks. */
		if (ranged && !o->def && o->min < o->max && (o->min > 0 || o->max < 0)) {
			line(t, 'F', "options", "%s has no default, so it is 0, outside its range "
			     "%lld..%lld: set .def", f, (long long)o->min, (long long)o->max);
			bad++;
		}
		if (!ranged && (o->min || o->max)) {
			line(t, 'F', "options", "%s: min/max are set but only int, size and "
			     "duration options have a range; set them to 0", f);
			bad++;
		}
		for (size_t a = 0; o->type == IORIG_OPT_ENUM && o->values[a]; a++) {
			if (!o->values[a][0]) {
				line(t, 'F', "options", "%s: value #%zu is empty", f, a);
				bad++;
			}
			for (size_t b = 0; b < a; b++)
				if (!strcasecmp(o->values[a], o->values[b])) {
					line(t, 'F', "options", "%s: value '%s' is listed twice "
					     "(values match without case)", f, o->values[a]);
					bad++;
				}
		}
	}
	if (!bad)
		line(t, 'P', "options", "%zu option(s): names, types, ranges, help and defaults "
		     "valid", e->n_options);
}

static int bind_options(struct tally *t, const struct engine *e, const char *const *kv,
			void **opts)
{
	char err[512];

	*opts = NULL;
	if (!e->options_size) {
		if (kv && kv[0]) {
			line(t, 'F', "options", "engine '%s' has no options; cannot set '%s'",
			     e->name, kv[0]);
			return -EINVAL;
		}
		return 0;
	}
	*opts = calloc(1, e->options_size);
	if (!*opts)
		return -ENOMEM;
	if (option_defaults(e->options, *opts, err, sizeof(err))) {
		line(t, 'F', "options", "the defaults do not bind: %s", err);
		return -EINVAL;
	}
	for (; kv && kv[0] && kv[1]; kv += 2) {
		int rc = option_bind(e->options, *opts, kv[0], kv[1], err, sizeof(err));

		if (rc == -ENOENT)
			snprintf(err, sizeof(err), "engine '%s' has no option '%s'", e->name, kv[0]);
		if (rc) {
			line(t, 'F', "options", "%s=%s: %s", kv[0], kv[1], err);
			return rc;
		}
	}
	return 0;
}

/* O_DIRECT on the temporary file, with an aligned read to be sure. */
static bool direct_works(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	void *buf = NULL;
	bool ok;

	if (fd < 0)
		return false;
	ok = !posix_memalign(&buf, CK_ALIGN, CK_BS) && pread(fd, buf, CK_BS, 0) == CK_BS;
	free(buf);
	close(fd);
	return ok;
}

static int make_file(struct tally *t, const char *dir, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/iorig-check-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		line(t, 'F', "setup", "cannot create a file in %s: %s; set TMPDIR to a writable "
		     "directory", dir, strerror(errno));
		return -1;
	}
	if (ftruncate(fd, (off_t)CK_SIZE)) {
		line(t, 'F', "setup", "cannot size %s: %s", path, strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	return 0;
}

int check_engine_run(FILE *out, const struct engine *e, const struct check_params *cp)
{
	static const struct check_params defaults = { 0 };
	struct tally t = { out, 0, 0, 0 };
	struct ck_session sessions[4];
	struct ck_target c = { .e = e };
	const char *dir;
	char path[4096];
	unsigned n = 0, depth, timeout;
	void *opts = NULL;
	bool have_file = false;

	cp = cp ? cp : &defaults;
	dir = cp->dir ? cp->dir : getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR")
								       : "/var/tmp";
	depth = cp->depth ? cp->depth : CK_DEPTH;
	timeout = cp->timeout_s ? cp->timeout_s : CK_TIMEOUT_S;
	c.diskless = e->caps & IORIG_CAP_DISKLESS;
	c.async = e->caps & IORIG_CAP_ASYNC;
	if (!c.async)
		depth = 1;

	check_descriptor(&t, e);
	check_options(&t, e);
	if (bind_options(&t, e, cp->kv, &opts)) {
		option_free_strings(e->options, opts);
		free(opts);
		return CHECK_UNUSABLE;
	}
	c.opts = opts;
	if (c.diskless) {
		c.path = "iorig-check";
		line(&t, 'S', "data", "diskless engine: data checks do not apply; results, "
		     "completions and buffers are still checked");
	} else {
		if (make_file(&t, dir, path, sizeof(path))) {
			option_free_strings(e->options, opts);
			free(opts);
			return CHECK_UNUSABLE;
		}
		c.path = path;
		have_file = true;
	}

	sessions[n++] = (struct ck_session){ "qd1", 1, false, false, true };
	if (depth > 1) {
		sessions[n] = (struct ck_session){ "", depth, false, false, false };
		snprintf(sessions[n++].name, sizeof(sessions[0].name), "qd%u", depth);
	}
	if (!(e->caps & IORIG_CAP_DIRECT))
		line(&t, 'S', "direct", "the engine does not declare IORIG_CAP_DIRECT");
	else if (c.diskless)
		line(&t, 'S', "direct", "diskless engine: nothing to open with O_DIRECT");
	else if (!direct_works(path))
		line(&t, 'S', "direct", "%s does not support O_DIRECT (tmpfs?); set TMPDIR to a "
		     "directory on a disk filesystem to check it", dir);
	else {
		sessions[n] = (struct ck_session){ "", depth, true, false, false };
		snprintf(sessions[n++].name, sizeof(sessions[0].name), "direct-qd%u", depth);
	}
	if (!c.diskless) {
		sessions[n] = (struct ck_session){ "", depth, false, true, false };
		snprintf(sessions[n++].name, sizeof(sessions[0].name), "read-only-qd%u", depth);
	}
	if (!(e->caps & IORIG_CAP_FSYNC))
		line(&t, 'S', "fsync", "the engine does not declare IORIG_CAP_FSYNC");

	for (unsigned i = 0; i < n; i++)
		run_child(&t, &c, &sessions[i], timeout);

	if (have_file)
		unlink(path);
	option_free_strings(e->options, opts);
	free(opts);
	fprintf(out, "%s: %u passed, %u failed, %u skipped\n", t.fail ? "FAILED" : "OK",
		t.pass, t.fail, t.skip);
	return t.fail ? CHECK_FAILED : CHECK_OK;
}

int check_engine_path(FILE *out, const struct engine_path *p, const char *path_or_name,
		      const struct check_params *cp)
{
	const struct engine *e;
	char err[1024], caps[128];
	int rc = engine_load(p, path_or_name, &e, err, sizeof(err));

	if (rc) {
		fprintf(out, "FAIL  load: %s\n", err);
		return CHECK_UNUSABLE;
	}
	engine_caps_text(e->caps, caps, sizeof(caps));
	fprintf(out, "checking engine '%s' %s (ABI %u.%u, %s) from %s\n", e->name, e->version,
		e->abi_major, e->abi_minor, caps, e->path);
	fprintf(out, "PASS  load: the loader accepted the descriptor and options table\n");
	return check_engine_run(out, e, cp);
}

int check_engine_cmd(FILE *out, const struct engine_path *p, const char *path_or_name)
{
	return check_engine_path(out, p, path_or_name, NULL);
}
