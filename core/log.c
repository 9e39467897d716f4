/* Messages to stderr, prefixed so they are told apart from the report. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

static int log_level = IORIG_LOG_INFO;

void log_set_level(int level)
{
	log_level = level;
}

int log_get_level(void)
{
	return log_level;
}

void log_msg(int level, const char *fmt, ...)
{
	static const char *const prefix[] = { "error: ", "warning: ", "", "debug: " };
	char buf[2048];
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* One call, so lines from different threads never interleave. */
	fprintf(stderr, "iorig: %s%s\n", prefix[level < 0 ? 0 : level > 3 ? 3 : level], buf);
}
