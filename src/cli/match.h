/*
 * match.h: `grundy match`, a local runner for bot development (issue 14
 * §4): engine programs that speak the player role (PROTOCOL.md §13.2)
 * play each other with no server, N games at once on one poll loop, under
 * the daemon's referee (referee.c), clocks (clock.c) and statistics
 * (matchstat.c, sprt.c).  doc/grundy.1 describes its options and output.
 *
 * match.c: options and the engines file; match-sched.c: the schedule;
 * match-proc.c: the engine processes; match-game.c: the games and the
 * loop; match-out.c: results, the output file, resuming and the records;
 * match-report.c: the progress lines and the final table.
 */
#ifndef MATCH_H
#define MATCH_H

#include <sys/types.h>

#include <stdint.h>

#include "cli/chan.h"
#include "cli/sandbox.h"
#include "solver/game.h"
#include "stats/matchstat.h"
#include "proto/proto.h"
#include "stats/sprt.h"
#include "store/store.h"
#include "lib/util.h"

#define MATCH_ENGINES_MAX	64	/* engines in one run */
#define MATCH_GAMES_MAX		1000000	/* games in one run */
#define MATCH_CONC_MAX		128	/* games at once: 4 pipes each */
#define MATCH_OUTSTANDING	8	/* commands awaiting an answer */
#define MATCH_FILE_MAX		(256 * 1024 * 1024) /* bytes of a file read */

/* An engine as defined on the command line or in the engines file. */
struct match_engine {
	char		*name;
	char		**argv;		/* cmd, then its args; NULL-ended */
	size_t		 argc;
	char		**env;		/* "NAME=VALUE" options; NULL-ended */
	size_t		 nenv;
	char		*dir;		/* working directory, or NULL */
	int		 sandbox;	/* run under the sandbox (sandbox.h) */
	/* Counters of the run (this process only). */
	uint64_t	 crashes, timeouts, illegal, slow_starts, starts;
	/* Moves of the games counted whose thinking time is known, and
	 * that time (a resumed game of an older file has none). */
	uint64_t	 timed_moves, think_us;
	uint64_t	 limits;	/* games lost on a sandbox limit */
	/* What its moves cost (moves measured, their sums, the peak). */
	uint64_t	 cost_moves, cpu_moves, wall_us, cpu_us, peak_bytes;
};

/* What an engine process is doing: the one place it changes is mp_set. */
#define MP_STATES(X)							\
	/* no process */						\
	X(MP_DOWN, "down")						\
	/* running */							\
	X(MP_UP, "up")
enum mp_state { MP_STATES(ENUM_X_ID) };

/* A command sent to a process and not answered yet. */
struct mp_cmd {
	unsigned long	 id;
	int		 genmove;	/* else new, play or gameover */
	unsigned long	 serial;	/* the turn it was sent for */
};

/* One engine process, owned by a slot. */
struct mproc {
	enum mp_state	 state;
	size_t		 eng;		/* index into the engines */
	struct chan	 ch;		/* its pipes and its pid */
	struct proto_answer ans;
	unsigned long	 next_id;
	struct mp_cmd	 out[MATCH_OUTSTANDING];
	size_t		 nout;
	int		 fresh;		/* no new answered since spawned */
	uint64_t	 rx_ns;		/* when the latest read came */
	struct ptree	*tree;		/* its process tree (ptree.h), or NULL */
	int		 frozen;	/* the tree is frozen (clock=cpu) */
	int		 blocking;	/* its stdout's pipe blocks (mg_wait) */
};

/* A game's life cycle: changed only in mg_set (match-game.c). */
#define MG_STATES(X)							\
	/* the slot has no game */					\
	X(MG_IDLE, "idle")						\
	/* new sent, waiting for both answers */			\
	X(MG_STARTING, "starting")					\
	/* both answered: moves go back and forth */			\
	X(MG_PLAYING, "playing")
enum mg_state { MG_STATES(ENUM_X_ID) };

/* One finished or unplayed game of the schedule. */
struct match_result {
	int		 done;
	char		*start;		/* the start position; owned */
	int		 winner;	/* 1, 2 (seat), 0 a draw */
	const char	*reason;	/* static text */
	char		*detail;	/* NULL or owned */
	unsigned long	 plies;
	uint64_t	 ms;		/* wall time of the game */
	uint64_t	 think_us[2];	/* by seat: its moves' clock time */
	int		 timed;		/* think_us known (not an old file) */
};

/* The counts of a pairing, from its first engine's side. */
struct match_tally {
	struct matchstat_wdl	 wdl;
	struct matchstat_wdl	 seat[2];	/* as first, as second */
	struct matchstat_penta	 penta;
	size_t			 unpaired;
};

/* A slot: room for one game at a time, with its two processes. */
struct mslot {
	struct match	*m;
	enum mg_state	 state;
	struct mproc	 proc[2];	/* any two engines, by slot */
	size_t		 gi;		/* the game's index */
	struct game	 game;
	int		 seat_proc[2];	/* seat - 1 -> proc index */
	int		 to_move;
	uint64_t	 clock_us[2];
	uint64_t	 turn_start;	/* ns: the clock of to_move runs */
	int		 has_cpu0;	/* cpu0 was read */
	uint64_t	 cpu0;		/* ns: the mover's tree's CPU then */
	uint64_t	 wall_deadline;	/* ns: the turn's wall bound */
	uint64_t	 deadline;	/* ns: the slot's next decision */
	uint64_t	 started;	/* ns */
	unsigned long	 serial;
	unsigned long	 plies;
	int		 newok[2];	/* seat answered new */
	int64_t		 wall_start;	/* ms since the epoch */
	struct store_rmove *mv;		/* the record's moves */
	size_t		 nmv, capmv;
	struct store_rrefused ref;	/* the refused move that lost */
	int		 has_ref;
	struct game_move answer;	/* the mover's, its numbers kept */
	/* Kept between plies, so that a ply allocates nothing: the lines
	 * read (mg_lines), a move's text and the position after it. */
	struct buf	 line, text, pos;
};

struct match_writer;

/* The whole run. */
struct match {
	/* Options. */
	struct match_engine *eng;
	size_t		 neng;
	char		*game_spec;
	struct game	 tmpl;		/* the game (a template with random) */
	int		 random_starts;
	struct game	 start;		/* pair start_pair's drawn start, or */
	size_t		 start_pair;	/* fam NULL (match_start) */
	uint64_t	 seed;
	int		 seed_given;
	size_t		 ngames;
	size_t		 conc;
	uint64_t	 base_ms, inc_ms;
	int		 cpu_clock;	/* --tc ... clock=cpu */
	int		 ponder;	/* --ponder: no freezing */
	uint64_t	 wall_factor;	/* the wall bound under clock=cpu: */
	uint64_t	 wall_margin_ms; /* factor x (left + grace) + margin */
	uint64_t	 grace_ms;
	uint64_t	 start_ms;	/* start-up deadline */
	long		 adjudicate;	/* plies, or -1 */
	int		 has_sprt;
	struct sprt	 sprt;
	const char	*records;
	const char	*out;
	int		 resume;
	int		 quiet;
	size_t		 report_every;	/* pairs between progress lines */
	struct game_limits lim;
	struct sandbox_opts sandbox;	/* --sandbox-limits */

	/* The run. */
	struct match_result *res;	/* ngames */
	size_t		 next;		/* next game index to consider */
	size_t		 ndone;
	size_t		 npairings;
	struct match_tally *tally;	/* npairings */
	struct buf	 gjson;		/* the games played, as JSON objects */
	struct match_writer *writer;	/* match-write.c */
	struct mslot	*slots;
	int		 stop;		/* SPRT verdict: start no more */
	enum sprt_verdict verdict;
	size_t		 verdict_pairs;
	size_t		 unreported;	/* progress points not printed */
	uint64_t	 t0;		/* ns */
	uint64_t	 alarm_at;	/* ns: mg_wait's timer rings, or 0 */
};

/* match-sched.c: the engines of a pairing and a game, a game's start. */
void	 match_pairing(const struct match *, size_t, size_t *, size_t *);
void	 match_seats(const struct match *, size_t, size_t *, size_t *);
int	 match_start(struct match *, size_t, struct game *,
	    struct game_error *);

/* match-game.c */
int	 match_run(struct match *);

/* match.c */
int	 match_main(int, char **);

/* match-write.c */
int	 match_writer_start(struct match *);
void	 match_writer_put(struct match *, const char *, struct buf *, int);
int	 match_writer_flush(struct match *);
void	 match_writer_stop(struct match *);

/* match-proc.c */
int	 mp_spawn(struct match *, struct mproc *, size_t);
void	 mp_kill(struct mproc *);
void	 mp_stop_all(struct match *);
struct buf *mp_cmd(struct mproc *, int, unsigned long);
void	 mp_send(struct mproc *, int, unsigned long, const char *, ...)
	    __attribute__((format(printf, 4, 5)));
int	 mp_flush(struct mproc *);
const char *mp_death(struct mproc *, char *, size_t, const char **);
int	 mp_measured(const struct match *, struct mproc *);
int	 mp_cpu_ns(struct mproc *, uint64_t *);
int	 mp_peak_bytes(struct mproc *, uint64_t *);
void	 mp_freeze(struct mproc *, int);

/* match-out.c */
void	 match_after_game(struct match *, size_t);
int	 match_write_out(const struct match *, int);
int	 match_load(struct match *);
int	 match_read_file(const char *, struct buf *, char *, size_t);
void	 match_record(const struct match *, struct mslot *);
void	 match_record_clear(struct mslot *);

/* match-report.c: the progress lines, the final table, the LLR. */
double	 match_llr(const struct match *);
void	 match_progress(struct match *, int);
void	 match_table(const struct match *, int);

#endif /* MATCH_H */
