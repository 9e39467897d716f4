/*
 * The only calls into engine code (besides the inline hot-path wrappers in
 * engine.h).  Each wrapper fills in the default for an optional op, so the
 * rest of the core never checks for NULL ops:
 *   init       absent: *state = NULL, success (a stateless engine)
 *   cleanup    absent: nothing
 *   open_file  absent: success (a diskless engine has nothing to open)
 *   close_file absent: success
 *   fsync      absent: success.  Such an engine has nothing it could flush;
 *              the loader refuses IORIG_CAP_FSYNC without an fsync op, so
 *              an engine cannot claim syncs it does not do.
 *   invalidate absent: success (no cache of its own to drop)
 *   get_size   absent: -ENOTSUP (the core then needs size= from the job)
 * An op returning a positive value where 0/-errno is the contract is an
 * engine bug; it is reported once per call and turned into -EIO so the
 * job fails instead of carrying on with a half-done step.
 */
#include <errno.h>

#include "engine.h"
#include "log.h"

static int checked(const struct engine *e, const char *op, int rc)
{
	if (rc <= 0)
		return rc;
	log_err("engine %s (%s): %s returned %d, the ABI allows 0 or -errno; "
		"treating it as an I/O error (report this to the engine's author)",
		e->name, e->path, op, rc);
	return -EIO;
}

int eng_init(const struct engine *e, const struct iorig_job_info *job,
	     const void *opts, void **state)
{
	*state = NULL;
	if (!e->ops.init)
		return 0;
	return checked(e, "init", e->ops.init(job, opts, state));
}

void eng_cleanup(const struct engine *e, void *state)
{
	if (e->ops.cleanup)
		e->ops.cleanup(state);
}

int eng_open_file(const struct engine *e, void *state, struct iorig_file *f)
{
	if (!e->ops.open_file)
		return 0;
	return checked(e, "open_file", e->ops.open_file(state, f));
}

int eng_close_file(const struct engine *e, void *state, struct iorig_file *f)
{
	if (!e->ops.close_file)
		return 0;
	return checked(e, "close_file", e->ops.close_file(state, f));
}

int eng_fsync(const struct engine *e, void *state, struct iorig_file *f, int datasync)
{
	if (!e->ops.fsync)
		return 0;
	return checked(e, "fsync", e->ops.fsync(state, f, datasync));
}

int eng_invalidate(const struct engine *e, void *state, struct iorig_file *f)
{
	if (!e->ops.invalidate)
		return 0;
	return checked(e, "invalidate", e->ops.invalidate(state, f));
}

int eng_get_size(const struct engine *e, void *state, struct iorig_file *f, uint64_t *size)
{
	if (!e->ops.get_size)
		return -ENOTSUP;
	return checked(e, "get_size", e->ops.get_size(state, f, size));
}
