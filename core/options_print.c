/*
 * The option table printer (options.h): the core's options or an engine's,
 * one row each with name, type, default, accepted values and help, in
 * columns sized to fit.  The ranges read as the binder's errors do
 * (option_text.c).
 */
#include "options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "options_ext.h"
#include "options_int.h"

enum { COL_NAME, COL_TYPE, COL_DEF, COL_RANGE, COL_HELP, N_COLS };

static const char *engine_type_name(uint32_t type)
{
	static const char *const names[] = {
		"?", "bool", "int", "size", "duration", "string", "enum",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

static void engine_row(const struct iorig_option *t, char cols[N_COLS][512])
{
	snprintf(cols[COL_NAME], 512, "%s", t->name);
	snprintf(cols[COL_TYPE], 512, "%s", engine_type_name(t->type));
	snprintf(cols[COL_DEF], 512, "%s", t->def ? t->def : "-");
	if (t->type == IORIG_OPT_ENUM)
		opt_join_values(cols[COL_RANGE], 512, t->values, "|");
	else if (t->type == IORIG_OPT_BOOL)
		snprintf(cols[COL_RANGE], 512, "0|1");
	else
		opt_range_text(cols[COL_RANGE], 512, t->type, t->min, t->max);
	if (!cols[COL_RANGE][0])
		snprintf(cols[COL_RANGE], 512, "-");
	snprintf(cols[COL_HELP], 512, "%s", t->help ? t->help : "");
}

static void core_row(const struct core_opt *t, char cols[N_COLS][512])
{
	static const char *const types[] = {
		[CK_STR] = "string", [CK_BOOL] = "bool", [CK_U32] = "int", [CK_U64] = "int",
		[CK_SIZE] = "size", [CK_DUR] = "duration", [CK_DUR_US] = "duration-us",
		[CK_DUR_MS] = "duration-ms", [CK_RW] = "enum",
		[CK_BS] = "size-list", [CK_BSRANGE] = "range-list", [CK_RWMIXW] = "int",
		[CK_PCTS] = "pct-list", [CK_CPUS] = "cpu-list", [CK_SEED] = "int",
		[CK_ENUM] = "enum", [CK_FN] = "spec",
	};

	snprintf(cols[COL_NAME], 512, "%s", t->name);
	snprintf(cols[COL_TYPE], 512, "%s", t->kind == CK_FN ? options_ext_find(t->name)->type_name
							      : types[t->kind]);
	snprintf(cols[COL_DEF], 512, "%s", t->def ? t->def : "-");
	switch (t->kind) {
	case CK_BOOL:
		snprintf(cols[COL_RANGE], 512, "0|1");
		break;
	case CK_RW:
		opt_join_values(cols[COL_RANGE], 512, core_rw_values, "|");
		break;
	case CK_ENUM:
		opt_join_values(cols[COL_RANGE], 512, options_ext_find(t->name)->values, "|");
		break;
	case CK_FN:
		cols[COL_RANGE][0] = '\0';
		break;
	case CK_PCTS:
		snprintf(cols[COL_RANGE], 512, "0 < p <= 100");
		break;
	case CK_DUR:
	case CK_DUR_US:
	case CK_DUR_MS:
		opt_range_text(cols[COL_RANGE], 512, IORIG_OPT_DURATION, t->min, t->max);
		break;
	default:
		opt_range_text(cols[COL_RANGE], 512, IORIG_OPT_INT, t->min, t->max);
		break;
	}
	if (!cols[COL_RANGE][0])
		snprintf(cols[COL_RANGE], 512, "-");
	if (t->alias)
		snprintf(cols[COL_HELP], 512, "%s (alias: %s)", t->help, t->alias);
	else
		snprintf(cols[COL_HELP], 512, "%s", t->help);
}

/* One row of either table; false past the end. */
static bool table_row(const struct iorig_option *table, size_t i, char cols[N_COLS][512])
{
	if (!table) {
		if (!core_opt_at(i))
			return false;
		core_row(core_opt_at(i), cols);
		return true;
	}
	if (!table[i].name)
		return false;
	engine_row(&table[i], cols);
	return true;
}

/*
 * Cells longer than these do not widen their column: the row goes on under
 * the next column instead (the percentile defaults, long enum lists).
 */
static const size_t col_cap[N_COLS] = { 64, 16, 20, 32, 0 };

static void print_row(FILE *f, char cols[N_COLS][512], const size_t *w)
{
	size_t pos = 2;

	fputs("  ", f);
	for (int k = 0; k < N_COLS - 1; k++) {
		size_t len = strlen(cols[k]);

		fputs(cols[k], f);
		pos += len;
		if (len > w[k]) {
			fprintf(f, "\n%*s", (int)(pos - len + w[k] + 2), "");
			pos = pos - len + w[k] + 2;
		} else {
			fprintf(f, "%*s", (int)(w[k] - len + 2), "");
			pos += w[k] - len + 2;
		}
	}
	fprintf(f, "%s\n", cols[N_COLS - 1]);
}

/* NULL prints the core options. */
void options_print_table(FILE *f, const struct iorig_option *table)
{
	static const char *const head[N_COLS] = { "NAME", "TYPE", "DEFAULT", "RANGE/VALUES",
						  "HELP" };
	char cols[N_COLS][512];
	size_t w[N_COLS];

	for (int k = 0; k < N_COLS; k++) {
		w[k] = strlen(head[k]);
		snprintf(cols[k], sizeof(cols[k]), "%s", head[k]);
	}
	for (size_t i = 0; table_row(table, i, cols); i++)
		for (int k = 0; k < N_COLS; k++) {
			size_t len = strlen(cols[k]);

			if (len > w[k] && (!col_cap[k] || len <= col_cap[k]))
				w[k] = len;
		}
	for (int k = 0; k < N_COLS; k++)
		snprintf(cols[k], sizeof(cols[k]), "%s", head[k]);
	print_row(f, cols, w);
	for (size_t i = 0; table_row(table, i, cols); i++)
		print_row(f, cols, w);
}
