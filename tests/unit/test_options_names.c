/*
 * Core option names (options_is_core, options_core_is_bool): the lookups
 * check_engine.c and fio_compat.c use instead of reading the printed table.
 * They must agree with that table row for row, aliases included.
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

#include "options.h"

static void test_known_names(void **state)
{
	(void)state;
	assert_true(options_is_core("bs"));
	assert_true(options_is_core("blocksize"));          /* alias */
	assert_true(options_is_core("wait_for_previous"));  /* alias of a bool */
	assert_true(options_is_core("verify"));             /* options_ext.inc row */
	assert_true(options_is_core("rate_iops"));
	assert_false(options_is_core("nosuch"));
	assert_false(options_is_core(""));
	assert_false(options_is_core("BS"));                /* names are exact */
	assert_false(options_is_core("thread"));            /* fio compat, not core */
	assert_false(options_is_core("fixedbufs"));         /* an engine's option */

	assert_true(options_core_is_bool("direct"));
	assert_true(options_core_is_bool("wait_for_previous"));
	assert_true(options_core_is_bool("do_verify"));
	assert_true(options_core_is_bool("zero_buffers"));
	assert_false(options_core_is_bool("bs"));
	assert_false(options_core_is_bool("verify"));
	assert_false(options_core_is_bool("nosuch"));
}

/* Every row (and alias) of the printed core table, with its type. */
static void test_agrees_with_table(void **state)
{
	char *text = NULL, *save = NULL, name[128], type[64];
	size_t len = 0, rows = 0, bools = 0, aliases = 0;
	FILE *m = open_memstream(&text, &len);
	bool header = true;

	(void)state;
	assert_non_null(m);
	options_print_table(m, NULL);
	fclose(m);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *a = strstr(l, "(alias: ");

		if (strncmp(l, "  ", 2) || l[2] == ' ')
			continue; /* a wrapped cell's continuation */
		assert_int_equal(sscanf(l, "%127s %63s", name, type), 2);
		if (header) {
			assert_string_equal(name, "NAME");
			header = false;
			continue;
		}
		rows++;
		assert_true(options_is_core(name));
		assert_int_equal(options_core_is_bool(name), !strcmp(type, "bool"));
		bools += !strcmp(type, "bool");
		if (a) {
			assert_int_equal(sscanf(a + 8, "%127[^)]", name), 1);
			assert_true(options_is_core(name));
			assert_int_equal(options_core_is_bool(name), !strcmp(type, "bool"));
			aliases++;
		}
	}
	free(text);
	/* The table has dozens of rows, a dozen or more bools, a few aliases. */
	assert_true(rows > 40);
	assert_true(bools > 12);
	assert_true(aliases >= 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_names),
		cmocka_unit_test(test_agrees_with_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
