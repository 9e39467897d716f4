/*
 * Verification blocks: the checksums match their published test vectors,
 * headers round-trip and carry their own checksum, and the check names
 * each kind of damage done to a block (flipped bit, torn write, block at
 * the wrong offset, older generation, zeros, foreign data, damaged header).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "verify.h"

#define BS 4096

static const struct buffill_opts bopts = { .compress_chunk = 512 };

static void hexeq(const uint8_t *got, const char *hex)
{
	for (size_t i = 0; hex[2 * i]; i++) {
		unsigned v;

		sscanf(hex + 2 * i, "%2x", &v);
		assert_int_equal(got[i], v);
	}
}

static void test_checksum_vectors(void **state)
{
	uint8_t out[VHDR_CSUM_MAX];

	(void)state;
	/* crc32c("123456789") = 0xe3069283 (RFC 3720), stored little-endian. */
	verify_csum(VERIFY_CRC32C, "123456789", 9, out);
	hexeq(out, "839206e3");
	verify_csum(VERIFY_SHA256, "abc", 3, out);
	hexeq(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	verify_csum(VERIFY_MD5, "abc", 3, out);
	hexeq(out, "900150983cd24fb0d6963f7d28e17f72");
	/* XXH64("", seed 0) = 0xef46db3751d8e999; XXH3_64("") = 0x2d06800538d394c2. */
	verify_csum(VERIFY_XXH64, "", 0, out);
	hexeq(out, "99e9d85137db46ef");
	verify_csum(VERIFY_XXH3, "", 0, out);
	hexeq(out, "c294d3380580062d");
	assert_int_equal(verify_csum_len(VERIFY_SHA256), 32);
	assert_int_equal(verify_csum_len(VERIFY_PATTERN), 0);
}

static void make(const struct verify_opts *vo, uint8_t *buf, uint64_t off, uint32_t gen,
		 uint64_t seed)
{
	struct vhdr h = { .len = BS, .gen = gen, .offset = off, .job_key = 0x1234,
			  .seq = 7, .seed = seed, .time_ns = 99, .file_index = 2 };

	verify_make_block(vo, &bopts, buf, &h);
}

static int check(const struct verify_opts *vo, const uint8_t *buf, uint64_t got, uint64_t off,
		 uint32_t gen, struct vcheck *res)
{
	static uint8_t scratch[BS];
	struct vexpect ex = { .offset = off, .job_key = 0x1234, .file_index = 2, .gen = gen };

	return verify_check_block(vo, &bopts, buf, got, &ex, scratch, res);
}

static void test_header_roundtrip(void **state)
{
	struct verify_opts vo = { .type = VERIFY_XXH3 };
	uint8_t buf[BS];
	struct vhdr h;

	(void)state;
	make(&vo, buf, 8192, 5, 42);
	vhdr_decode(buf, &h);
	assert_int_equal(h.magic, VHDR_MAGIC);
	assert_memory_equal(buf, "IORV", 4);
	assert_int_equal(h.version, VHDR_VERSION);
	assert_int_equal(h.type, VERIFY_XXH3);
	assert_int_equal(h.len, BS);
	assert_int_equal(h.gen, 5);
	assert_int_equal(h.offset, 8192);
	assert_int_equal(h.job_key, 0x1234);
	assert_int_equal(h.seq, 7);
	assert_int_equal(h.seed, 42);
	assert_int_equal(h.time_ns, 99);
	assert_int_equal(h.file_index, 2);
	assert_int_equal(h.hdr_crc, vhdr_crc(buf));
	/* The header checksum covers the payload checksum too. */
	buf[70] ^= 1;
	assert_int_not_equal(h.hdr_crc, vhdr_crc(buf));
}

static void test_good_blocks(void **state)
{
	static const uint32_t types[] = { VERIFY_CRC32C, VERIFY_XXH64, VERIFY_XXH3,
					  VERIFY_SHA256, VERIFY_MD5, VERIFY_PATTERN };
	uint8_t buf[BS];
	struct vcheck res;

	(void)state;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct verify_opts vo = { .type = types[i], .pattern_len = 3,
					  .pattern = { 1, 2, 3 } };

		make(&vo, buf, 4096, 3, 1000 + i);
		assert_int_equal(check(&vo, buf, BS, 4096, 3, &res), -1);
		assert_int_equal(check(&vo, buf, BS, 4096, 0, &res), -1); /* gen unknown */
		if (types[i] == VERIFY_PATTERN)
			assert_int_equal(buf[VHDR_SIZE + 4], 2);
	}
}

static void test_kinds(void **state)
{
	struct verify_opts vo = { .type = VERIFY_CRC32C };
	uint8_t buf[BS], other[BS];
	struct vcheck res;

	(void)state;
	/* A flipped bit: corrupted, first difference named. */
	make(&vo, buf, 0, 1, 1);
	buf[1234] ^= 0x04;
	assert_int_equal(check(&vo, buf, BS, 0, 1, &res), VK_CORRUPTED);
	assert_int_equal(res.diff_at, 1234);
	assert_int_equal(res.diff_bytes, 1);
	assert_int_equal(res.got_bytes[0] ^ res.exp_bytes[0], 0x04);

	/* Second half from another write: torn. */
	make(&vo, buf, 0, 1, 1);
	make(&vo, other, 0, 1, 2);
	memcpy(buf + 2048, other + 2048, 2048);
	assert_int_equal(check(&vo, buf, BS, 0, 1, &res), VK_TORN);
	assert_int_equal(res.diff_at, 2048);

	/* Header of generation 2 over an older payload, as a torn overwrite. */
	make(&vo, buf, 0, 2, 5);
	make(&vo, other, 0, 1, 6);
	memcpy(buf + 512, other + 512, BS - 512);
	assert_int_equal(check(&vo, buf, BS, 0, 2, &res), VK_TORN);

	/* A valid block of another offset: misdirected. */
	make(&vo, buf, 8192, 1, 1);
	assert_int_equal(check(&vo, buf, BS, 4096, 1, &res), VK_MISDIRECTED);
	assert_int_equal(res.found.offset, 8192);
	/* ... of another job. */
	make(&vo, buf, 4096, 1, 1);
	{
		struct vhdr h;

		vhdr_decode(buf, &h);
		h.job_key = 0x9999;
		verify_make_block(&vo, &bopts, buf, &h);
	}
	assert_int_equal(check(&vo, buf, BS, 4096, 1, &res), VK_MISDIRECTED);

	/* An older generation, intact: stale (the newer write was lost). */
	make(&vo, buf, 0, 3, 1);
	assert_int_equal(check(&vo, buf, BS, 0, 4, &res), VK_STALE);
	/* Generations wrap past 127: 127 is older than 2. */
	make(&vo, buf, 0, 127, 1);
	assert_int_equal(check(&vo, buf, BS, 0, 2, &res), VK_STALE);
	assert_int_equal(vgen_next(127), 1);
	/* Newer than recorded is not stale. */
	make(&vo, buf, 0, 5, 1);
	assert_int_equal(check(&vo, buf, BS, 0, 4, &res), VK_CORRUPTED);

	/* Zeros, foreign bytes, a short read: never written. */
	memset(buf, 0, BS);
	assert_int_equal(check(&vo, buf, BS, 0, 1, &res), VK_NEVER_WRITTEN);
	assert_non_null(strstr(res.why, "zeros"));
	memset(buf, 0x5a, BS);
	assert_int_equal(check(&vo, buf, BS, 0, 1, &res), VK_NEVER_WRITTEN);
	assert_non_null(strstr(res.why, "foreign"));
	assert_int_equal(check(&vo, buf, 0, 0, 1, &res), VK_NEVER_WRITTEN);

	/* A damaged header: corrupted, and its fields not trusted. */
	make(&vo, buf, 0, 1, 1);
	buf[20] ^= 0xff;
	assert_int_equal(check(&vo, buf, BS, 0, 1, &res), VK_CORRUPTED);
	assert_false(res.hdr_valid);

	/* A block written with another checksum type. */
	{
		struct verify_opts md5 = { .type = VERIFY_MD5 };

		make(&md5, buf, 0, 1, 1);
		assert_int_equal(check(&vo, buf, BS, 0, 1, &res), VK_CORRUPTED);
		assert_non_null(strstr(res.why, "md5"));
	}
}

static void test_pattern_parse(void **state)
{
	struct verify_opts vo = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(verify_parse_pattern(&vo, "verify_pattern", "0xdeadbeef", err,
					      sizeof(err)), 0);
	assert_int_equal(vo.pattern_len, 4);
	assert_int_equal(vo.pattern[0], 0xde);
	assert_int_equal(vo.pattern[3], 0xef);
	assert_int_equal(verify_parse_pattern(&vo, "verify_pattern", "0xabc", err, sizeof(err)), 0);
	assert_int_equal(vo.pattern_len, 2);
	assert_int_equal(vo.pattern[0], 0x0a);
	assert_int_equal(vo.pattern[1], 0xbc);
	assert_int_equal(verify_parse_pattern(&vo, "verify_pattern", "255", err, sizeof(err)), 0);
	assert_int_equal(vo.pattern_len, 1);
	assert_int_equal(verify_parse_pattern(&vo, "verify_pattern", "256", err, sizeof(err)),
			 -EINVAL);
	assert_int_equal(verify_parse_pattern(&vo, "verify_pattern", "0xZZ", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "option 'verify_pattern': '0xZZ' is not a pattern"));
	assert_int_equal(verify_parse_pattern(&vo, "verify_pattern", "", err, sizeof(err)), -EINVAL);
}

/* libcrypto's allocations, counted (set before libcrypto allocates anything). */
static int crypto_allocs;

static void *count_malloc(size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	crypto_allocs++;
	return malloc(n);
}

static void *count_realloc(void *p, size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	crypto_allocs++;
	return realloc(p, n);
}

static void count_free(void *p, const char *file, int line)
{
	(void)file;
	(void)line;
	free(p);
}

/* The write path computes a checksum per I/O: it must not allocate. */
static void test_checksum_no_alloc(void **state)
{
	static uint8_t buf[BS];
	uint8_t out[VHDR_CSUM_MAX];

	(void)state;
	for (uint32_t t = VERIFY_CRC32C; t < VERIFY_TYPES; t++)
		verify_csum(t, buf, BS, out); /* any one-time initialisation */
	crypto_allocs = 0;
	for (int i = 0; i < 10; i++)
		for (uint32_t t = VERIFY_CRC32C; t < VERIFY_TYPES; t++)
			verify_csum(t, buf, BS, out);
	assert_int_equal(crypto_allocs, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum_no_alloc),
		cmocka_unit_test(test_checksum_vectors),
		cmocka_unit_test(test_header_roundtrip),
		cmocka_unit_test(test_good_blocks),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_pattern_parse),
	};

	CRYPTO_set_mem_functions(count_malloc, count_realloc, count_free);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
