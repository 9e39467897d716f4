/*
 * Option values as text (options_int.h): parsing one value of an engine
 * option type with its range check, fio's per-direction lists
 * ("read,write[,trim]"), and the messages that say what a value may be
 * ("accepted: 1 .. 65536").  Shared by the engine-table binder, the core
 * table's binder, the table printer and the parsers of options_ext.inc, so
 * a range reads the same in an error and in `iorig engines NAME`.
 */
#include "options_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <iorig/engine.h>

#include "parse.h"

#define DUR_EXAMPLES "durations like 10s, 500ms; a plain number is seconds"
#define BOOL_ACCEPTED "1, 0, true, false, yes, no, on, off"

static void fmt_duration(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		const char *u;
		uint64_t ns;
	} units[] = {
		{ "h", 3600000000000ull }, { "m", 60000000000ull }, { "s", 1000000000ull },
		{ "ms", 1000000ull }, { "us", 1000ull },
	};

	for (size_t i = 0; ns && i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns % units[i].ns == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns, units[i].u);
			return;
		}
	}
	snprintf(buf, len, ns ? "%" PRIu64 "ns" : "%" PRIu64, ns);
}

void opt_join_values(char *buf, size_t len, const char *const *values, const char *sep)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; values && values[i] && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? sep : "", values[i]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

void opt_range_text(char *buf, size_t len, uint32_t type, int64_t min, int64_t max)
{
	char a[32], b[32];

	buf[0] = '\0';
	if (min >= max)
		return;
	if (type == IORIG_OPT_DURATION) {
		fmt_duration(a, sizeof(a), min < 0 ? 0 : (uint64_t)min);
		fmt_duration(b, sizeof(b), (uint64_t)max);
		snprintf(buf, len, "%s .. %s", a, b);
	} else {
		snprintf(buf, len, "%" PRId64 " .. %" PRId64, type == IORIG_OPT_INT ? min :
			 min < 0 ? 0 : min, max);
	}
}

/* What a value of this type may be, for "accepted: ..." */
static void accepted_text(char *buf, size_t len, uint32_t type, int64_t min, int64_t max,
			  const char *const *values)
{
	char r[96];

	opt_range_text(r, sizeof(r), type, min, max);
	switch (type) {
	case IORIG_OPT_BOOL:
		snprintf(buf, len, BOOL_ACCEPTED);
		break;
	case IORIG_OPT_INT:
		snprintf(buf, len, "%s", r[0] ? r : "integers (decimal or 0x hex)");
		break;
	case IORIG_OPT_SIZE:
		if (r[0])
			snprintf(buf, len, "%s (" OPT_SIZE_EXAMPLES ")", r);
		else
			snprintf(buf, len, OPT_SIZE_EXAMPLES ", 2g");
		break;
	case IORIG_OPT_DURATION:
		if (r[0])
			snprintf(buf, len, "%s (" DUR_EXAMPLES ")", r);
		else
			snprintf(buf, len, DUR_EXAMPLES);
		break;
	case IORIG_OPT_ENUM:
		opt_join_values(buf, len, values, ", ");
		break;
	default:
		snprintf(buf, len, "any text");
		break;
	}
}

int opt_reason(char *err, size_t errlen, const char *name, const char *val, const char *what,
	       const char *accepted)
{
	if (val && *val)
		snprintf(err, errlen, "option '%s': '%s' %s; accepted: %s", name, val, what,
			 accepted);
	else
		snprintf(err, errlen, "option '%s': a value is required; accepted: %s", name,
			 accepted);
	return -EINVAL;
}

bool opt_is_blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t')
			return false;
	return true;
}

static bool in_range_u(uint64_t v, int64_t min, int64_t max)
{
	if (min >= max)
		return true;
	return (min <= 0 || v >= (uint64_t)min) && max >= 0 && v <= (uint64_t)max;
}

int opt_parse_scalar(const char *name, uint32_t type, int64_t min, int64_t max,
		     const char *const *values, const char *val, union opt_scalar *out,
		     char *err, size_t errlen)
{
	char acc[512];
	int rc;

	accepted_text(acc, sizeof(acc), type, min, max, values);
	if (!val || opt_is_blank(val))
		return opt_reason(err, errlen, name, NULL, NULL, acc);
	switch (type) {
	case IORIG_OPT_BOOL:
		if (parse_bool(val, &out->b))
			return opt_reason(err, errlen, name, val, "is not a boolean", acc);
		return 0;
	case IORIG_OPT_INT:
		rc = parse_int64(val, &out->i);
		if (rc == -ERANGE)
			return opt_reason(err, errlen, name, val, "does not fit in 64 bits", acc);
		if (rc)
			return opt_reason(err, errlen, name, val, "is not an integer", acc);
		if (min < max && (out->i < min || out->i > max))
			return opt_reason(err, errlen, name, val, "is out of range", acc);
		return 0;
	case IORIG_OPT_SIZE:
	case IORIG_OPT_DURATION:
		rc = type == IORIG_OPT_SIZE ? parse_size(val, &out->u)
					    : parse_duration_ns(val, &out->u);
		if (rc == -ERANGE)
			return opt_reason(err, errlen, name, val, "is too large", acc);
		if (rc)
			return opt_reason(err, errlen, name, val, type == IORIG_OPT_SIZE ?
					  "is not a size" : "is not a duration", acc);
		if (!in_range_u(out->u, min, max))
			return opt_reason(err, errlen, name, val, "is out of range", acc);
		return 0;
	case IORIG_OPT_ENUM:
		for (int i = 0; values && values[i]; i++) {
			if (!strcasecmp(values[i], val)) {
				out->idx = i;
				return 0;
			}
		}
		return opt_reason(err, errlen, name, val, "is not valid", acc);
	}
	snprintf(err, errlen, "option '%s' has type %u, which this core does not know "
		 "(engine bug)", name, type);
	return -EINVAL;
}

int opt_split_dirs(const char *val, char fields[DDIR_COUNT][1024], int *n)
{
	const char *s = val;

	*n = 0;
	for (;;) {
		const char *c = strchr(s, ',');
		size_t len = c ? (size_t)(c - s) : strlen(s);

		if (*n == DDIR_COUNT || len >= sizeof(fields[0]))
			return -EINVAL;
		memcpy(fields[*n], s, len);
		fields[*n][len] = '\0';
		(*n)++;
		if (!c)
			return 0;
		s = c + 1;
	}
}

int opt_parse_dirs(void *field, size_t esize, const char *name, const char *val,
		   const char *list_why, const char *accepted, opt_dir_parse_fn parse, void *ctx,
		   char *err, size_t errlen)
{
	char f[DDIR_COUNT][1024];
	unsigned char *tmp;
	const char *why = NULL;
	int n;

	if (!val || opt_is_blank(val))
		return opt_reason(err, errlen, name, NULL, NULL, accepted);
	if (opt_split_dirs(val, f, &n))
		return opt_reason(err, errlen, name, val, list_why, accepted);
	tmp = malloc(DDIR_COUNT * esize);
	if (!tmp) {
		snprintf(err, errlen, "option '%s': out of memory", name);
		return -ENOMEM;
	}
	memcpy(tmp, field, DDIR_COUNT * esize);
	for (int d = 0; d < n && !why; d++) {
		if (n > 1 && opt_is_blank(f[d]))
			continue; /* ",5m": this direction keeps its value */
		why = parse(tmp + (size_t)d * esize, f[d], ctx);
		if (!why && n == 1)
			for (int k = 1; k < DDIR_COUNT; k++)
				memcpy(tmp + (size_t)k * esize, tmp, esize);
	}
	if (!why && n == 2)
		memcpy(tmp + (size_t)DDIR_TRIM * esize, tmp + (size_t)DDIR_WRITE * esize, esize);
	if (!why)
		memcpy(field, tmp, DDIR_COUNT * esize);
	free(tmp);
	return why ? opt_reason(err, errlen, name, val, why, accepted) : 0;
}
