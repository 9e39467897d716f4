/*
 * `iorig validate --show-jobs` (core/job_dump.c): every core option a job
 * file can set is printed under its own name (the few exceptions are
 * listed here and in job_dump.c's top comment), and the verification,
 * rate and shaping options in the syntax the options accept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job_dump.h"
#include "options.h"

/* Options printed under another key (what the run uses, in canonical units). */
static const char *const shown_as[][2] = {
	{ "name", NULL }, /* the "job N 'NAME' group G" line */
	{ "runtime", "runtime_ns" },
	{ "ramp_time", "ramp_time_ns" },
	{ "startdelay", "startdelay_ns" },
	{ "bsrange", "bs_min" },
	{ "rwmixwrite", "rwmixread" },
};

/* job_dump() of one job into a malloc'ed string. */
static char *dump(struct job *j)
{
	struct job_list l = { j, 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	job_dump(m, &l);
	assert_int_equal(fclose(m), 0);
	return text;
}

/* Does text have the line "  key = value" (any value when value is NULL)? */
static bool has_line(const char *text, const char *key, const char *value)
{
	char want[4096];

	if (value)
		snprintf(want, sizeof(want), "\n  %s = %s\n", key, value);
	else /* an empty percentile_list is "  percentile_list =" */
		snprintf(want, sizeof(want), "\n  %s =", key);
	return strstr(text, want) != NULL;
}

static void test_every_option_shown(void **state)
{
	struct job j = { .o = { .name = "z" } };
	char *text = dump(&j), *table = NULL, *save = NULL, name[128];
	size_t len = 0, rows = 0;
	FILE *m = open_memstream(&table, &len);
	bool header = true;

	(void)state;
	assert_non_null(m);
	options_print_table(m, NULL);
	assert_int_equal(fclose(m), 0);
	for (char *l = strtok_r(table, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *key = name;

		if (strncmp(l, "  ", 2) || l[2] == ' ')
			continue; /* a wrapped cell's continuation */
		assert_int_equal(sscanf(l, "%127s", name), 1);
		if (header) {
			header = false;
			continue;
		}
		rows++;
		for (size_t i = 0; i < sizeof(shown_as) / sizeof(shown_as[0]); i++)
			if (!strcmp(name, shown_as[i][0]))
				key = shown_as[i][1];
		if (key && !has_line(text, key, NULL))
			fail_msg("option '%s' is not shown by --show-jobs:\n%s", name, text);
	}
	assert_true(rows > 40);
	free(table);
	free(text);
}

static void test_ext_values(void **state)
{
	struct job j = { .o = { .name = "x" } };
	struct job_opts *o = &j.o;
	char *text;

	(void)state;
	o->verify = (struct verify_opts){ .type = VERIFY_MD5, .do_verify = true, .backlog = 16,
					  .fatal = true, .pattern_len = 3,
					  .pattern = { 0xde, 0x0a, 0xff } };
	o->rate = (struct rate_opts){ .bps = { 10 << 20, 5 << 20, 5 << 20 },
				      .iops = { 0, 300, 0 }, .min_bps = { 1 << 20, 0, 0 },
				      .cycle_ns = 500000000, .process = RATE_POISSON,
				      .think_ns = 2000000, .think_spin_ns = 1000,
				      .think_blocks = 4 };
	o->shape.bssplit[DDIR_WRITE] = (struct bssplit){ 2, { { 4096, 50 }, { 65536, 50 } } };
	o->shape.bssplit[DDIR_TRIM] = (struct bssplit){ 1, { { 8192, 100 } } };
	o->shape.dist = (struct dist_opts){ .type = DIST_ZIPF, .param = 1.23456789 };
	o->shape.pct_random[DDIR_READ] = 70;
	o->shape.pct_random[DDIR_WRITE] = 100;
	o->shape.offset_increment = 1 << 20;
	text = dump(&j);
	static const char *const want[][2] = {
		{ "verify", "md5" }, { "do_verify", "1" }, { "verify_backlog", "16" },
		{ "verify_only", "0" }, { "verify_fatal", "1" }, { "verify_dump", "0" },
		{ "verify_pattern", "0xde0aff" },
		{ "rate", "10485760,5242880,5242880" }, { "rate_iops", "0,300,0" },
		{ "rate_min", "1048576,0,0" }, { "rate_iops_min", "0,0,0" },
		{ "rate_cycle", "500000000" }, { "rate_process", "poisson" },
		{ "thinktime", "2000000" }, { "thinktime_spin", "1000" },
		{ "thinktime_blocks", "4" },
		{ "bssplit", ",4096/50:65536/50,8192/100" },
		{ "random_distribution", "zipf:1.23456789" },
		{ "percentage_random", "70,100,0" }, { "offset_increment", "1048576" },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (!has_line(text, want[i][0], want[i][1]))
			fail_msg("no line '  %s = %s' in:\n%s", want[i][0], want[i][1], text);
	free(text);

	/* Unset specs; the zoned distributions keep their zones. */
	memset(&o->verify, 0, sizeof(o->verify));
	memset(&o->shape, 0, sizeof(o->shape));
	o->shape.dist = (struct dist_opts){ .type = DIST_ZONED_ABS, .nzones = 2,
					    .zones = { { 60, 1 << 20 }, { 40, 2 << 20 } } };
	text = dump(&j);
	assert_true(has_line(text, "verify", "none"));
	assert_true(has_line(text, "verify_pattern", "(none)"));
	assert_true(has_line(text, "bssplit", "(none)"));
	assert_true(has_line(text, "random_distribution", "zoned_abs:60/1048576b:40/2097152b"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_option_shown),
		cmocka_unit_test(test_ext_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
