/*
 * Test plugins for the loader, built ONLY from the public SDK header the
 * way a third party would.  One source, one variant per LT_* define (see
 * CMakeLists.txt); each bad variant breaks exactly one rule of the ABI.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include <iorig/engine.h>

#ifndef LT_NAME
#define LT_NAME "lt_good"
#endif

/* The descriptor size ABI 1.0 defines, spelled out as an old plugin would. */
#define LT_SIZE_1_0 (offsetof(struct iorig_engine, get_size) + sizeof(void (*)(void)))

/* Not every variant uses every piece. */
#define LT_UNUSED __attribute__((unused))

struct lt_opts {
	int checked;
	int64_t depth;
	uint64_t chunk;
	uint64_t delay;
	const char *tag;
	int mode;
};

LT_UNUSED static const char *const lt_modes[] = { "fast", "slow", NULL };

LT_UNUSED static const struct iorig_option lt_options[] = {
	{ "checked", IORIG_OPT_BOOL, offsetof(struct lt_opts, checked), "1", 0, 0, NULL,
	  "check data" },
	{ "depth", IORIG_OPT_INT, offsetof(struct lt_opts, depth), "8", 1, 64, NULL,
	  "queue depth" },
	{ "chunk", IORIG_OPT_SIZE, offsetof(struct lt_opts, chunk), "4k", 512, 1 << 20,
	  NULL, "chunk size" },
	{ "delay", IORIG_OPT_DURATION, offsetof(struct lt_opts, delay), "10ms", 0, 0,
	  NULL, "delay per I/O" },
	{ "tag", IORIG_OPT_STRING, offsetof(struct lt_opts, tag), "abc", 0, 0, NULL,
	  "a label" },
	{ "mode", IORIG_OPT_ENUM, offsetof(struct lt_opts, mode), "slow", 0, 0, lt_modes,
	  "speed" },
#if defined(LT_OPT_NO_HELP)
	{ "nohelp", IORIG_OPT_INT, offsetof(struct lt_opts, depth), "1", 0, 0, NULL, NULL },
#elif defined(LT_OPT_BAD_TYPE)
	{ "badtype", 99, offsetof(struct lt_opts, depth), "1", 0, 0, NULL, "bad type" },
#elif defined(LT_OPT_BAD_DEFAULT)
	{ "baddef", IORIG_OPT_INT, offsetof(struct lt_opts, depth), "100", 1, 64, NULL,
	  "default out of range" },
#endif
	IORIG_OPTION_END,
};

LT_UNUSED static int lt_queue(void *state, struct iorig_io *io)
{
	(void)state;
#ifdef LT_MISSING_LIB
	extern int iorigmissing_value(void);
	io->result = iorigmissing_value();
#else
	io->result = (int64_t)io->len;
#endif
	return IORIG_Q_COMPLETED;
}

LT_UNUSED static int lt_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		   struct iorig_io **done)
{
	(void)state, (void)min, (void)max, (void)timeout_ns, (void)done;
	return 0;
}

/* Deliberately breaks the 0/-errno rule: the wrapper test expects -EIO. */
LT_UNUSED static int lt_invalidate(void *state, struct iorig_file *f)
{
	(void)state, (void)f;
	return 1;
}

LT_UNUSED static const struct iorig_engine lt_engine = {
#if defined(LT_MAJOR2)
	.struct_size = sizeof(struct iorig_engine), .abi_major = 2, .abi_minor = 0,
#elif defined(LT_NEWER_MINOR)
	.struct_size = sizeof(struct iorig_engine), .abi_major = IORIG_ABI_MAJOR,
	.abi_minor = IORIG_ABI_MINOR + 1,
#elif defined(LT_SMALL)
	.struct_size = LT_SIZE_1_0 - sizeof(void *), .abi_major = IORIG_ABI_MAJOR,
	.abi_minor = IORIG_ABI_MINOR,
#elif defined(LT_OLD_MINOR)
	.struct_size = LT_SIZE_1_0, .abi_major = 1, .abi_minor = 0,
#else
	IORIG_ENGINE_HEADER,
#endif
#ifdef LT_EMPTY_NAME
	.name = "",
#else
	.name = LT_NAME,
#endif
	.version = "9.9-test",
	.description = "loader test plugin",
#if defined(LT_ASYNC_NO_REAP)
	.caps = IORIG_CAP_ASYNC,
#elif defined(LT_UNKNOWN_CAP)
	.caps = IORIG_CAP_DIRECT | (1u << 6),
#elif defined(LT_FSYNC_NO_OP)
	.caps = IORIG_CAP_FSYNC,
#elif defined(LT_OLD_MINOR)
	.caps = 0,
#else
	.caps = IORIG_CAP_ASYNC | IORIG_CAP_DIRECT,
#endif
#ifndef LT_OLD_MINOR
	/* The old-minor plugin is as bare as the ABI allows: only queue. */
	.options = lt_options,
	.options_size = sizeof(struct lt_opts),
	.io_priv_size = 16,
#ifndef LT_ASYNC_NO_REAP
	.reap = lt_reap,
#endif
	.invalidate = lt_invalidate,
#endif
#ifndef LT_NO_QUEUE
	.queue = lt_queue,
#endif
};

#if defined(LT_NO_ENTRY)
/* Hidden by -fvisibility=hidden: the loader must not find it. */
const struct iorig_engine *lt_not_exported(void);
const struct iorig_engine *lt_not_exported(void)
{
	return &lt_engine;
}
#elif defined(LT_ENTRY_NULL)
IORIG_EXPORT const struct iorig_engine *iorig_engine_entry(uint32_t major, uint32_t minor);
IORIG_EXPORT const struct iorig_engine *iorig_engine_entry(uint32_t major, uint32_t minor)
{
	(void)major, (void)minor;
	return NULL;
}
#elif defined(LT_MAJOR2)
/* A careless entry that hands out its descriptor whatever the host is. */
IORIG_EXPORT const struct iorig_engine *iorig_engine_entry(uint32_t major, uint32_t minor);
IORIG_EXPORT const struct iorig_engine *iorig_engine_entry(uint32_t major, uint32_t minor)
{
	(void)major, (void)minor;
	return &lt_engine;
}
#else
IORIG_ENGINE_DEFINE(lt_engine)
#endif
