/*
 * Finding, loading and checking engine plugins.
 *
 * A plugin is trusted only after its descriptor passed every check below;
 * then its fields are copied, group by ABI group and gated on the
 * descriptor's struct_size, into a core-owned struct engine.  The core
 * never writes plugin memory and keeps no pointer into it except the
 * read-only options table (checked here) and the ops.
 *
 * Errors: every refusal is one line naming the file, what was found and
 * what to do.  Return codes: -ENOENT (no such engine/file), -ENOEXEC (not
 * loadable: dlopen failed, no entry symbol, entry returned NULL), -EPROTO
 * (ABI version mismatch), -EINVAL (descriptor breaks the contract),
 * -ENOMEM.
 *
 * Engines load before any worker starts, so the cache takes no lock.
 */
#include <assert.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "options.h"

/* The descriptor as ABI 1.0 defines it: the least a plugin may provide. */
#define ENGINE_SIZE_1_0 \
	(offsetof(struct iorig_engine, get_size) + sizeof(((struct iorig_engine *)0)->get_size))

/* Adding a field to struct iorig_engine must add its copy in engine_copy(). */
static_assert(sizeof(struct iorig_engine) == ENGINE_SIZE_1_0,
	      "struct iorig_engine grew: copy the new fields in engine_copy() "
	      "and update ENGINE_SIZE checks");

/* Did the plugin's descriptor (of d->struct_size bytes) include field? */
#define DESC_HAS(d, field) \
	(offsetof(struct iorig_engine, field) + sizeof((d)->field) <= (d)->struct_size)

#define MAX_OPTIONS 512
#define MAX_NAME 64

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...) IORIG_PRINTF(4, 5);

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* ---- search path -------------------------------------------------------- */

static int path_add(struct engine_path *p, const char *dir, size_t len)
{
	char **dirs;
	char *d;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (!len)
		return 0;
	for (size_t i = 0; i < p->n; i++)
		if (strlen(p->dirs[i]) == len && !memcmp(p->dirs[i], dir, len))
			return 0; /* listed twice: searching it again finds nothing new */
	d = strndup(dir, len);
	dirs = d ? realloc(p->dirs, (p->n + 1) * sizeof(*dirs)) : NULL;
	if (!dirs) {
		free(d);
		return -ENOMEM;
	}
	dirs[p->n++] = d;
	p->dirs = dirs;
	return 0;
}

/*
 * The build tree's plugin directory is searched only by a binary that
 * still lives in that build tree: an installed iorig must not load a .so
 * that someone left in an old build directory.
 */
static bool running_from_build_tree(void)
{
	char exe[PATH_MAX], build[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t bl;

	if (n <= 0 || !realpath(IORIG_BUILD_DIR, build))
		return false;
	exe[n] = 0;
	bl = strlen(build);
	return !strncmp(exe, build, bl) && exe[bl] == '/';
}

int engine_path_init(struct engine_path *p, char *const *cli_dirs, size_t n_cli)
{
	const char *env = getenv("IORIG_PLUGIN_PATH");
	int rc = 0;

	p->dirs = NULL;
	p->n = 0;
	for (size_t i = 0; i < n_cli && !rc; i++)
		rc = path_add(p, cli_dirs[i], strlen(cli_dirs[i]));
	while (env && *env && !rc) {
		size_t len = strcspn(env, ":");

		rc = path_add(p, env, len);
		env += len + (env[len] == ':');
	}
	if (!rc)
		rc = path_add(p, IORIG_INSTALL_PLUGIN_DIR, strlen(IORIG_INSTALL_PLUGIN_DIR));
	if (!rc && running_from_build_tree())
		rc = path_add(p, IORIG_BUILD_PLUGIN_DIR, strlen(IORIG_BUILD_PLUGIN_DIR));
	if (rc)
		engine_path_free(p);
	return rc;
}

void engine_path_free(struct engine_path *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->dirs[i]);
	free(p->dirs);
	p->dirs = NULL;
	p->n = 0;
}

/* ---- descriptor checks -------------------------------------------------- */

static bool name_ok(const char *s, size_t max)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!isalnum((unsigned char)s[n]) && s[n] != '_' && s[n] != '-')
			return false;
	return n > 0 && n <= max;
}

static size_t opt_field_size(uint32_t type, size_t *align)
{
	*align = 1; /* an unknown type: size 0, refused by the caller */
	switch (type) {
	case IORIG_OPT_BOOL:
	case IORIG_OPT_ENUM:
		*align = _Alignof(int);
		return sizeof(int);
	case IORIG_OPT_INT:
		*align = _Alignof(int64_t);
		return sizeof(int64_t);
	case IORIG_OPT_SIZE:
	case IORIG_OPT_DURATION:
		*align = _Alignof(uint64_t);
		return sizeof(uint64_t);
	case IORIG_OPT_STRING:
		*align = _Alignof(const char *);
		return sizeof(const char *);
	}
	return 0;
}

/* Check the table entry by entry, then bind every default into scratch. */
static int check_options(const char *path, const struct iorig_option *t,
			 size_t opts_size, size_t *count, char *err, size_t errlen)
{
	char msg[512];
	void *scratch;
	size_t n;
	int rc;

	*count = 0;
	if (!t)
		return 0;
	for (n = 0; n < MAX_OPTIONS && t[n].name; n++) {
		const struct iorig_option *o = &t[n];
		size_t align, sz = opt_field_size(o->type, &align);

		if (!name_ok(o->name, MAX_NAME))
			return fail(err, errlen, -EINVAL,
				    "engine %s: option #%zu is named '%s'; option names are 1-%d "
				    "letters, digits, '_' or '-': rename it",
				    path, n, o->name, MAX_NAME);
		if (!o->help || !o->help[0])
			return fail(err, errlen, -EINVAL,
				    "engine %s: option '%s' has no help text; every option needs "
				    "a one-line help (iorig engines NAME prints it): set .help",
				    path, o->name);
		if (!sz)
			return fail(err, errlen, -EINVAL,
				    "engine %s: option '%s' has type %u, which ABI 1.0 does not "
				    "define: use one of IORIG_OPT_BOOL..IORIG_OPT_ENUM",
				    path, o->name, o->type);
		if ((size_t)o->offset + sz > opts_size || o->offset % align)
			return fail(err, errlen, -EINVAL,
				    "engine %s: option '%s' is stored at offset %u (%zu bytes), "
				    "outside or misaligned in the %zu-byte options struct: use "
				    "offsetof() and set options_size = sizeof(your options)",
				    path, o->name, o->offset, sz, opts_size);
		if (o->type == IORIG_OPT_ENUM && (!o->values || !o->values[0]))
			return fail(err, errlen, -EINVAL,
				    "engine %s: enum option '%s' has no values: set .values to a "
				    "NULL-terminated list", path, o->name);
		for (size_t j = 0; j < n; j++)
			if (!strcmp(t[j].name, o->name))
				return fail(err, errlen, -EINVAL,
					    "engine %s: option '%s' is declared twice: remove one",
					    path, o->name);
	}
	if (n == MAX_OPTIONS)
		return fail(err, errlen, -EINVAL,
			    "engine %s: options table has no IORIG_OPTION_END within %d "
			    "entries: end the table with IORIG_OPTION_END", path, MAX_OPTIONS);
	if (!n)
		return 0;

	/* A default the binder refuses would fail every job: refuse it now. */
	scratch = calloc(1, opts_size);
	if (!scratch)
		return fail(err, errlen, -ENOMEM, "engine %s: out of memory", path);
	msg[0] = '\0';
	rc = option_defaults(t, scratch, msg, sizeof(msg));
	option_free_strings(t, scratch);
	free(scratch);
	if (rc)
		return fail(err, errlen, -EINVAL,
			    "engine %s: an option default is invalid: %s; fix .def in its "
			    "options table", path, msg[0] ? msg : "option_defaults() failed");
	*count = n;
	return 0;
}

static int check_descriptor(const char *path, const struct iorig_engine *d,
			    size_t *n_options, char *err, size_t errlen)
{
	uint64_t unknown;

	if (d->abi_major != IORIG_ABI_MAJOR)
		return fail(err, errlen, -EPROTO,
			    "engine %s was built for engine ABI %u.%u, this iorig speaks %u.%u: "
			    "rebuild it against this iorig's sdk/include/iorig/engine.h",
			    path, d->abi_major, d->abi_minor, IORIG_ABI_MAJOR, IORIG_ABI_MINOR);
	if (d->abi_minor > IORIG_ABI_MINOR)
		return fail(err, errlen, -EPROTO,
			    "engine %s needs engine ABI %u.%u, this iorig provides %u.%u: "
			    "upgrade iorig, or rebuild the engine against this iorig's sdk",
			    path, d->abi_major, d->abi_minor, IORIG_ABI_MAJOR, IORIG_ABI_MINOR);
	if (d->struct_size < ENGINE_SIZE_1_0)
		return fail(err, errlen, -EINVAL,
			    "engine %s: descriptor struct_size is %u, smaller than the ABI 1.0 "
			    "descriptor (%zu bytes): set it with IORIG_ENGINE_HEADER",
			    path, d->struct_size, ENGINE_SIZE_1_0);
	if (!d->name || !name_ok(d->name, MAX_NAME))
		return fail(err, errlen, -EINVAL,
			    "engine %s: engine name is %s%s%s; it must be 1-%d letters, digits, "
			    "'_' or '-' (what ioengine= names): set .name",
			    path, d->name ? "'" : "", d->name ? d->name : "NULL",
			    d->name ? "'" : "", MAX_NAME);
	if (!d->queue)
		return fail(err, errlen, -EINVAL,
			    "engine %s (%s): queue op is NULL; every engine must implement queue",
			    path, d->name);
	if ((d->caps & IORIG_CAP_ASYNC) && !d->reap)
		return fail(err, errlen, -EINVAL,
			    "engine %s (%s): declares IORIG_CAP_ASYNC but has no reap op: "
			    "implement reap, or drop the capability and complete in queue",
			    path, d->name);
	if ((d->caps & IORIG_CAP_FSYNC) && !d->fsync)
		return fail(err, errlen, -EINVAL,
			    "engine %s (%s): declares IORIG_CAP_FSYNC but has no fsync op: "
			    "implement fsync, or drop the capability", path, d->name);
	unknown = d->caps & ~(uint64_t)IORIG_CAP_MASK_1_0;
	if (unknown)
		return fail(err, errlen, -EINVAL,
			    "engine %s (%s): declares capability bits 0x%llx that engine ABI "
			    "%u.%u does not define: remove them (or build against a newer sdk "
			    "and use a newer iorig)", path, d->name, (unsigned long long)unknown,
			    IORIG_ABI_MAJOR, IORIG_ABI_MINOR);
	return check_options(path, d->options, d->options_size, n_options, err, errlen);
}

/* ---- copying the descriptor --------------------------------------------- */

static int engine_copy(struct engine *e, const struct iorig_engine *d, size_t n_options)
{
	/* The 1.0 group: check_descriptor() made sure all of it is there. */
	if (DESC_HAS(d, get_size)) {
		e->name = strdup(d->name);
		e->version = strdup(d->version ? d->version : "");
		e->description = strdup(d->description ? d->description : "");
		e->abi_major = d->abi_major;
		e->abi_minor = d->abi_minor;
		e->caps = d->caps;
		e->n_options = n_options;
		e->options = n_options ? d->options : NULL;
		e->options_size = n_options ? d->options_size : 0;
		e->io_priv_size = d->io_priv_size;
		e->ops.init = d->init;
		e->ops.cleanup = d->cleanup;
		e->ops.open_file = d->open_file;
		e->ops.close_file = d->close_file;
		e->ops.queue = d->queue;
		e->ops.commit = d->commit;
		e->ops.reap = d->reap;
		e->ops.fsync = d->fsync;
		e->ops.invalidate = d->invalidate;
		e->ops.get_size = d->get_size;
	}
	/* Later minors: if (DESC_HAS(d, new_field)) e->ops.new_field = d->new_field; */

	/* ops is the core's copy: point its strings at core memory too. */
	e->ops.struct_size = sizeof(e->ops);
	e->ops.abi_major = e->abi_major;
	e->ops.abi_minor = e->abi_minor;
	e->ops.name = e->name;
	e->ops.version = e->version;
	e->ops.description = e->description;
	e->ops.caps = e->caps;
	e->ops.options = e->options;
	e->ops.options_size = e->options_size;
	e->ops.io_priv_size = e->io_priv_size;
	return e->name && e->version && e->description ? 0 : -ENOMEM;
}

/* ---- loading ------------------------------------------------------------ */

/* dlerror() names a missing dependency as "libfoo.so.1: cannot open ..." */
static int dlopen_failed(const char *path, const char *dlerr, char *err, size_t errlen)
{
	static const char marker[] = ": cannot open shared object file";
	const char *m = dlerr ? strstr(dlerr, marker) : NULL;

	if (!dlerr)
		dlerr = "unknown dlopen error";
	if (m && ((size_t)(m - dlerr) != strlen(path) || strncmp(dlerr, path, m - dlerr)))
		return fail(err, errlen, -ENOEXEC,
			    "cannot load engine %s: it needs the library %.*s, which is not "
			    "installed or not on the loader path; install it (or add its "
			    "directory to LD_LIBRARY_PATH) [dlerror: %s]",
			    path, (int)(m - dlerr), dlerr, dlerr);
	return fail(err, errlen, -ENOEXEC,
		    "cannot load engine %s: %s; rebuild it for this system against "
		    "iorig's sdk/include/iorig/engine.h", path, dlerr);
}

int engine_load_file(const char *path, struct engine **out, char *err, size_t errlen)
{
	char buf[PATH_MAX], real[PATH_MAX];
	const struct iorig_engine *d;
	iorig_engine_entry_fn entry;
	struct engine *e;
	size_t n_options = 0;
	struct stat st;
	void *dl;
	int rc;

	*out = NULL;
	if (stat(path, &st))
		return fail(err, errlen, -errno,
			    "engine file %s: %s; check the path", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(err, errlen, -ENOEXEC,
			    "engine file %s is not a regular file; name a .so", path);
	/* Without a '/', dlopen would search the library path, not this file. */
	if (!strchr(path, '/')) {
		snprintf(buf, sizeof(buf), "./%s", path);
		path = buf;
	}
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);

	dlerror();
	dl = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	if (!dl)
		return dlopen_failed(real, dlerror(), err, errlen);

	*(void **)&entry = dlsym(dl, IORIG_ENGINE_ENTRY_SYMBOL);
	if (!entry) {
		rc = fail(err, errlen, -ENOEXEC,
			  "engine %s does not export %s(): it is not an iorig engine, or "
			  "was built without IORIG_ENGINE_DEFINE(descriptor)",
			  real, IORIG_ENGINE_ENTRY_SYMBOL);
		goto out_close;
	}
	d = entry(IORIG_ABI_MAJOR, IORIG_ABI_MINOR);
	if (!d) {
		rc = fail(err, errlen, -ENOEXEC,
			  "engine %s: %s(%u, %u) returned NULL: the engine refuses this "
			  "iorig (built for another ABI major?); rebuild it against this "
			  "iorig's sdk", real, IORIG_ENGINE_ENTRY_SYMBOL,
			  IORIG_ABI_MAJOR, IORIG_ABI_MINOR);
		goto out_close;
	}
	rc = check_descriptor(real, d, &n_options, err, errlen);
	if (rc)
		goto out_close;

	e = calloc(1, sizeof(*e));
	if (!e) {
		rc = fail(err, errlen, -ENOMEM, "engine %s: out of memory", real);
		goto out_close;
	}
	e->dl = dl;
	e->path = strdup(real);
	rc = engine_copy(e, d, n_options);
	if (rc || !e->path) {
		engine_free(e);
		return fail(err, errlen, -ENOMEM, "engine %s: out of memory", real);
	}
	*out = e;
	return 0;

out_close:
	dlclose(dl);
	return rc;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	free(e->name);
	free(e->version);
	free(e->description);
	free(e->path);
	if (e->dl)
		dlclose(e->dl);
	free(e);
}

/* ---- the per-process cache ---------------------------------------------- */

static struct engine **cache;
static size_t cache_n;

static bool is_path(const char *name)
{
	size_t n = strlen(name);

	return strchr(name, '/') || (n > 3 && !strcmp(name + n - 3, ".so"));
}

static const struct engine *cache_find(const char *name)
{
	char real[PATH_MAX];
	bool path = is_path(name);

	if (path && !realpath(name, real))
		return NULL;
	for (size_t i = 0; i < cache_n; i++)
		if (!strcmp(path ? cache[i]->path : cache[i]->name, path ? real : name))
			return cache[i];
	return NULL;
}

static int cache_add(struct engine *e, char *err, size_t errlen)
{
	struct engine **c = realloc(cache, (cache_n + 1) * sizeof(*c));

	if (!c) {
		int rc = fail(err, errlen, -ENOMEM, "engine %s: out of memory", e->path);

		engine_free(e);
		return rc;
	}
	c[cache_n++] = e;
	cache = c;
	return 0;
}

/* "dir1, dir2, ..." into buf, cut short with "..." when it does not fit. */
static void dirs_text(const struct engine_path *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", p->dirs[i]);

		if (w < 0 || (size_t)w >= len - used) {
			if (len > 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		used += w;
	}
	if (!p->n)
		snprintf(buf, len, "(no directories)");
}

int engine_load(const struct engine_path *p, const char *name,
		const struct engine **out, char *err, size_t errlen)
{
	char file[PATH_MAX], dirs[1024];
	const struct engine *cached;
	struct engine *e;
	int rc;

	*out = NULL;
	if (!name || !name[0])
		return fail(err, errlen, -EINVAL,
			    "no engine named: set ioengine= to an engine name or a .so path");
	cached = cache_find(name);
	if (cached) {
		*out = cached;
		return 0;
	}
	if (is_path(name)) {
		rc = engine_load_file(name, &e, err, errlen);
		if (rc)
			return rc;
		/* Loaded by path but already cached under its name: keep one. */
		cached = cache_find(e->name);
		if (cached && !strcmp(cached->path, e->path)) {
			engine_free(e);
			*out = cached;
			return 0;
		}
		rc = cache_add(e, err, errlen);
		*out = rc ? NULL : e;
		return rc;
	}

	for (size_t i = 0; i < p->n; i++) {
		snprintf(file, sizeof(file), "%s/%s.so", p->dirs[i], name);
		if (access(file, F_OK))
			continue;
		/* First match wins, even a broken one: never silently skip it. */
		rc = engine_load_file(file, &e, err, errlen);
		if (rc)
			return rc;
		if (strcmp(e->name, name)) {
			rc = fail(err, errlen, -EINVAL,
				  "engine %s declares the name '%s', not '%s': rename the file "
				  "to %s.so, or use ioengine=%s", e->path, e->name, name,
				  e->name, e->path);
			engine_free(e);
			return rc;
		}
		rc = cache_add(e, err, errlen);
		*out = rc ? NULL : e;
		return rc;
	}
	dirs_text(p, dirs, sizeof(dirs));
	return fail(err, errlen, -ENOENT,
		    "engine '%s' not found: no %s.so in %s; run `iorig engines` to list "
		    "engines, or add a directory with --plugin-dir or IORIG_PLUGIN_PATH",
		    name, name, dirs);
}

void engine_cache_free(void)
{
	for (size_t i = 0; i < cache_n; i++)
		engine_free(cache[i]);
	free(cache);
	cache = NULL;
	cache_n = 0;
}
