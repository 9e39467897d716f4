/*
 * iorig engine ABI: the one header an I/O engine includes.
 *
 * An engine is a shared object exporting one symbol, iorig_engine_entry().
 * The core calls it once after dlopen() and receives a const descriptor
 * (struct iorig_engine).  The core copies what it needs out of that
 * descriptor and never writes to engine memory.
 *
 * Versioning (see docs/engine-abi.md):
 *   - IORIG_ABI_MAJOR must be equal between core and engine.
 *   - An engine built against minor N loads in every core with minor >= N.
 *   - Structures only ever grow at the end, and every growth bumps the minor.
 *     Each versioned struct starts with struct_size so that the reader knows
 *     which fields the writer knew about.
 *
 * Return convention: every op returns 0 (or a documented non-negative value)
 * on success and -errno on failure.  Ops that fail should also call
 * host->set_error() with a message that tells the user what to change.
 *
 * Threading: one engine state (from init) is used by exactly one worker
 * thread.  Different job instances run init() concurrently on different
 * threads, so an engine keeps no mutable global state.
 */
#ifndef IORIG_ENGINE_H
#define IORIG_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IORIG_ABI_MAJOR 1
#define IORIG_ABI_MINOR 0

/* The only symbol an engine exports. */
#define IORIG_ENGINE_ENTRY_SYMBOL "iorig_engine_entry"

#if defined(__GNUC__) || defined(__clang__)
#define IORIG_EXPORT __attribute__((visibility("default")))
#define IORIG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define IORIG_EXPORT
#define IORIG_PRINTF(a, b)
#endif

/* ---- I/O units ---------------------------------------------------------- */

enum iorig_ddir {
	IORIG_DDIR_READ = 0,
	IORIG_DDIR_WRITE = 1,
	IORIG_DDIR_TRIM = 2,
};

/* Values queue() returns on success. */
enum iorig_queue_status {
	IORIG_Q_COMPLETED = 0, /* done now; io->result is set */
	IORIG_Q_QUEUED = 1,    /* accepted; will come back from reap() */
	IORIG_Q_BUSY = 2,      /* not accepted; core reaps and retries */
};

/*
 * A file (or device, image, pool...) a job does I/O on.  Owned by the core;
 * the engine may set fd and engine_file in open_file() and read the rest.
 */
struct iorig_file {
	const char *path;   /* as the job named it */
	uint64_t size;      /* bytes of the file the job may touch */
	int open_flags;     /* O_RDONLY or O_RDWR, plus O_DIRECT when direct=1 */
	int fd;             /* engine-owned, -1 when closed */
	uint32_t index;     /* position in the job's file list */
	uint32_t is_blockdev; /* 1 for a block device */
	void *engine_file;  /* engine-private per-file pointer */
};

/*
 * One I/O.  Owned by the core, reused for the whole run.  The engine reads
 * buf, offset, len, ddir, file; writes result (and may use priv).
 */
struct iorig_io {
	void *buf;             /* aligned to the job's buffer alignment */
	uint64_t offset;       /* byte offset in file */
	uint64_t len;          /* bytes */
	struct iorig_file *file;
	uint32_t ddir;         /* enum iorig_ddir */
	uint32_t index;        /* 0..nr_ios-1, fixed for the run (fixed buffers) */
	int64_t result;        /* set by the engine: bytes moved, or -errno */
	void *priv;            /* io_priv_size bytes of engine scratch, or NULL */
	uint64_t core_data[4]; /* the core's; engines never touch */
};

/* ---- options ------------------------------------------------------------ */

enum iorig_opt_type {
	IORIG_OPT_BOOL = 1,     /* int: 0 or 1 */
	IORIG_OPT_INT = 2,      /* int64_t */
	IORIG_OPT_SIZE = 3,     /* uint64_t bytes; "4k" = 4096 */
	IORIG_OPT_DURATION = 4, /* uint64_t nanoseconds; "10s", "500ms" */
	IORIG_OPT_STRING = 5,   /* const char *; core-owned, valid until cleanup */
	IORIG_OPT_ENUM = 6,     /* int: index into values[] */
};

/*
 * One engine option.  The core parses the user's text, checks it, and
 * stores it at `offset` in an options struct of the engine's declared size,
 * before init().  Tables end with an entry whose name is NULL.
 *
 * min/max bound INT, SIZE (bytes) and DURATION (ns) values; the range is
 * checked only when min < max.  def is the default as the user would write
 * it ("4k", "1", "fast"); NULL means zero / NULL string.
 */
struct iorig_option {
	const char *name;
	uint32_t type;               /* enum iorig_opt_type */
	uint32_t offset;             /* offsetof(your_opts, field) */
	const char *def;
	int64_t min;
	int64_t max;
	const char *const *values;   /* ENUM: NULL-terminated list */
	const char *help;            /* one line, required */
};

#define IORIG_OPTION_END { NULL, 0, 0, NULL, 0, 0, NULL, NULL }

/* ---- the host (core) API given to engines ------------------------------- */

enum iorig_log_level {
	IORIG_LOG_ERROR = 0,
	IORIG_LOG_WARN = 1,
	IORIG_LOG_INFO = 2,
	IORIG_LOG_DEBUG = 3,
};

/* Opaque: identifies the job instance in host calls. */
struct iorig_job_handle;

struct iorig_host {
	uint32_t struct_size;
	uint16_t abi_major;
	uint16_t abi_minor;
	/* --- ABI 1.0 --- */
	void (*log)(struct iorig_job_handle *job, int level, const char *fmt, ...)
		IORIG_PRINTF(3, 4);
	/* Record why the job failed; the core prints it with job and file. */
	void (*set_error)(struct iorig_job_handle *job, int err, const char *fmt, ...)
		IORIG_PRINTF(3, 4);
	uint64_t (*now_ns)(void); /* CLOCK_MONOTONIC, the clock stats use */
	void *(*alloc_aligned)(size_t align, size_t size);
	void (*free_aligned)(void *p);
};

/* ---- what init() learns about the job ----------------------------------- */

#define IORIG_JOB_READS    (1u << 0) /* the job issues reads */
#define IORIG_JOB_WRITES   (1u << 1) /* the job issues writes */
#define IORIG_JOB_TRIMS    (1u << 2)
#define IORIG_JOB_DIRECT   (1u << 3) /* direct=1 */
#define IORIG_JOB_RANDOM   (1u << 4) /* random offsets */

struct iorig_job_info {
	uint32_t struct_size;
	uint32_t flags;            /* IORIG_JOB_* */
	const struct iorig_host *host;
	struct iorig_job_handle *handle; /* pass to host calls */
	const char *name;          /* job name */
	uint32_t instance;         /* 0..numjobs-1 */
	uint32_t job_id;           /* unique per run */
	uint32_t iodepth;
	uint32_t iodepth_batch_submit;
	uint32_t iodepth_batch_complete_min;
	uint32_t iodepth_batch_complete_max;
	uint64_t max_bs;           /* largest I/O the job issues */
	uint64_t buf_align;        /* alignment of every io->buf */
	uint32_t nr_files;
	uint32_t nr_ios;           /* == iodepth */
	struct iorig_file *const *files;
	struct iorig_io *const *ios; /* all I/O units, buffers already set */
};

/* ---- the engine descriptor ---------------------------------------------- */

#define IORIG_CAP_ASYNC    (1u << 0) /* queue() may return QUEUED; needs reap */
#define IORIG_CAP_DISKLESS (1u << 1) /* no local files: the core lays out nothing */
#define IORIG_CAP_DIRECT   (1u << 2) /* honours direct=1 */
#define IORIG_CAP_FSYNC    (1u << 3) /* fsync op does real work */
#define IORIG_CAP_TRIM     (1u << 4) /* accepts IORIG_DDIR_TRIM */
#define IORIG_CAP_BLOCKDEV (1u << 5) /* works on block devices */
/* Every capability bit ABI 1.0 defines; others are refused by a 1.0 core. */
#define IORIG_CAP_MASK_1_0 0x3fu

struct iorig_engine {
	uint32_t struct_size;      /* sizeof(struct iorig_engine) you built with */
	uint16_t abi_major;        /* IORIG_ABI_MAJOR */
	uint16_t abi_minor;        /* IORIG_ABI_MINOR */
	/* --- ABI 1.0 --- */
	const char *name;          /* what `ioengine=` names */
	const char *version;       /* the engine's own version, free text */
	const char *description;   /* one line */
	uint64_t caps;             /* IORIG_CAP_* */
	const struct iorig_option *options; /* NULL or IORIG_OPTION_END-terminated */
	size_t options_size;       /* size of the struct options point into */
	size_t io_priv_size;       /* per-I/O scratch bytes (io->priv) */

	/* Per job instance.  *state is the engine's, passed to every op. */
	int (*init)(const struct iorig_job_info *job, const void *opts, void **state);
	void (*cleanup)(void *state);

	int (*open_file)(void *state, struct iorig_file *f);
	int (*close_file)(void *state, struct iorig_file *f);

	/* Returns an enum iorig_queue_status, or -errno (the job fails). */
	int (*queue)(void *state, struct iorig_io *io);
	/* Optional: push queued I/O to the device.  0 or -errno. */
	int (*commit)(void *state);
	/*
	 * Async engines: wait until at least min I/Os completed (or timeout_ns
	 * passed; UINT64_MAX waits forever), store up to max of them in done[]
	 * with result set, return how many (>= 0) or -errno.
	 */
	int (*reap)(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		    struct iorig_io **done);

	/* Optional.  datasync != 0 asks for fdatasync semantics. */
	int (*fsync)(void *state, struct iorig_file *f, int datasync);
	/* Optional: drop cached data of f (e.g. posix_fadvise DONTNEED). */
	int (*invalidate)(void *state, struct iorig_file *f);
	/* Optional: size of an existing target (device, image).  Called before open_file. */
	int (*get_size)(void *state, struct iorig_file *f, uint64_t *size);
};

/*
 * The entry point.  host_abi_major/minor are the core's; an engine that
 * needs a newer core returns NULL.  Define it with IORIG_ENGINE_DEFINE.
 */
typedef const struct iorig_engine *(*iorig_engine_entry_fn)(
	uint32_t host_abi_major, uint32_t host_abi_minor);

/*
 * The macro expands in the engine's own file, outside this header's
 * extern "C" block: a C++ engine needs the linkage spelled out, or the
 * entry symbol would be mangled and the core would not find it.
 */
#ifdef __cplusplus
#define IORIG_EXTERN_C extern "C"
#else
#define IORIG_EXTERN_C
#endif

#define IORIG_ENGINE_DEFINE(desc)                                            \
	IORIG_EXTERN_C IORIG_EXPORT const struct iorig_engine *             \
	iorig_engine_entry(uint32_t host_abi_major, uint32_t host_abi_minor); \
	IORIG_EXTERN_C IORIG_EXPORT const struct iorig_engine *             \
	iorig_engine_entry(uint32_t host_abi_major, uint32_t host_abi_minor) \
	{                                                                    \
		(void)host_abi_minor;                                        \
		return host_abi_major == IORIG_ABI_MAJOR ? &(desc) : NULL;  \
	}

/*
 * Fill the header fields of a descriptor; put it first in the
 * initializer.  C and C++20 get designated initializers.  C++17 has none,
 * so there it is positional and the rest of the descriptor must be
 * positional too (in field order), or assigned in code.
 */
#if defined(__cplusplus) && __cplusplus < 202002L
#define IORIG_ENGINE_HEADER                                                  \
	sizeof(struct iorig_engine), IORIG_ABI_MAJOR, IORIG_ABI_MINOR
#else
#define IORIG_ENGINE_HEADER                                                  \
	.struct_size = sizeof(struct iorig_engine),                          \
	.abi_major = IORIG_ABI_MAJOR, .abi_minor = IORIG_ABI_MINOR
#endif

#ifdef __cplusplus
}
#endif
#endif /* IORIG_ENGINE_H */
