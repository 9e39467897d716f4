/*
 * Verification blocks (verify.h): header encoding, the checksums (from
 * their libraries: ISA-L crc32c, xxHash, OpenSSL libcrypto) and the check
 * that names the kind of damage of a bad block.
 *
 * sha256 and md5 use libcrypto's SHA256_Init/Update/Final and MD5_* on a
 * context on the stack: in OpenSSL 3.0 EVP_DigestInit_ex() allocates a
 * provider context on every call and the one-shot SHA256() goes through
 * EVP_Q_digest() (measured with CRYPTO_set_mem_functions: 1 and 3
 * allocations per digest), and the write path must not allocate.  The
 * low-level calls are deprecated in 3.0 but remain the library's
 * allocation-free path.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "verify.h"

#include <endian.h>
#include <isa-l/crc.h>
#include <openssl/md5.h>
#include <openssl/sha.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

const char *const verify_kind_name[VK_KINDS] = {
	"corrupted", "torn", "misdirected", "stale", "never_written",
};

const char *const verify_type_names[] = {
	"none", "crc32c", "xxh64", "xxh3", "sha256", "md5", "pattern", NULL,
};

#define SECTOR 512

static void put16(uint8_t *p, uint16_t v) { v = htole16(v); memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { v = htole32(v); memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { v = htole64(v); memcpy(p, &v, 8); }
static uint16_t get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return le16toh(v); }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return le32toh(v); }
static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return le64toh(v); }

static uint32_t crc32c(const void *p, uint64_t len, uint32_t crc)
{
	/* ISA-L takes an int length: feed it in pieces below 2 GiB. */
	const unsigned char *c = p;

	while (len) {
		int n = len > (1u << 30) ? 1 << 30 : (int)len;

		crc = crc32_iscsi((unsigned char *)c, n, crc);
		c += n;
		len -= (uint64_t)n;
	}
	return crc;
}

uint32_t vhdr_crc(const void *buf)
{
	const uint8_t *b = buf;
	uint32_t crc = crc32c(b, 60, 0xffffffffu);

	return crc32c(b + 64, VHDR_SIZE - 64, crc) ^ 0xffffffffu;
}

void vhdr_encode(const struct vhdr *h, void *buf)
{
	uint8_t *b = buf;

	put32(b + 0, h->magic);
	put16(b + 4, h->version);
	b[6] = h->type;
	b[7] = h->flags;
	put32(b + 8, h->len);
	put32(b + 12, h->gen);
	put64(b + 16, h->offset);
	put64(b + 24, h->job_key);
	put64(b + 32, h->seq);
	put64(b + 40, h->seed);
	put64(b + 48, h->time_ns);
	put32(b + 56, h->file_index);
	memcpy(b + 64, h->csum, VHDR_CSUM_MAX);
	put32(b + 60, vhdr_crc(b));
}

void vhdr_decode(const void *buf, struct vhdr *h)
{
	const uint8_t *b = buf;

	h->magic = get32(b + 0);
	h->version = get16(b + 4);
	h->type = b[6];
	h->flags = b[7];
	h->len = get32(b + 8);
	h->gen = get32(b + 12);
	h->offset = get64(b + 16);
	h->job_key = get64(b + 24);
	h->seq = get64(b + 32);
	h->seed = get64(b + 40);
	h->time_ns = get64(b + 48);
	h->file_index = get32(b + 56);
	h->hdr_crc = get32(b + 60);
	memcpy(h->csum, b + 64, VHDR_CSUM_MAX);
}

unsigned verify_csum_len(uint32_t type)
{
	switch (type) {
	case VERIFY_CRC32C:
		return 4;
	case VERIFY_XXH64:
	case VERIFY_XXH3:
		return 8;
	case VERIFY_SHA256:
		return SHA256_DIGEST_LENGTH;
	case VERIFY_MD5:
		return MD5_DIGEST_LENGTH;
	default:
		return 0;
	}
}

void verify_csum(uint32_t type, const void *p, uint64_t len, uint8_t out[VHDR_CSUM_MAX])
{
	memset(out, 0, VHDR_CSUM_MAX);
	switch (type) {
	case VERIFY_CRC32C:
		put32(out, crc32c(p, len, 0xffffffffu) ^ 0xffffffffu);
		break;
	case VERIFY_XXH64:
		put64(out, XXH64(p, (size_t)len, 0));
		break;
	case VERIFY_XXH3:
		put64(out, XXH3_64bits(p, (size_t)len));
		break;
	case VERIFY_SHA256: {
		SHA256_CTX c;

		SHA256_Init(&c);
		SHA256_Update(&c, p, (size_t)len);
		SHA256_Final(out, &c);
		break;
	}
	case VERIFY_MD5: {
		MD5_CTX c;

		MD5_Init(&c);
		MD5_Update(&c, p, (size_t)len);
		MD5_Final(out, &c);
		break;
	}
	default:
		break;
	}
}

uint64_t verify_job_key(const char *job_name, uint32_t instance)
{
	return XXH64(job_name, strlen(job_name), 0x696f726967ull + instance);
}

static void fill_payload(const struct verify_opts *vo, const struct buffill_opts *bo,
			 uint8_t *p, uint64_t len, uint64_t seed)
{
	if (vo->type == VERIFY_PATTERN) {
		uint32_t pl = vo->pattern_len ? vo->pattern_len : 1;

		for (uint64_t i = 0; i < len; i++)
			p[i] = vo->pattern[i % pl];
		return;
	}
	buffill(bo, p, len, seed);
}

void verify_make_block(const struct verify_opts *vo, const struct buffill_opts *bo,
		       void *buf, struct vhdr *h)
{
	uint8_t *b = buf;
	uint64_t plen = h->len - VHDR_SIZE;

	h->magic = VHDR_MAGIC;
	h->version = VHDR_VERSION;
	h->type = (uint8_t)vo->type;
	h->flags = 0;
	fill_payload(vo, bo, b + VHDR_SIZE, plen, h->seed);
	verify_csum(vo->type, b + VHDR_SIZE, plen, h->csum);
	vhdr_encode(h, b);
}

/* ---- checking --------------------------------------------------------------- */

static bool all_zero(const uint8_t *p, uint64_t len)
{
	for (uint64_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static void keep_bytes(struct vcheck *r, const uint8_t *exp, const uint8_t *got,
		       uint64_t at, uint64_t len)
{
	r->diff_at = at;
	r->show = (unsigned)(len - at < VDIFF_SHOW ? len - at : VDIFF_SHOW);
	if (exp)
		memcpy(r->exp_bytes, exp + at, r->show);
	else
		memset(r->exp_bytes, 0, r->show);
	memcpy(r->got_bytes, got + at, r->show);
}

/* Older: the expected generation is 1..63 steps after the found one. */
static bool gen_older(uint32_t found, uint32_t expected)
{
	uint32_t d = (expected + VGEN_MAX - found) % VGEN_MAX;

	return d >= 1 && d < VGEN_MAX / 2 + 1;
}

/*
 * Compare the payload with the expected one.  A torn write replaces whole
 * sectors (with another write's data, or zeros): the differing bytes fill
 * one run of sectors, each of which differs broadly.  A corruption (a
 * flipped bit, a bad byte) changes a few bytes of a sector.
 */
static bool diff_looks_torn(const uint8_t *exp, const uint8_t *got, uint64_t len,
			    struct vcheck *r)
{
	uint64_t first_sec = UINT64_MAX, last_sec = 0, bad_secs = 0;
	bool broad = true;

	r->diff_bytes = 0;
	for (uint64_t s = 0; s * SECTOR < len; s++) {
		uint64_t a = s * SECTOR < VHDR_SIZE ? VHDR_SIZE : s * SECTOR;
		uint64_t e = (s + 1) * SECTOR < len ? (s + 1) * SECTOR : len;
		uint64_t n = 0;

		for (uint64_t i = a; i < e; i++)
			if (exp[i] != got[i]) {
				if (r->diff_at == UINT64_MAX)
					keep_bytes(r, exp, got, i, len);
				n++;
			}
		if (!n)
			continue;
		r->diff_bytes += n;
		bad_secs++;
		if (first_sec == UINT64_MAX)
			first_sec = s;
		last_sec = s;
		if (n * 8 < e - a) /* fewer than 1 in 8 bytes differ: not replaced */
			broad = false;
	}
	return bad_secs && broad && last_sec - first_sec + 1 == bad_secs;
}

static int verdict(struct vcheck *r, int kind, const char *why)
{
	r->kind = kind;
	snprintf(r->why, sizeof(r->why), "%s", why);
	return kind;
}

int verify_check_block(const struct verify_opts *vo, const struct buffill_opts *bo,
		       const void *buf, uint64_t got, const struct vexpect *ex, void *scratch,
		       struct vcheck *r)
{
	const uint8_t *b = buf;
	uint8_t *exp = scratch, csum[VHDR_CSUM_MAX];
	struct vhdr *h = &r->found;
	bool payload_ok;
	char why[192];

	memset(r, 0, sizeof(*r));
	r->kind = -1;
	r->diff_at = UINT64_MAX;
	if (got < VHDR_SIZE) {
		snprintf(why, sizeof(why), "only %llu bytes could be read (end of file): the block "
			 "was never written", (unsigned long long)got);
		return verdict(r, VK_NEVER_WRITTEN, why);
	}
	vhdr_decode(b, h);
	if (h->magic != VHDR_MAGIC) {
		keep_bytes(r, NULL, b, 0, got);
		if (all_zero(b, got))
			return verdict(r, VK_NEVER_WRITTEN, "all zeros where a block was expected");
		return verdict(r, VK_NEVER_WRITTEN, "no block header: foreign data where a block "
			       "was expected");
	}
	r->have_hdr = true;
	if (h->version != VHDR_VERSION || vhdr_crc(b) != h->hdr_crc) {
		keep_bytes(r, NULL, b, 0, got);
		return verdict(r, VK_CORRUPTED, "the block header's own checksum does not match: "
			       "the header is damaged");
	}
	r->hdr_valid = true;
	if (h->type != vo->type) {
		snprintf(why, sizeof(why), "the block was written with verify=%s, the job checks "
			 "verify=%s", h->type < VERIFY_TYPES ? verify_type_names[h->type] : "?",
			 verify_type_names[vo->type]);
		return verdict(r, VK_CORRUPTED, why);
	}
	if (h->len < VHDR_SIZE || h->len > got) {
		snprintf(why, sizeof(why), "the header claims %u bytes, %llu were read", h->len,
			 (unsigned long long)got);
		return verdict(r, VK_CORRUPTED, why);
	}
	if (h->offset != ex->offset || h->file_index != ex->file_index ||
	    h->job_key != ex->job_key) {
		snprintf(why, sizeof(why), "a valid block that belongs %s",
			 h->job_key != ex->job_key ? "to another job or instance" :
			 h->file_index != ex->file_index ? "to another file of the job" :
			 "at another offset");
		return verdict(r, VK_MISDIRECTED, why);
	}

	if (vo->type == VERIFY_PATTERN) {
		fill_payload(vo, bo, exp + VHDR_SIZE, h->len - VHDR_SIZE, h->seed);
		payload_ok = !memcmp(exp + VHDR_SIZE, b + VHDR_SIZE, h->len - VHDR_SIZE);
	} else {
		verify_csum(vo->type, b + VHDR_SIZE, h->len - VHDR_SIZE, csum);
		payload_ok = !memcmp(csum, h->csum, VHDR_CSUM_MAX);
	}
	if (payload_ok) {
		if (!ex->gen || h->gen == ex->gen)
			return r->kind;
		snprintf(why, sizeof(why), gen_older(h->gen, ex->gen) ?
			 "a valid block of generation %u where generation %u was written last: "
			 "the newer write was lost" :
			 "a valid block of generation %u, newer than the last written (%u)",
			 h->gen, ex->gen);
		return verdict(r, gen_older(h->gen, ex->gen) ? VK_STALE : VK_CORRUPTED, why);
	}

	/* Bad payload: compare with what the header's seed regenerates. */
	memcpy(exp, b, VHDR_SIZE);
	fill_payload(vo, bo, exp + VHDR_SIZE, h->len - VHDR_SIZE, h->seed);
	{
		bool torn = diff_looks_torn(exp, b, h->len, r);

		if (ex->gen && h->gen != ex->gen && gen_older(h->gen, ex->gen)) {
			snprintf(why, sizeof(why), "the header of generation %u (expected %u) over "
				 "a payload from another write", h->gen, ex->gen);
			return verdict(r, VK_TORN, why);
		}
		if (torn) {
			snprintf(why, sizeof(why), "header intact, %llu bytes of whole sectors "
				 "from another write (or never written)",
				 (unsigned long long)r->diff_bytes);
			return verdict(r, VK_TORN, why);
		}
		snprintf(why, sizeof(why), "header intact, payload checksum wrong: %llu bytes "
			 "differ", (unsigned long long)r->diff_bytes);
		return verdict(r, VK_CORRUPTED, why);
	}
}

/* ---- verify_pattern ---------------------------------------------------------- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int verify_parse_pattern(void *field, const char *name, const char *val, char *err,
			 size_t errlen)
{
	static const char acc[] = "hex bytes like 0xdeadbeef (1 .. 64 bytes, in the order "
				  "written), or one byte 0 .. 255";
	struct verify_opts *vo = field;
	uint8_t pat[VERIFY_PATTERN_MAX];
	size_t n = 0, digits;
	const char *h;

	while (val && (*val == ' ' || *val == '\t'))
		val++;
	if (!val || !*val)
		snprintf(err, errlen, "option '%s': a value is required; accepted: %s", name, acc);
	if (!val || !*val)
		return -EINVAL;
	if (val[0] == '0' && (val[1] == 'x' || val[1] == 'X')) {
		h = val + 2;
		digits = strspn(h, "0123456789abcdefABCDEF");
		if (!digits || h[digits] || (digits + 1) / 2 > VERIFY_PATTERN_MAX)
			goto bad;
		/* An odd digit count has an implied leading 0: 0xabc is 0a bc. */
		size_t k = 0;

		if (digits % 2)
			pat[n++] = (uint8_t)hexval(h[k++]);
		for (; k < digits; k += 2)
			pat[n++] = (uint8_t)(hexval(h[k]) << 4 | hexval(h[k + 1]));
	} else {
		char *end;
		unsigned long v = strtoul(val, &end, 10);

		if (end == val || *end || v > 255)
			goto bad;
		pat[n++] = (uint8_t)v;
	}
	memcpy(vo->pattern, pat, n);
	vo->pattern_len = (uint32_t)n;
	return 0;
bad:
	snprintf(err, errlen, "option '%s': '%s' is not a pattern; accepted: %s", name, val, acc);
	return -EINVAL;
}
