/*
 * --status-interval: every N seconds, one JSON line per interval with what
 * happened in that interval only (not since the start: fio issue #130):
 * per job and direction its bytes, I/Os, IOPS, bandwidth, and completion
 * latency percentiles of the interval's I/Os.  The percentiles come from
 * the difference of two snapshots of the worker's cumulative histogram
 * (histograms are additive), taken by the sampler thread.  A last line
 * closes each group, so the lines of a run add up to its totals.
 *
 * Line layout (one object per line, keys as in the JSON report):
 *   {"type": "interval", "seq": 3, "time_ms": <unix ms>, "elapsed_ms": <since
 *    run start>, "interval_ms": 1000, "group_end": false,
 *    "jobs": [{"jobname": "j", "groupid": 0, "job_id": 0, "nr_jobs": 1,
 *              "read": {"io_bytes", "total_ios", "iops", "bw_bytes", "bw",
 *                       "clat_ns": {"N", "mean", "percentile": {...}},
 *                       "lat_ns": {"N", "mean"}}, "write": {...}}]}
 */
#ifndef IORIG_STATUS_INTERVAL_H
#define IORIG_STATUS_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

struct monitor_worker;
struct status_iv;

#include <stdio.h>

/* Lines go to `out`; status_iv_close closes it unless it is stdout. */
int status_iv_open(struct status_iv **s, FILE *out, uint64_t interval_ns, uint64_t run_start);
void status_iv_group_begin(struct status_iv *s, const struct monitor_worker *w, size_t n,
			   uint64_t now);
void status_iv_tick(struct status_iv *s, uint64_t now);
void status_iv_group_end(struct status_iv *s, uint64_t now);
void status_iv_close(struct status_iv *s);

#endif
