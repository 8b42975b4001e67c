/*
 * metrics.c: the counters of metrics.h and their Prometheus text
 * (exposition format 0.0.4).  One process-wide registry: the counters are
 * bumped from the loop, the workers and the log's writer thread.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lib/clock.h"
#include "lib/metrics.h"

static uint64_t	 metrics_v[M_N];

/* One labelled family: label texts (borrowed: static strings) and counts. */
struct metrics_fam {
	const char	*name, *label, *help;
	const char	*keys[METRICS_LABELS];
	uint64_t	 counts[METRICS_LABELS];
	size_t		 n;
	uint64_t	 other;
};

static pthread_mutex_t metrics_mtx = PTHREAD_MUTEX_INITIALIZER;
static struct metrics_fam metrics_fams[MF_N] = {
	[MF_COMMANDS] = { "grundy_commands_total", "command",
	    "Commands run, by name.", { NULL }, { 0 }, 0, 0 },
	[MF_COMMAND_ERRORS] = { "grundy_command_errors_total", "command",
	    "Commands answered with an error, by name.", { NULL }, { 0 }, 0,
	    0 },
	[MF_GAMES_ENDED] = { "grundy_games_ended_total", "reason",
	    "Refereed games ended, by reason.", { NULL }, { 0 }, 0, 0 },
	[MF_HTTP] = { "grundy_http_requests_total", "code",
	    "HTTP requests answered, by status code.", { NULL }, { 0 }, 0,
	    0 },
};

static const char *const metrics_names[M_N][2] = {
	[M_MOVES] = { "grundy_moves_total",
	    "Moves played in refereed games." },
	[M_RATE_LIMITED] = { "grundy_rate_limited_total",
	    "Commands refused by the rate limit." },
	[M_LOCKOUTS] = { "grundy_lockouts_total",
	    "Names or addresses locked after failed logins." },
	[M_HTTP_DROPPED] = { "grundy_http_streams_dropped_total",
	    "Feeds dropped at max-http-output." },
};

/* The commit histogram's upper bounds, in microseconds. */
static const uint64_t metrics_le_us[] = {
	1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000,
};
#define METRICS_NLE	(sizeof metrics_le_us / sizeof metrics_le_us[0])
static uint64_t	 metrics_hist[METRICS_NLE + 1];	/* not cumulative */
static uint64_t	 metrics_hist_sum_us;
static __thread uint64_t metrics_t0;

void
metrics_inc(enum metric m)
{
	__atomic_add_fetch(&metrics_v[m], 1, __ATOMIC_RELAXED);
}

static uint64_t
metrics_get(enum metric m)
{
	return (__atomic_load_n(&metrics_v[m], __ATOMIC_RELAXED));
}

/* Returns key's slot in f (metrics_mtx held), adding it; NULL if full. */
static uint64_t *
metrics_slot(struct metrics_fam *f, const char *key, int add)
{
	size_t	 i;

	/* The same literal or table name first: no strcmp a command. */
	for (i = 0; i < f->n; i++)
		if (f->keys[i] == key)
			return (&f->counts[i]);
	for (i = 0; i < f->n; i++)
		if (strcmp(f->keys[i], key) == 0)
			return (&f->counts[i]);
	if (!add)
		return (NULL);
	if (f->n == METRICS_LABELS)
		return (&f->other);
	f->keys[f->n] = key;
	return (&f->counts[f->n++]);
}

/*
 * Counts one event of a family under key, which must outlive the process
 * (a string literal or a table's name).
 */
void
metrics_label(enum metric_family fam, const char *key)
{
	pthread_mutex_lock(&metrics_mtx);
	(*metrics_slot(&metrics_fams[fam], key, 1))++;
	pthread_mutex_unlock(&metrics_mtx);
}

/* Counts a command run (name NULL: nothing was run) and its error. */
void
metrics_cmd(const char *name, int error)
{
	if (name == NULL)
		return;
	metrics_label(MF_COMMANDS, name);
	if (error)
		metrics_label(MF_COMMAND_ERRORS, name);
}

/* The log's writer starts a COMMIT (its thread). */
void
metrics_commit_start(void)
{
	metrics_t0 = clock_mono_ns();
}

/* The COMMIT returned: one observation of the histogram. */
void
metrics_commit_done(void)
{
	uint64_t	 us = (clock_mono_ns() - metrics_t0) / 1000;
	size_t		 i;

	for (i = 0; i < METRICS_NLE && us > metrics_le_us[i]; i++)
		;
	pthread_mutex_lock(&metrics_mtx);
	metrics_hist[i]++;
	metrics_hist_sum_us += us;
	pthread_mutex_unlock(&metrics_mtx);
}

/* Prints a family's header. */
static void
metrics_head(struct buf *b, const char *name, const char *type,
    const char *help)
{
	buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Prints one unlabelled sample with its header. */
static void
metrics_one(struct buf *b, const char *name, const char *type,
    const char *help, uint64_t v)
{
	metrics_head(b, name, type, help);
	buf_printf(b, "%s %llu\n", name, (unsigned long long)v);
}

/* Prints a labelled family (metrics_mtx held). */
static void
metrics_fam_print(struct buf *b, const struct metrics_fam *f)
{
	size_t	 i;

	metrics_head(b, f->name, "counter", f->help);
	for (i = 0; i < f->n; i++)
		buf_printf(b, "%s{%s=\"%s\"} %llu\n", f->name, f->label,
		    f->keys[i], (unsigned long long)f->counts[i]);
	if (f->other > 0)
		buf_printf(b, "%s{%s=\"other\"} %llu\n", f->name, f->label,
		    (unsigned long long)f->other);
}

/* Prints the commit histogram (metrics_mtx held). */
static void
metrics_hist_print(struct buf *b)
{
	const char	*n = "grundy_log_commit_seconds";
	uint64_t	 cum = 0;
	size_t		 i;

	metrics_head(b, n, "histogram", "Time of the game log's commits.");
	for (i = 0; i < METRICS_NLE; i++) {
		cum += metrics_hist[i];
		buf_printf(b, "%s_bucket{le=\"%g\"} %llu\n", n,
		    (double)metrics_le_us[i] / 1e6, (unsigned long long)cum);
	}
	cum += metrics_hist[METRICS_NLE];
	buf_printf(b, "%s_bucket{le=\"+Inf\"} %llu\n", n,
	    (unsigned long long)cum);
	buf_printf(b, "%s_sum %.6f\n%s_count %llu\n", n,
	    (double)metrics_hist_sum_us / 1e6, n, (unsigned long long)cum);
}

/* The gauges: name, help, and where struct metrics_gauges holds each. */
static const struct {
	const char	*name;
	const char	*help;
	size_t		 off;
} metrics_gauge_keys[] = {
	{ "grundy_connections", "Open line-protocol connections.",
	    offsetof(struct metrics_gauges, connections) },
	{ "grundy_live_games", "Games the lobby is refereeing.",
	    offsetof(struct metrics_gauges, live_games) },
	{ "grundy_log_queue_depth", "Writes waiting for the game log's "
	    "writer.", offsetof(struct metrics_gauges, log_queue) },
	{ "grundy_http_connections", "Open HTTP connections.",
	    offsetof(struct metrics_gauges, http_connections) },
	{ "grundy_http_streams", "Open feeds.",
	    offsetof(struct metrics_gauges, http_streams) },
	{ "grundy_http_exports", "Exports in flight (GET /api/export).",
	    offsetof(struct metrics_gauges, http_exports) },
	{ "grundy_http_inflight_bytes", "Bytes of records and feeds' "
	    "catch-ups not yet sent (max-http-inflight).",
	    offsetof(struct metrics_gauges, http_inflight) },
};

/* Appends every metric in Prometheus text format. */
void
metrics_print(struct buf *b, const struct metrics_gauges *g)
{
	uint64_t	 v;
	size_t		 i;

	for (i = 0; i < sizeof metrics_gauge_keys /
	    sizeof metrics_gauge_keys[0]; i++) {
		memcpy(&v, (const char *)g + metrics_gauge_keys[i].off,
		    sizeof v);
		metrics_one(b, metrics_gauge_keys[i].name, "gauge",
		    metrics_gauge_keys[i].help, v);
	}
	for (i = 0; i < M_N; i++)
		metrics_one(b, metrics_names[i][0], "counter",
		    metrics_names[i][1], metrics_get((enum metric)i));
	pthread_mutex_lock(&metrics_mtx);
	for (i = 0; i < MF_N; i++)
		metrics_fam_print(b, &metrics_fams[i]);
	metrics_hist_print(b);
	pthread_mutex_unlock(&metrics_mtx);
}
