/*
 * Verification reports (verify_report.h).  A bad block is rare and worth
 * words: its message is printed from the worker thread when it is found,
 * in one log call so that lines of different threads do not interleave.
 */
#define _GNU_SOURCE
#include "verify_report.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "worker.h"

static size_t hex(char *buf, size_t len, const uint8_t *p, unsigned n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < n && k + 4 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%02x", i ? " " : "", p[i]);
	return k;
}

static int write_file(const char *path, const void *buf, uint64_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

/* Files NAME.OFFSET.received and NAME.OFFSET.expected, as fio names them. */
static void dump_block(struct worker *w, const struct iorig_io *io, uint64_t got,
		       const struct vexpect *ex, const struct vcheck *res, char *note,
		       size_t notelen)
{
	const struct job_opts *o = &w->job->o;
	const char *base = strrchr(io->file->path, '/');
	const char *dir = o->directory && *o->directory ? o->directory : ".";
	char path[4096];
	int rc;

	base = base ? base + 1 : io->file->path;
	snprintf(path, sizeof(path), "%s/%s.%" PRIu64 ".received", dir, base, io->offset);
	rc = write_file(path, io->buf, got);
	snprintf(note, notelen, "\n    dumped: %s%s", path, rc ? " (failed)" : "");
	if (!res->hdr_valid || !got)
		return; /* nothing says what the block should have held */
	{
		struct vhdr h = res->found;
		size_t n = strlen(note);

		h.offset = ex->offset;
		h.file_index = ex->file_index;
		h.job_key = ex->job_key;
		if (ex->gen)
			h.gen = ex->gen;
		if (h.len > w->vs->grid)
			h.len = (uint32_t)w->vs->grid;
		verify_make_block(&o->verify, &o->buf, w->vs->scratch, &h);
		snprintf(path, sizeof(path), "%s/%s.%" PRIu64 ".expected", dir, base, io->offset);
		rc = write_file(path, w->vs->scratch, h.len);
		snprintf(note + n, notelen - n, ", %s%s", path, rc ? " (failed)" : "");
	}
}

void verify_report_bad(struct worker *w, const struct iorig_io *io, uint64_t got,
		       const struct vexpect *ex, const struct vcheck *res)
{
	const struct job_opts *o = &w->job->o;
	struct verify_stats *vst = &w->st->verify;
	const struct vhdr *h = &res->found;
	char exp_gen[32], found[512], diff[256], dump[8448] = "", eb[64], gb[64];

	snprintf(exp_gen, sizeof(exp_gen), ex->gen ? "%u" : "any", ex->gen);
	if (!vst->first[0])
		snprintf(vst->first, sizeof(vst->first), "%s: job '%s' instance %u, %s, offset %"
			 PRIu64 ", length %" PRIu64 ": %s", verify_kind_name[res->kind], o->name,
			 w->instance, io->file->path, io->offset, io->len, res->why);
	if (o->verify.dump)
		dump_block(w, io, got, ex, res, dump, sizeof(dump));
	if (w->vs->logged >= VERIFY_LOG_MAX)
		return;
	if (++w->vs->logged == VERIFY_LOG_MAX)
		log_err("verify: job '%s' instance %u: further bad blocks are counted, not "
			"described", o->name, w->instance);
	if (res->have_hdr)
		snprintf(found, sizeof(found), "offset=%" PRIu64 " file=%u job_key=0x%016" PRIx64
			 " gen=%u seq=%" PRIu64 " len=%u seed=0x%016" PRIx64 " type=%s "
			 "written_ns=%" PRIu64 "%s", h->offset, h->file_index, h->job_key, h->gen,
			 h->seq, h->len, h->seed,
			 h->type < VERIFY_TYPES ? verify_type_names[h->type] : "?", h->time_ns,
			 res->hdr_valid ? "" : " (header checksum wrong: fields unreliable)");
	else
		snprintf(found, sizeof(found), "no block header");
	diff[0] = '\0';
	if (res->diff_at != UINT64_MAX) {
		hex(gb, sizeof(gb), res->got_bytes, res->show);
		if (res->hdr_valid && res->diff_bytes) {
			hex(eb, sizeof(eb), res->exp_bytes, res->show);
			snprintf(diff, sizeof(diff), "\n    first difference at byte %" PRIu64
				 " of the block: expected %s | found %s", res->diff_at, eb, gb);
		} else {
			snprintf(diff, sizeof(diff), "\n    bytes at %" PRIu64 ": %s", res->diff_at,
				 gb);
		}
	}
	log_err("verify: job '%s' instance %u: %s, offset %" PRIu64 ", length %" PRIu64
		": %s: %s\n    expected: offset=%" PRIu64 " file=%u job_key=0x%016" PRIx64
		" gen=%s\n    found:    %s%s%s", o->name, w->instance, io->file->path, io->offset,
		io->len, verify_kind_name[res->kind], res->why, ex->offset, ex->file_index,
		ex->job_key, exp_gen, found, diff, dump);
}

void verify_finish(struct worker *w)
{
	const struct verify_stats *v = &w->st->verify;
	uint64_t bad = 0;

	if (!w->vs)
		return;
	for (int k = 0; k < VK_KINDS; k++)
		bad += v->bad[k];
	if (!bad || w->error)
		return;
	w->error = EILSEQ;
	snprintf(w->errmsg, sizeof(w->errmsg), "job '%s': verify found %" PRIu64 " bad block(s) "
		 "of %" PRIu64 " checked: corrupted=%" PRIu64 ", torn=%" PRIu64 ", misdirected=%"
		 PRIu64 ", stale=%" PRIu64 ", never_written=%" PRIu64 "; first: %.500s",
		 w->job->o.name, bad, v->blocks, v->bad[VK_CORRUPTED], v->bad[VK_TORN],
		 v->bad[VK_MISDIRECTED], v->bad[VK_STALE], v->bad[VK_NEVER_WRITTEN], v->first);
}

void verify_print_normal(FILE *f, const struct verify_stats *v)
{
	uint64_t bad = 0;

	for (int k = 0; k < VK_KINDS; k++)
		bad += v->bad[k];
	fprintf(f, "  verify       : blocks=%" PRIu64 ", bad=%" PRIu64, v->blocks, bad);
	if (bad) {
		fputs(" (", f);
		for (int k = 0, shown = 0; k < VK_KINDS; k++)
			if (v->bad[k])
				fprintf(f, "%s%s=%" PRIu64, shown++ ? ", " : "", verify_kind_name[k],
					v->bad[k]);
		fputc(')', f);
	}
	fprintf(f, ", read=%" PRIu64 "MiB in %" PRIu64 "msec\n", v->bytes >> 20,
		v->elapsed_ns / 1000000);
}

static json_object *jint(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

json_object *verify_json(const struct verify_stats *v, const char *type)
{
	json_object *o = json_object_new_object(), *bad = json_object_new_object();
	uint64_t total = 0;

	if (!o || !bad) {
		json_object_put(o);
		json_object_put(bad);
		return NULL;
	}
	for (int k = 0; k < VK_KINDS; k++) {
		json_object_object_add(bad, verify_kind_name[k], jint(v->bad[k]));
		total += v->bad[k];
	}
	json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "blocks", jint(v->blocks));
	json_object_object_add(o, "bytes", jint(v->bytes));
	json_object_object_add(o, "elapsed_ns", jint(v->elapsed_ns));
	json_object_object_add(o, "errors", jint(total));
	json_object_object_add(o, "bad", bad);
	if (v->first[0])
		json_object_object_add(o, "first_error", json_object_new_string(v->first));
	return o;
}
