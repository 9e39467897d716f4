/*
 * Prints the engine ABI as data: offset and size of every field of every
 * struct in the header, each struct's size, and every constant.  test_abi.py
 * compares the output with layout-<MAJOR>.<MINOR>.txt, so a layout change
 * without a version bump fails, and checks that each older layout of the
 * same major is still contained in the current one (structs only grow).
 *
 * Adding a field: add its F() line here, bump IORIG_ABI_MINOR, and commit
 * the new output as layout-<MAJOR>.<NEW MINOR>.txt.  A field added without
 * its F() line still changes a "sizeof" line, so it cannot slip through.
 *
 * Built twice: against sdk/include (the current header) and, with
 * ABI_FROZEN_1_0, against the frozen engine-1.0.h.
 */
#include <stddef.h>
#include <stdio.h>

#ifdef ABI_FROZEN_1_0
#include "engine-1.0.h"
#else
#include <iorig/engine.h>
#endif

#define F(s, f) printf("field %s.%s %zu %zu\n", #s, #f, offsetof(struct s, f), \
		       sizeof(((struct s *)0)->f))
#define S(s) printf("sizeof %s %zu\n", #s, sizeof(struct s))
#define C(x) printf("const %s %lld\n", #x, (long long)(x))

int main(void)
{
	printf("abi %d.%d\n", IORIG_ABI_MAJOR, IORIG_ABI_MINOR);

	S(iorig_file);
	F(iorig_file, path);
	F(iorig_file, size);
	F(iorig_file, open_flags);
	F(iorig_file, fd);
	F(iorig_file, index);
	F(iorig_file, is_blockdev);
	F(iorig_file, engine_file);

	S(iorig_io);
	F(iorig_io, buf);
	F(iorig_io, offset);
	F(iorig_io, len);
	F(iorig_io, file);
	F(iorig_io, ddir);
	F(iorig_io, index);
	F(iorig_io, result);
	F(iorig_io, priv);
	F(iorig_io, core_data);

	S(iorig_option);
	F(iorig_option, name);
	F(iorig_option, type);
	F(iorig_option, offset);
	F(iorig_option, def);
	F(iorig_option, min);
	F(iorig_option, max);
	F(iorig_option, values);
	F(iorig_option, help);

	S(iorig_host);
	F(iorig_host, struct_size);
	F(iorig_host, abi_major);
	F(iorig_host, abi_minor);
	F(iorig_host, log);
	F(iorig_host, set_error);
	F(iorig_host, now_ns);
	F(iorig_host, alloc_aligned);
	F(iorig_host, free_aligned);

	S(iorig_job_info);
	F(iorig_job_info, struct_size);
	F(iorig_job_info, flags);
	F(iorig_job_info, host);
	F(iorig_job_info, handle);
	F(iorig_job_info, name);
	F(iorig_job_info, instance);
	F(iorig_job_info, job_id);
	F(iorig_job_info, iodepth);
	F(iorig_job_info, iodepth_batch_submit);
	F(iorig_job_info, iodepth_batch_complete_min);
	F(iorig_job_info, iodepth_batch_complete_max);
	F(iorig_job_info, max_bs);
	F(iorig_job_info, buf_align);
	F(iorig_job_info, nr_files);
	F(iorig_job_info, nr_ios);
	F(iorig_job_info, files);
	F(iorig_job_info, ios);

	S(iorig_engine);
	F(iorig_engine, struct_size);
	F(iorig_engine, abi_major);
	F(iorig_engine, abi_minor);
	F(iorig_engine, name);
	F(iorig_engine, version);
	F(iorig_engine, description);
	F(iorig_engine, caps);
	F(iorig_engine, options);
	F(iorig_engine, options_size);
	F(iorig_engine, io_priv_size);
	F(iorig_engine, init);
	F(iorig_engine, cleanup);
	F(iorig_engine, open_file);
	F(iorig_engine, close_file);
	F(iorig_engine, queue);
	F(iorig_engine, commit);
	F(iorig_engine, reap);
	F(iorig_engine, fsync);
	F(iorig_engine, invalidate);
	F(iorig_engine, get_size);

	C(IORIG_DDIR_READ);
	C(IORIG_DDIR_WRITE);
	C(IORIG_DDIR_TRIM);
	C(IORIG_Q_COMPLETED);
	C(IORIG_Q_QUEUED);
	C(IORIG_Q_BUSY);
	C(IORIG_OPT_BOOL);
	C(IORIG_OPT_INT);
	C(IORIG_OPT_SIZE);
	C(IORIG_OPT_DURATION);
	C(IORIG_OPT_STRING);
	C(IORIG_OPT_ENUM);
	C(IORIG_LOG_ERROR);
	C(IORIG_LOG_WARN);
	C(IORIG_LOG_INFO);
	C(IORIG_LOG_DEBUG);
	C(IORIG_JOB_READS);
	C(IORIG_JOB_WRITES);
	C(IORIG_JOB_TRIMS);
	C(IORIG_JOB_DIRECT);
	C(IORIG_JOB_RANDOM);
	C(IORIG_CAP_ASYNC);
	C(IORIG_CAP_DISKLESS);
	C(IORIG_CAP_DIRECT);
	C(IORIG_CAP_FSYNC);
	C(IORIG_CAP_TRIM);
	C(IORIG_CAP_BLOCKDEV);
	C(IORIG_CAP_MASK_1_0);
	printf("const IORIG_ENGINE_ENTRY_SYMBOL %s\n", IORIG_ENGINE_ENTRY_SYMBOL);
	return 0;
}
