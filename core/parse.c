/*
 * Parsers for option values (parse.h): sizes, durations, booleans, integers,
 * percentile and CPU lists, plus the edit distance behind "did you mean" and
 * fio-style size formatting.  Pure functions: no printing, no globals.
 */
#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* True when [s, end) holds only white space. */
static bool only_space(const char *s)
{
	return *skip_space(s) == '\0';
}

/*
 * Unsigned decimal or 0x hex at *sp, no sign.  Advances *sp past the digits.
 * Hex is refused when allow_hex is false.
 */
static int scan_u64(const char **sp, uint64_t *out, bool allow_hex, bool *was_hex)
{
	const char *s = *sp;
	unsigned base = 10;
	uint64_t v = 0;
	bool any = false;

	if (was_hex)
		*was_hex = false;
	if (allow_hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (was_hex)
			*was_hex = true;
	}
	for (;; s++) {
		unsigned d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
		any = true;
	}
	if (!any)
		return -EINVAL;
	*sp = s;
	*out = v;
	return 0;
}

/*
 * "<int>[.<frac>]" at *sp, multiplied by mult exactly (128-bit).  *rem is
 * set when the fraction leaves a remainder smaller than one unit.
 */
static int scan_scaled(const char *num_start, const char *num_end, uint64_t mult,
		       uint64_t *out, bool *rem)
{
	unsigned __int128 ip = 0, frac = 0, den = 1, v;
	const char *s = num_start;
	bool any = false;

	for (; s < num_end && isdigit((unsigned char)*s); s++) {
		ip = ip * 10 + (unsigned)(*s - '0');
		if (ip > UINT64_MAX)
			return -ERANGE;
		any = true;
	}
	if (s < num_end && *s == '.') {
		for (s++; s < num_end && isdigit((unsigned char)*s); s++) {
			/* Digits past 19 cannot change a 64-bit result's integer part
			 * by more than the remainder flag reports. */
			if (den < (unsigned __int128)10000000000000000000ull) {
				frac = frac * 10 + (unsigned)(*s - '0');
				den *= 10;
			} else if (*s != '0') {
				*rem = true;
			}
			any = true;
		}
	}
	if (!any || s != num_end)
		return -EINVAL;
	v = ip * mult;
	if (v > UINT64_MAX)
		return -ERANGE;
	v += frac * mult / den;
	if (v > UINT64_MAX)
		return -ERANGE;
	if ((frac * mult) % den)
		*rem = true;
	*out = (uint64_t)v;
	return 0;
}

/* Length of the number part: digits with at most one '.'. */
static const char *number_end(const char *s)
{
	bool dot = false;

	for (; *s; s++) {
		if (isdigit((unsigned char)*s))
			continue;
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		break;
	}
	return s;
}

/* The unit word at s (letters only) must be followed by nothing but space. */
static size_t unit_len(const char *s)
{
	size_t n = 0;

	while (isalpha((unsigned char)s[n]))
		n++;
	return only_space(s + n) ? n : (size_t)-1;
}

int parse_size(const char *str, uint64_t *out)
{
	static const char prefixes[] = "kmgtpe";
	const char *s, *ne, *u;
	uint64_t mult = 1, v;
	bool rem = false;
	size_t ul;
	int rc;

	if (!str)
		return -EINVAL;
	s = skip_space(str);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		/* Hex takes no unit: "0x1b" would be ambiguous. */
		rc = scan_u64(&s, &v, true, NULL);
		if (rc)
			return rc;
		if (!only_space(s))
			return -EINVAL;
		*out = v;
		return 0;
	}
	ne = number_end(s);
	u = skip_space(ne);
	ul = unit_len(u);
	if (ul == (size_t)-1)
		return -EINVAL;
	if (ul > 0) {
		const char *p = strchr(prefixes, tolower((unsigned char)u[0]));
		char rest[4] = "";

		if (ul > 3)
			return -EINVAL;
		if (tolower((unsigned char)u[0]) == 'b' && ul == 1) {
			mult = 1;
		} else {
			if (!p)
				return -EINVAL;
			for (size_t i = 1; i < ul; i++)
				rest[i - 1] = (char)tolower((unsigned char)u[i]);
			/* k, ki, kb, kib: all 1024 (fio's default kb_base). */
			if (strcmp(rest, "") && strcmp(rest, "i") && strcmp(rest, "b") &&
			    strcmp(rest, "ib"))
				return -EINVAL;
			for (long i = 0; i <= p - prefixes; i++)
				mult <<= 10;
		}
	}
	rc = scan_scaled(s, ne, mult, &v, &rem);
	if (rc)
		return rc;
	if (rem)
		return -EINVAL; /* a fraction of a byte */
	*out = v;
	return 0;
}

int parse_duration_ns(const char *str, uint64_t *out)
{
	return parse_duration_unit_ns(str, 1000000000ull, out);
}

int parse_duration_unit_ns(const char *str, uint64_t plain_ns, uint64_t *out)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "nsec", 1 },
		{ "us", 1000 }, { "usec", 1000 },
		{ "ms", 1000000 }, { "msec", 1000000 },
		{ "s", 1000000000ull }, { "sec", 1000000000ull },
		{ "m", 60000000000ull }, { "min", 60000000000ull },
		{ "h", 3600000000000ull }, { "d", 86400000000000ull },
	};
	const char *s, *ne, *u;
	uint64_t mult = plain_ns, v;
	bool rem = false;
	size_t ul;
	int rc;

	if (!str)
		return -EINVAL;
	s = skip_space(str);
	ne = number_end(s);
	u = skip_space(ne);
	ul = unit_len(u);
	if (ul == (size_t)-1)
		return -EINVAL;
	if (ul > 0) {
		size_t i;

		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (strlen(units[i].name) == ul && !strncasecmp(u, units[i].name, ul))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return -EINVAL;
		mult = units[i].ns;
	}
	/* Sub-nanosecond remainders are dropped: no clock resolves them. */
	rc = scan_scaled(s, ne, mult, &v, &rem);
	if (rc)
		return rc;
	*out = v;
	return 0;
}

int parse_bool(const char *str, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };
	char w[8];
	const char *s;
	size_t n;

	if (!str)
		return -EINVAL;
	s = skip_space(str);
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0 || n >= sizeof(w))
		return -EINVAL;
	memcpy(w, s, n);
	w[n] = '\0';
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(w, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(w, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

int parse_uint64(const char *str, uint64_t *out)
{
	const char *s;
	uint64_t v;
	int rc;

	if (!str)
		return -EINVAL;
	s = skip_space(str);
	if (*s == '+')
		s++;
	rc = scan_u64(&s, &v, true, NULL);
	if (rc)
		return rc;
	if (!only_space(s))
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_int64(const char *str, int64_t *out)
{
	const char *s;
	bool neg = false;
	uint64_t v;
	int rc;

	if (!str)
		return -EINVAL;
	s = skip_space(str);
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	rc = scan_u64(&s, &v, true, NULL);
	if (rc)
		return rc;
	if (!only_space(s))
		return -EINVAL;
	if (neg) {
		if (v > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	} else {
		if (v > INT64_MAX)
			return -ERANGE;
		*out = (int64_t)v;
	}
	return 0;
}

int parse_percentile_list(const char *str, double *pcts, uint32_t max, uint32_t *n)
{
	const char *s = str;
	uint32_t count = 0;

	if (!str)
		return -EINVAL;
	for (;;) {
		char *end;
		double v;

		s = skip_space(s);
		/* strtod would accept "inf", "nan" and hex floats: refuse them. */
		if (!isdigit((unsigned char)*s) && *s != '.')
			return -EINVAL;
		errno = 0;
		v = strtod(s, &end);
		if (end == s || errno || !(v > 0.0 && v <= 100.0))
			return -EINVAL;
		if (count == max)
			return -ERANGE;
		pcts[count++] = v;
		s = skip_space(end);
		if (*s == '\0')
			break;
		if (*s != ':')
			return -EINVAL;
		s++;
	}
	*n = count;
	return 0;
}

int parse_cpu_list(const char *str, uint64_t *bitmap, unsigned nbits)
{
	const char *s = str;
	unsigned words = (nbits + 63) / 64;

	if (!str)
		return -EINVAL;
	memset(bitmap, 0, words * sizeof(*bitmap));
	for (;;) {
		uint64_t lo, hi;
		int rc;

		s = skip_space(s);
		rc = scan_u64(&s, &lo, false, NULL);
		if (rc)
			return -EINVAL;
		hi = lo;
		s = skip_space(s);
		if (*s == '-') {
			s = skip_space(s + 1);
			if (scan_u64(&s, &hi, false, NULL))
				return -EINVAL;
			s = skip_space(s);
		}
		if (hi < lo)
			return -EINVAL;
		if (hi >= nbits)
			return -ERANGE;
		for (uint64_t c = lo; c <= hi; c++)
			bitmap[c / 64] |= 1ull << (c % 64);
		if (*s == '\0')
			break;
		if (*s != ',')
			return -EINVAL;
		s++;
	}
	return 0;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row;
	size_t res;

	row = malloc((lb + 1) * sizeof(*row));
	if (!row)
		return la > lb ? la : lb; /* "far": no suggestion */
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	res = row[lb];
	free(row);
	return res;
}

void fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = -1;

	/* As fio: at most four digits; scale by 1024 until the number fits,
	 * then show as many decimals as the four places leave. */
	if (bytes < 10000) {
		snprintf(buf, len, "%lluB", (unsigned long long)bytes);
		return;
	}
	for (;;) {
		char num[32];

		while (v >= 10000.0 && u < 5) {
			v /= 1024.0;
			u++;
		}
		for (int dec = 2; dec >= 0; dec--) {
			int n = snprintf(num, sizeof(num), "%.*f", dec, v);

			if (n <= 4 || dec == 0) {
				if (n > 4 && u < 5) {
					v = 10000.0; /* rounded up past four digits */
					break;
				}
				snprintf(buf, len, "%s%s", num, units[u]);
				return;
			}
		}
	}
}
