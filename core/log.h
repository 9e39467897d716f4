/*
 * Messages for the user.  Everything goes to stderr, so stdout carries only
 * the report (JSON stays parseable).  Thread-safe: one fprintf per message.
 */
#ifndef IORIG_LOG_H
#define IORIG_LOG_H

#include <iorig/engine.h> /* IORIG_LOG_* levels */

void log_set_level(int level);  /* messages above level are dropped */
int log_get_level(void);
void log_msg(int level, const char *fmt, ...) IORIG_PRINTF(2, 3);

#define log_err(...) log_msg(IORIG_LOG_ERROR, __VA_ARGS__)
#define log_warn(...) log_msg(IORIG_LOG_WARN, __VA_ARGS__)
#define log_info(...) log_msg(IORIG_LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(IORIG_LOG_DEBUG, __VA_ARGS__)

#endif
