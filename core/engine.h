/*
 * The core's view of a loaded engine.  engine_loader.c fills struct engine
 * by copying the plugin's descriptor field by field (gated on its
 * struct_size), so the core never keeps a pointer into a descriptor it did
 * not check and never writes plugin memory.  engine_calls.c is the only
 * place that calls an engine op: every call into a plugin goes through the
 * eng_* wrappers declared here.
 */
#ifndef IORIG_CORE_ENGINE_H
#define IORIG_CORE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <iorig/engine.h>

struct engine {
	char *name;
	char *version;
	char *description;
	char *path;               /* the .so it came from */
	void *dl;                 /* dlopen handle */
	uint16_t abi_major, abi_minor; /* what the plugin was built against */
	uint64_t caps;
	const struct iorig_option *options; /* points into the plugin (read-only) */
	size_t n_options;
	size_t options_size;
	size_t io_priv_size;
	/* ops, copied; optional ones may be NULL and the wrappers default them */
	struct iorig_engine ops;
};

/* A directory searched for engines, in order. */
struct engine_path {
	char **dirs;
	size_t n;
};

/*
 * Search path: each --plugin-dir, then IORIG_PLUGIN_PATH (colon list), then
 * the installed directory, then the build tree's plugin directory.
 */
int engine_path_init(struct engine_path *p, char *const *cli_dirs, size_t n_cli);
void engine_path_free(struct engine_path *p);

/*
 * Load engine `name` (a name found on the path, or a path to a .so).
 * Engines are loaded once per process and cached; the cache owns them.
 * On failure returns -errno and writes a one-line reason into err.
 */
int engine_load(const struct engine_path *p, const char *name,
		const struct engine **out, char *err, size_t errlen);

/* Load one .so and validate it, without the cache (used by `engines`). */
int engine_load_file(const char *path, struct engine **out, char *err, size_t errlen);
void engine_free(struct engine *e);
void engine_cache_free(void);

/* The host API handed to engines (host.c). */
const struct iorig_host *host_api(void);

/* ---- wrappers: the only calls into engine code (engine_calls.c) --------- */
int eng_init(const struct engine *e, const struct iorig_job_info *job,
	     const void *opts, void **state);
void eng_cleanup(const struct engine *e, void *state);
int eng_open_file(const struct engine *e, void *state, struct iorig_file *f);
int eng_close_file(const struct engine *e, void *state, struct iorig_file *f);
int eng_fsync(const struct engine *e, void *state, struct iorig_file *f, int datasync);
int eng_invalidate(const struct engine *e, void *state, struct iorig_file *f);
/* -ENOTSUP when the engine has no get_size. */
int eng_get_size(const struct engine *e, void *state, struct iorig_file *f, uint64_t *size);

/* Hot path: inline so the wrapper costs nothing. */
static inline int eng_queue(const struct engine *e, void *state, struct iorig_io *io)
{
	return e->ops.queue(state, io);
}

static inline int eng_commit(const struct engine *e, void *state)
{
	return e->ops.commit ? e->ops.commit(state) : 0;
}

static inline int eng_reap(const struct engine *e, void *state, unsigned min,
			   unsigned max, uint64_t timeout_ns, struct iorig_io **done)
{
	return e->ops.reap(state, min, max, timeout_ns, done);
}

#endif
