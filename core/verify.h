/*
 * Data verification: the block format, the check that classifies a bad
 * block, and the worker's verify phases.  See docs/verification.md.
 *
 * Every block a verifying job writes starts with a 96-byte header
 * (little-endian):
 *
 *   0  u32 magic "IORV"      4 u16 version (1)   6 u8 checksum type  7 u8 flags (0)
 *   8  u32 block length     12 u32 generation (1..127, cyclic per block)
 *  16  u64 file offset      24 u64 job key (xxh64 of job name, seeded by instance)
 *  32  u64 sequence number of the write in its job instance
 *  40  u64 payload seed     48 u64 CLOCK_REALTIME of the write (ns)
 *  56  u32 file index       60 u32 crc32c of bytes 0..59 and 64..95
 *  64  u8[32] payload checksum (crc32c 4, xxh64 8, xxh3 8, md5 16, sha256 32
 *             bytes; zero for verify=pattern)
 *
 * and the payload (bytes 96..length) is a pure function of the seed and
 * the job's buffer options (buffill.h), or verify_pattern repeated: a
 * reader regenerates what a block should hold from its header alone.
 *
 * With verify set, blocks sit on a grid of the largest block size ("slot"):
 * a write of any size starts at a slot, so blocks never overlap and a slot
 * is checked from its own header.  A generation record of one byte per
 * slot (bit 7: a write is in flight; bits 0-6: generation, 0 = never
 * written) says which generation each slot must hold.
 */
#ifndef IORIG_VERIFY_H
#define IORIG_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buffill.h"
#include "verify_defs.h"

#define VHDR_MAGIC 0x56524f49u /* "IORV" in a little-endian dump */
#define VHDR_VERSION 1
#define VHDR_SIZE 96
#define VHDR_CSUM_MAX 32
/* Smallest block a verifying job may use: one sector, header included. */
#define VERIFY_MIN_BS 512
/* Generation record limit: 1 GiB of record covers 4 TiB of 4 KiB blocks. */
#define VERIFY_REC_MAX (1ull << 30)
#define VGEN_MAX 127
#define VREC_INFLIGHT 0x80u

struct vhdr {
	uint32_t magic;
	uint16_t version;
	uint8_t type;
	uint8_t flags;
	uint32_t len;
	uint32_t gen;
	uint64_t offset;
	uint64_t job_key;
	uint64_t seq;
	uint64_t seed;
	uint64_t time_ns;
	uint32_t file_index;
	uint32_t hdr_crc;
	uint8_t csum[VHDR_CSUM_MAX];
};

void vhdr_encode(const struct vhdr *h, void *buf);
void vhdr_decode(const void *buf, struct vhdr *h);
/* crc32c of an encoded header, its own crc field excluded. */
uint32_t vhdr_crc(const void *buf);
/* Bytes of payload checksum a type stores. */
unsigned verify_csum_len(uint32_t type);
void verify_csum(uint32_t type, const void *p, uint64_t len, uint8_t out[VHDR_CSUM_MAX]);
/* The job key a job instance stamps its blocks with. */
uint64_t verify_job_key(const char *job_name, uint32_t instance);

/* The generation after g (1..127, wrapping past 127 to 1). */
static inline uint32_t vgen_next(uint32_t g)
{
	return g % VGEN_MAX + 1;
}

/* Fill buf with a complete block: h's fields, payload from h->seed. */
void verify_make_block(const struct verify_opts *vo, const struct buffill_opts *bo,
		       void *buf, struct vhdr *h);

/* What a slot should hold.  gen 0: not known (verify_only). */
struct vexpect {
	uint64_t offset;
	uint64_t job_key;
	uint32_t file_index;
	uint32_t gen;
};

#define VDIFF_SHOW 16

struct vcheck {
	int kind;                  /* -1: good; else enum verify_kind */
	bool have_hdr;             /* found a header with the magic */
	bool hdr_valid;            /* ... and its crc matched */
	struct vhdr found;
	uint64_t diff_at;          /* first differing byte of the block (UINT64_MAX: n/a) */
	uint64_t diff_bytes;       /* bytes that differ */
	unsigned show;             /* bytes in exp_bytes/got_bytes */
	uint8_t exp_bytes[VDIFF_SHOW], got_bytes[VDIFF_SHOW];
	char why[192];             /* one phrase */
};

/*
 * Check one block read back: buf holds got bytes read at ex->offset.
 * scratch (at least got bytes) receives the expected block when a payload
 * must be compared.  Fills res; returns res->kind.
 */
int verify_check_block(const struct verify_opts *vo, const struct buffill_opts *bo,
		       const void *buf, uint64_t got, const struct vexpect *ex, void *scratch,
		       struct vcheck *res);

/* ---- the worker's side (verify_run.c) ----------------------------------- */

struct worker;
struct iorig_io;

struct verify_state {
	bool only;                 /* verify_only (or a job that only reads) */
	uint64_t grid;             /* slot size: the largest block */
	uint64_t job_key;
	uint64_t seq;              /* writes stamped so far */
	uint8_t *rec;              /* generation record; NULL for verify_only */
	uint64_t *rec_base;        /* per file: its first slot in rec */
	uint64_t nslots;
	void *scratch;             /* expected block, grid bytes */
	uint64_t *ring;            /* verify_backlog: (file << 44 | slot) of written blocks */
	uint32_t ring_n, ring_cap;
	uint32_t logged;           /* detailed reports printed */
	bool stop;                 /* verify_fatal hit */
};

/* After the files are open: the record (one byte a slot), scratch, backlog. */
int verify_setup(struct worker *w);
void verify_teardown(struct worker *w);

/*
 * Stamp a write: next generation of its slot, header, payload, checksum.
 * Returns false (nothing changed) when the slot already has a write in
 * flight; the caller retries after reaping.
 */
bool verify_prep_write(struct worker *w, struct iorig_io *io);
/* The write completed (result already checked) / was refused (BUSY). */
void verify_write_done(struct worker *w, struct iorig_io *io);
void verify_write_undo(struct worker *w, struct iorig_io *io);

static inline bool verify_backlog_due(const struct verify_state *vs, uint32_t backlog)
{
	return vs && backlog && vs->ring_n >= backlog;
}

enum vpass {
	VPASS_WRITTEN,  /* every slot written in this run (do_verify) */
	VPASS_BACKLOG,  /* the slots written since the last backlog pass */
	VPASS_ALL,      /* every slot of the region (verify_only) */
};

/*
 * Read back and check; nothing may be in flight.  Reads count in the
 * read statistics only while the worker is measuring.  Bad blocks are
 * counted in st->verify and reported; verify_fatal stops at the first.
 * Returns 0 or -errno (an I/O error, or verify_fatal).
 */
int verify_run(struct worker *w, enum vpass pass);
/* End of the job: fail it (EILSEQ) when any block was bad. */
void verify_finish(struct worker *w);

#endif
