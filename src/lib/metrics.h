/*
 * metrics.h: the daemon's counters for GET /metrics (PROTOCOL.md §14.5).
 * Each is bumped by one call where its event happens (any thread: the
 * counters are atomic, the labelled ones behind a mutex); http-api.c
 * prints them with the gauges it reads from the server.  Labels come only
 * from the daemon's own tables (command names, end reasons, HTTP status
 * codes), never from client text, and each labelled family holds at most
 * METRICS_LABELS values (later ones are counted under "other").
 */
#ifndef METRICS_H
#define METRICS_H

#include <stdint.h>

#include "lib/buf.h"

enum metric {
	M_MOVES = 0,		/* moves played in refereed games */
	M_RATE_LIMITED,		/* commands refused by rate */
	M_LOCKOUTS,		/* names or addresses locked after failures */
	M_HTTP_DROPPED,		/* feeds dropped at max-http-output */
	M_N
};

/* Labelled counter families. */
enum metric_family {
	MF_COMMANDS = 0,	/* commands run, by name */
	MF_COMMAND_ERRORS,	/* of those, answered with '?' */
	MF_GAMES_ENDED,		/* refereed games ended, by reason */
	MF_HTTP,		/* HTTP requests answered, by status */
	MF_N
};

#define METRICS_LABELS	128

void	 metrics_inc(enum metric);
void	 metrics_label(enum metric_family, const char *);
void	 metrics_cmd(const char *, int);
void	 metrics_commit_start(void);
void	 metrics_commit_done(void);

/* The gauges, read by the caller when it prints. */
struct metrics_gauges {
	uint64_t	 connections;
	uint64_t	 live_games;
	uint64_t	 log_queue;
	uint64_t	 http_connections;
	uint64_t	 http_streams;
	uint64_t	 http_exports;
	uint64_t	 http_inflight;	/* bytes, max-http-inflight */
};
void	 metrics_print(struct buf *, const struct metrics_gauges *);

#endif /* METRICS_H */
