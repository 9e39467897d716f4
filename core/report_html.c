/*
 * The HTML report (--report-html=FILE): one self-contained page, no
 * script and nothing fetched, so it opens anywhere and can be mailed or
 * archived as it is.  Sections: the run, each job's settings, the summary
 * table (the figures of the normal report), disk stats, and per report
 * entry inline SVG charts: bandwidth and IOPS over time (the 500 ms
 * samples behind "bw"/"iops" in the report, summed over the entry's
 * instances), and per direction the completion latency percentile curve
 * and histogram (from the same histograms as the percentiles).
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"
#include "report_fmt.h"

#define CHART_W 600
#define CHART_H 260
#define PAD_L 78
#define PAD_R 16
#define PAD_T 30
#define PAD_B 40

static const char *const dir_color[DDIR_COUNT] = { "#1f77b4", "#d62728", "#2ca02c" };

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* ---- charts ---------------------------------------------------------------- */

struct line {
	const char *name;
	const char *color;
	const double *x, *y;
	size_t n;
};

enum yfmt { Y_BYTES, Y_COUNT, Y_PCT, Y_LOGNS /* values are log10(ns) */ };

static const char *const decade[] = { "1ns", "10ns", "100ns", "1us", "10us", "100us",
				      "1ms", "10ms", "100ms", "1s", "10s", "100s" };
#define N_DECADES 12

static void fmt_y(char *buf, size_t len, double v, enum yfmt k)
{
	switch (k) {
	case Y_BYTES:
		fmt_num(buf, len, (uint64_t)(v + 0.5), 4, true, "B/s");
		break;
	case Y_COUNT:
		fmt_num(buf, len, (uint64_t)(v + 0.5), 4, false, "");
		break;
	case Y_LOGNS:
		snprintf(buf, len, "%s", v >= 0 && v < N_DECADES ? decade[(int)v] : "?");
		break;
	case Y_PCT:
		snprintf(buf, len, "%g%%", v);
		break;
	}
}

/* A round step giving about 5 ticks up to max. */
static double nice_step(double max)
{
	double raw = max / 5.0, mag = pow(10.0, floor(log10(raw))), r = raw / mag;

	return mag * (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10);
}

/* Steps for a y axis: whole decades when logarithmic, round binary
 * multiples (512MiB/s, not 477MiB/s) for bandwidth. */
static double y_step(double span, enum yfmt k)
{
	double unit = 1;

	if (k == Y_LOGNS)
		return 1;
	if (k == Y_BYTES)
		while (span / unit >= 1024)
			unit *= 1024;
	return nice_step(span / unit) * unit;
}

static void chart_open(FILE *f, const char *title, const char *cls)
{
	fprintf(f, "<figure class=\"chart %s\"><svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>", cls, CHART_W,
		CHART_H, CHART_W, CHART_H);
	esc(f, title);
	fprintf(f, "</title><rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>"
		"<text x=\"%d\" y=\"18\" class=\"t\">", CHART_W, CHART_H, PAD_L);
	esc(f, title);
	fputs("</text>", f);
}

static void chart_close(FILE *f, const struct line *l, size_t nl)
{
	double x = CHART_W - PAD_R - 60.0 * (double)nl;

	for (size_t i = 0; i < nl; i++, x += 60)
		fprintf(f, "<rect x=\"%.0f\" y=\"9\" width=\"12\" height=\"10\" fill=\"%s\"/>"
			"<text x=\"%.0f\" y=\"18\">%s</text>", x, l[i].color, x + 16, l[i].name);
	fputs("</svg></figure>\n", f);
}

/* Axes, grid and labels for y in [ymin, ymax].  log_x0 >= 0: the x axis
 * is log10(ns) from decade log_x0 to log_x0 + xmax; else 0 to xmax. */
static void axes(FILE *f, double xmax, double ymin, double ymax, enum yfmt yk, const char *xlabel,
		 int log_x0)
{
	const double w = CHART_W - PAD_L - PAD_R, h = CHART_H - PAD_T - PAD_B;
	double step = y_step(ymax - ymin, yk);
	char lab[48];

	for (double v = ymin; v <= ymax + (ymax - ymin) * 0.0001; v += step) {
		double y = PAD_T + h - (v - ymin) / (ymax - ymin) * h;

		fmt_y(lab, sizeof(lab), v, yk);
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"g\"/>"
			"<text x=\"%d\" y=\"%.1f\" class=\"yl\">%s</text>", PAD_L, y, PAD_L + w, y,
			PAD_L - 6, y + 4, lab);
	}
	if (log_x0 >= 0) {
		for (int d = 0; d <= (int)xmax && log_x0 + d < N_DECADES; d++)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xl\">%s</text>",
				PAD_L + d / xmax * w, PAD_T + h + 16, decade[log_x0 + d]);
	} else {
		double xs = nice_step(xmax);

		for (double v = 0; v <= xmax * 1.0001; v += xs)
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" class=\"xl\">%g</text>",
				PAD_L + v / xmax * w, PAD_T + h + 16, v);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"a\"/>"
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" class=\"a\"/>"
		"<text x=\"%.1f\" y=\"%d\" class=\"xt\">%s</text>", PAD_L, PAD_T + h, PAD_L + w,
		PAD_T + h, PAD_L, PAD_T, PAD_L, PAD_T + h, PAD_L + w / 2, CHART_H - 6, xlabel);
}

static void line_chart(FILE *f, const char *title, const char *cls, const struct line *l,
		       size_t nl, enum yfmt yk, const char *xlabel)
{
	const double w = CHART_W - PAD_L - PAD_R, h = CHART_H - PAD_T - PAD_B;
	double xmax = 0, ymin = INFINITY, ymax = 0;

	for (size_t i = 0; i < nl; i++)
		for (size_t k = 0; k < l[i].n; k++) {
			xmax = fmax(xmax, l[i].x[k]);
			ymin = fmin(ymin, l[i].y[k]);
			ymax = fmax(ymax, l[i].y[k]);
		}
	if (xmax <= 0)
		xmax = 1;
	if (yk == Y_LOGNS) {
		ymin = floor(ymin);
		ymax = fmax(ceil(ymax), ymin + 1);
	} else {
		ymin = 0;
		ymax = ymax > 0 ? ymax * 1.1 : 1;
	}
	chart_open(f, title, cls);
	axes(f, xmax, ymin, ymax, yk, xlabel, -1);
	for (size_t i = 0; i < nl; i++) {
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
			l[i].color);
		for (size_t k = 0; k < l[i].n; k++)
			fprintf(f, "%.1f,%.1f ", PAD_L + l[i].x[k] / xmax * w,
				PAD_T + h - (l[i].y[k] - ymin) / (ymax - ymin) * h);
		fputs("\"/>", f);
	}
	chart_close(f, l, nl);
}

/* ---- time series ----------------------------------------------------------- */

/* Time series of job instance job_id, or NULL (none, or no monitor). */
static const struct series *series_of(const struct report_model *m, uint32_t job_id)
{
	return m->monitor ? monitor_series(m->monitor, job_id) : NULL;
}

/* Sum the entry's instances sample by sample (they run on one 500 ms grid
 * each, started together); x in seconds since the run started. */
static size_t entry_series(const struct report_model *m, const struct report_entry *e, int d,
			   bool iops, double *x, double *y, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < m->run->n; i++) {
		const struct job_result *r = &m->run->res[i];
		const struct series *s;

		if (!report_entry_has(e, r) || !(s = series_of(m, r->job_id)))
			continue;
		for (size_t k = 0; k < s->n && k < cap; k++) {
			if (k >= n) {
				x[k] = s->p[k].t_ms / 1000.0;
				y[k] = 0;
				n = k + 1;
			}
			y[k] += (double)(iops ? s->p[k].iops[d] : s->p[k].bw[d]);
		}
	}
	return n;
}

static void time_charts(FILE *f, const struct report_model *m, const struct report_entry *e)
{
	size_t cap = 0;
	struct line l[DDIR_COUNT];
	double *buf;

	/* Room for the longest instance's samples, per direction, x and y. */
	for (size_t i = 0; i < m->run->n; i++) {
		const struct series *s = series_of(m, m->run->res[i].job_id);

		if (s && report_entry_has(e, &m->run->res[i]) && s->n > cap)
			cap = s->n;
	}
	buf = cap ? malloc(2 * DDIR_COUNT * cap * sizeof(*buf)) : NULL;
	if (!buf)
		return;
	for (int kind = 0; kind < 2; kind++) {
		size_t nl = 0;

		for (int d = 0; d < DDIR_COUNT; d++) {
			double *x = buf + 2 * (size_t)d * cap, *y = x + cap;
			size_t n;

			if (!e->st->dir[d].ios)
				continue;
			n = entry_series(m, e, d, kind, x, y, cap);
			l[nl++] = (struct line){ ddir_name[d], dir_color[d], x, y, n };
		}
		if (nl)
			line_chart(f, kind ? "IOPS over time" : "Bandwidth over time",
				   kind ? "iops-time" : "bw-time", l, nl, kind ? Y_COUNT : Y_BYTES,
				   "seconds since the run started");
	}
	free(buf);
}

/* ---- latency ----------------------------------------------------------------- */

/* Percentile curve on a "nines" axis: x = -log10(1 - p/100), 0 .. 4 (99.99). */
static void pct_chart(FILE *f, const struct report_entry *e)
{
	enum { N = 81 };
	double x[DDIR_COUNT][N], y[DDIR_COUNT][N];
	struct line l[DDIR_COUNT];
	size_t nl = 0;

	for (int d = 0; d < DDIR_COUNT; d++) {
		const struct hist *h = &e->st->dir[d].clat.h;

		if (!h->count)
			continue;
		for (int k = 0; k < N; k++) {
			double nines = 4.0 * k / (N - 1), p = 100.0 * (1.0 - pow(10.0, -nines));

			x[d][k] = nines;
			y[d][k] = log10((double)hist_percentile(h, p > 0 ? p : 0.01) + 1.0);
		}
		l[nl++] = (struct line){ ddir_name[d], dir_color[d], x[d], y[d], N };
	}
	if (!nl)
		return;
	line_chart(f, "Completion latency percentiles", "lat-pct", l, nl, Y_LOGNS,
		   "percentile, in nines: 1 = 90th, 2 = 99th, 3 = 99.9th, 4 = 99.99th");
}

/* Histogram: 8 bins per decade of latency, bars as percent of I/Os. */
static void hist_chart(FILE *f, const struct report_entry *e, int d)
{
	const double w = CHART_W - PAD_L - PAD_R, h = CHART_H - PAD_T - PAD_B;
	const struct hist *hg = &e->st->dir[d].clat.h;
	const struct runstat *rs = &e->st->dir[d].clat.rs;
	double lo, hi, ymax = 0, pct[128];
	int b0, b1;
	char title[96];
	struct line l = { ddir_name[d], dir_color[d], NULL, NULL, 0 };

	if (!hg->count)
		return;
	lo = log10(rs->min ? (double)rs->min : 1.0);
	hi = log10((double)rs->max + 1.0);
	b0 = (int)floor(lo * 8);
	b1 = (int)ceil(hi * 8);
	if (b1 - b0 > 128)
		b0 = b1 - 128;
	if (b1 <= b0)
		b1 = b0 + 1;
	for (int b = b0; b < b1; b++) {
		uint64_t a = hist_count_below(hg, (uint64_t)pow(10.0, b / 8.0));
		uint64_t z = hist_count_below(hg, (uint64_t)pow(10.0, (b + 1) / 8.0));

		pct[b - b0] = 100.0 * (double)(z - a) / (double)hg->count;
		ymax = fmax(ymax, pct[b - b0]);
	}
	ymax = ymax > 0 ? ymax * 1.1 : 1;
	snprintf(title, sizeof(title), "Completion latency histogram, %s", ddir_name[d]);
	chart_open(f, title, "lat-hist");
	/* x axis: log10(ns) from floor(lo) to ceil(hi), decades labelled */
	{
		double x0 = floor(b0 / 8.0), x1 = ceil(b1 / 8.0), span = x1 - x0;

		axes(f, span, 0, ymax, Y_PCT, "completion latency (log scale)", (int)x0);
		fputs("<g>", f);
		for (int b = b0; b < b1; b++) {
			double bx = PAD_L + ((b / 8.0) - x0) / span * w;
			double bw = w / span / 8.0, bh = pct[b - b0] / ymax * h;

			if (pct[b - b0] <= 0)
				continue;
			fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\"><title>%.2f%%</title></rect>", bx, PAD_T + h - bh,
				bw > 1.5 ? bw - 1 : bw, bh, dir_color[d], pct[b - b0]);
		}
		fputs("</g>", f);
	}
	chart_close(f, &l, 1);
}

/* ---- tables ------------------------------------------------------------------ */

static void settings(FILE *f, const struct report_model *m)
{
	const struct job *prev = NULL;

	fputs("<h2>Settings</h2><table id=\"settings\"><tr><th>job</th><th>group</th><th>rw</th>"
	      "<th>bs</th><th>ioengine</th><th>iodepth</th><th>numjobs</th><th>size</th>"
	      "<th>runtime</th><th>direct</th><th>filename</th></tr>\n", f);
	for (size_t i = 0; i < m->run->n; i++) {
		const struct job *j = m->run->res[i].job;
		const struct job_opts *o = &j->o;
		char bs[32], size[32], rt[32];

		if (j == prev)
			continue;
		prev = j;
		fmt_size_option(bs, sizeof(bs), o->bs[rw_writes(o->rw) && !rw_reads(o->rw)]);
		fmt_size_option(size, sizeof(size), o->size);
		if (o->runtime_ns)
			fmt_duration_option(rt, sizeof(rt), o->runtime_ns);
		else
			snprintf(rt, sizeof(rt), "-");
		fputs("<tr><td>", f);
		esc(f, o->name);
		fprintf(f, "</td><td>%" PRIu32 "</td><td>%s%s</td><td>%s</td><td>", j->groupid,
			rw_mode_name(o->rw), o->time_based ? " (time_based)" : "", bs);
		esc(f, o->ioengine);
		fprintf(f, "</td><td>%" PRIu32 "</td><td>%" PRIu32 "</td><td>%s</td><td>%s</td><td>%s</td><td>",
			o->iodepth, o->numjobs, size, rt, o->direct ? "yes" : "no");
		esc(f, o->filename ? o->filename : o->directory ? o->directory : "(per job)");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void summary(FILE *f, const struct report_model *m)
{
	fputs("<h2>Summary</h2><table id=\"summary\"><tr><th>job</th><th>dir</th><th>IOPS</th>"
	      "<th>bandwidth</th><th>I/O</th><th>runtime</th><th>clat mean</th><th>clat p50</th>"
	      "<th>clat p99</th><th>clat p99.9</th><th>error</th></tr>\n", f);
	for (size_t i = 0; i < m->n_entries; i++) {
		const struct report_entry *e = &m->entries[i];

		for (int d = 0; d < DDIR_COUNT; d++) {
			const struct dir_stats *ds = &e->st->dir[d];
			char iops[32], bw[32], io[32];

			if (!ds->ios && (d || e->st->dir[DDIR_WRITE].ios || e->st->dir[DDIR_TRIM].ios))
				continue;
			fmt_num(iops, sizeof(iops), (uint64_t)llround(report_dir_iops(e->st, d)), 4, false, "");
			fmt_num(bw, sizeof(bw), report_dir_bw(e->st, d), 4, true, "B/s");
			fmt_num(io, sizeof(io), ds->bytes, 4, true, "B");
			fputs("<tr><td>", f);
			esc(f, e->job->o.name);
			fprintf(f, "</td><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
				"<td class=\"n\">%s</td><td class=\"n\">%" PRIu64 " ms</td>"
				"<td class=\"n\">%.1f us</td><td class=\"n\">%.1f us</td><td class=\"n\">%.1f us</td>"
				"<td class=\"n\">%.1f us</td><td>", ddir_name[d], iops, bw, io,
				report_ms(report_dir_runtime_ns(e->st, d)), ds->clat.rs.mean / 1000.0,
				hist_percentile(&ds->clat.h, 50) / 1000.0,
				hist_percentile(&ds->clat.h, 99) / 1000.0,
				hist_percentile(&ds->clat.h, 99.9) / 1000.0);
			if (e->error)
				esc(f, e->errmsg && e->errmsg[0] ? e->errmsg : strerror(e->error));
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
}

static void disks(FILE *f, const struct report_model *m)
{
	if (!m->disks || !m->disks->n)
		return;
	fputs("<h2>Disk stats</h2><table id=\"disks\"><tr><th>device</th><th>read ios</th>"
	      "<th>write ios</th><th>read merges</th><th>write merges</th><th>read ticks</th>"
	      "<th>write ticks</th><th>in_queue</th><th>util</th></tr>\n", f);
	for (size_t i = 0; i < m->disks->n; i++) {
		struct disk_figures x;

		diskstats_figures(&m->disks->d[i], &x);
		fprintf(f, "<tr><td>%s</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64
			"</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%"
			PRIu64 " ms</td><td class=\"n\">%" PRIu64 " ms</td><td class=\"n\">%" PRIu64
			" ms</td><td class=\"n\">%.2f%%</td></tr>\n", m->disks->d[i].name, x.ios[0],
			x.ios[1], x.merges[0], x.merges[1], x.ticks[0], x.ticks[1], x.in_queue, x.util);
	}
	fputs("</table>\n", f);
}

static const char style[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fafafa}"
	"table{border-collapse:collapse;margin:8px 0 20px}"
	"th,td{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#eee}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}"
	".charts{display:flex;flex-wrap:wrap;gap:12px}figure{margin:0}"
	"svg text{font:11px sans-serif;fill:#333}svg text.t{font-weight:bold;font-size:13px}"
	"svg text.yl{text-anchor:end}svg text.xl,svg text.xt{text-anchor:middle}"
	"svg line.g{stroke:#e4e4e4}svg line.a{stroke:#444}";

int report_html(FILE *f, const struct report_model *m)
{
	char when[64];

	fmt_time(when, sizeof(when), m->run->start_unix_ms);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<title>iorig report, %s</title><style>%s</style></head><body>\n", when, style);
	fprintf(f, "<h1>iorig report</h1><p id=\"run\">iorig %s; started %s; ran %.3f s; %zu job "
		"instance(s)%s.</p>\n", IORIG_VERSION, when, (double)m->run->elapsed_ns / 1e9, m->run->n,
		m->run->interrupted ? "; <b>interrupted</b>: figures cover the run so far" : "");
	settings(f, m);
	summary(f, m);
	disks(f, m);
	for (size_t i = 0; i < m->n_entries; i++) {
		const struct report_entry *e = &m->entries[i];

		fputs("<section class=\"entry\"><h2>", f);
		esc(f, e->job->o.name);
		fprintf(f, " <small>(group %" PRIu32 ", %" PRIu32 " job%s)</small></h2><div class=\"charts\">\n",
			e->groupid, e->st->nr_jobs, e->st->nr_jobs == 1 ? "" : "s");
		time_charts(f, m, e);
		pct_chart(f, e);
		for (int d = 0; d < DDIR_COUNT; d++)
			hist_chart(f, e, d);
		fputs("</div></section>\n", f);
	}
	fputs("</body></html>\n", f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
