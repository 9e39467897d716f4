/*
 * The binder of engine option tables (struct iorig_option, options.h):
 * defaults, one value by name, and freeing the strings it made.  The core
 * binds an engine's options into the block it allocated for them
 * (job_opts.engine_opts) and never writes into the engine's own memory.
 */
#include "options.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options_int.h"

static const struct iorig_option *table_find(const struct iorig_option *t, const char *key)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, key))
			return t;
	return NULL;
}

int opt_store_string(void *field, const char *name, const char *val, char *err,
		     size_t errlen)
{
	char *old, *s = strdup(val);

	if (!s) {
		snprintf(err, errlen, "option '%s': out of memory", name);
		return -ENOMEM;
	}
	memcpy(&old, field, sizeof(old));
	free(old);
	memcpy(field, &s, sizeof(s));
	return 0;
}

/*
 * dst must be zeroed or filled by option_defaults()/option_bind(): a
 * STRING field then always holds NULL or a string this file strdup'ed.
 */
static int bind_one(const struct iorig_option *opt, void *dst, const char *value,
		    char *err, size_t errlen)
{
	char *p = (char *)dst + opt->offset;
	union opt_scalar v = { 0 };
	int rc;

	if (opt->type == IORIG_OPT_STRING)
		return opt_store_string(p, opt->name, value ? value : "", err, errlen);
	rc = opt_parse_scalar(opt->name, opt->type, opt->min, opt->max, opt->values, value,
			      &v, err, errlen);
	if (rc)
		return rc;
	switch (opt->type) {
	case IORIG_OPT_BOOL: {
		int b = v.b;

		memcpy(p, &b, sizeof(b));
		break;
	}
	case IORIG_OPT_INT:
		memcpy(p, &v.i, sizeof(v.i));
		break;
	case IORIG_OPT_SIZE:
	case IORIG_OPT_DURATION:
		memcpy(p, &v.u, sizeof(v.u));
		break;
	case IORIG_OPT_ENUM:
		memcpy(p, &v.idx, sizeof(v.idx));
		break;
	}
	return 0;
}

int option_bind(const struct iorig_option *table, void *dst, const char *key,
		const char *value, char *err, size_t errlen)
{
	const struct iorig_option *opt = table_find(table, key);

	if (!opt)
		return -ENOENT;
	return bind_one(opt, dst, value, err, errlen);
}

int option_defaults(const struct iorig_option *table, void *dst, char *err, size_t errlen)
{
	for (const struct iorig_option *o = table; o && o->name; o++) {
		char *p = (char *)dst + o->offset;
		char why[512];
		int rc;

		if (!o->def) {
			/* No default: zero, or a NULL string. */
			size_t sz = o->type == IORIG_OPT_STRING ? sizeof(char *) :
				    o->type == IORIG_OPT_BOOL || o->type == IORIG_OPT_ENUM ?
				    sizeof(int) : sizeof(uint64_t);

			memset(p, 0, sz);
			continue;
		}
		if (o->type == IORIG_OPT_STRING) {
			char *none = NULL; /* dst may hold anything yet: free nothing */

			memcpy(p, &none, sizeof(none));
		}
		rc = bind_one(o, dst, o->def, why, sizeof(why));
		if (rc) {
			snprintf(err, errlen, "default of %s", why);
			return rc;
		}
	}
	return 0;
}

void option_free_strings(const struct iorig_option *table, void *dst)
{
	for (const struct iorig_option *o = table; o && o->name; o++) {
		char *p = (char *)dst + o->offset, *s;

		if (o->type != IORIG_OPT_STRING)
			continue;
		memcpy(&s, p, sizeof(s));
		free(s);
		s = NULL;
		memcpy(p, &s, sizeof(s));
	}
}
