/*
 * league.h: accounts, tournaments and play statistics in grundyd's
 * database (the game log's, store.h: an SQLite file, or a PostgreSQL
 * database that several nodes share).
 *
 * The league has its own connection (sqldb.h), guarded by one mutex, so
 * every function is thread-safe; all of them may block (password hashing
 * takes tens of milliseconds, SQL may wait for a lock or the network), so
 * call them off the event loop except where said.  The schema is
 * db/002-league.sql and later migrations (db/pg/ on PostgreSQL); the
 * store must have migrated the database first.
 *
 * Ratings are the game log's (store.h: the writer rates each game and
 * checkpoints the ratings); league_rated_games lists the rated games in
 * the order the log rated them (the rating history replays them).
 */
#ifndef LEAGUE_H
#define LEAGUE_H

#include <stddef.h>
#include <stdint.h>

#include "stats/tiebreak.h"
#include "lib/util.h"

struct league;

#define LEAGUE_NAME_MAX	32		/* bytes of an account name */
#define LEAGUE_PASS_MIN	8		/* bytes of a password */
#define LEAGUE_PASS_MAX	128
#define LEAGUE_ADDR_MAX	64		/* bytes of a source address */

/* Settings for failed-login limits. */
struct league_limits {
	unsigned int	 failures;	/* failures in a row before a lockout */
	unsigned int	 lockout_s;	/* seconds a name stays locked */
	unsigned int	 addr_failures;	/* per address in lockout_s; 0: off */
};

/* Tournament formats, and their names as stored. */
#define LEAGUE_FORMATS(X)						\
	X(LEAGUE_ROUNDROBIN, "roundrobin")				\
	X(LEAGUE_GAUNTLET, "gauntlet")					\
	X(LEAGUE_SWISS, "swiss")					\
	X(LEAGUE_ARENA, "arena")
enum league_format { LEAGUE_FORMATS(ENUM_X_ID) };

/* Tournament states, and their names as stored. */
#define LEAGUE_TSTATUSES(X)						\
	X(LEAGUE_T_RUNNING, "running")					\
	X(LEAGUE_T_PAUSED, "paused")					\
	X(LEAGUE_T_FINISHED, "finished")				\
	X(LEAGUE_T_CANCELLED, "cancelled")
enum league_tstatus { LEAGUE_TSTATUSES(ENUM_X_ID) };

/* A tournament definition; players are owned (league_tournament_free). */
struct league_tournament {
	int64_t		 id;		/* set by league_tournament_create */
	char		 name[LEAGUE_NAME_MAX + 1];
	enum league_format format;
	enum league_tstatus status;
	char		*game;		/* game spec text (may be a template) */
	int		 random;	/* game is a random=1 template */
	uint64_t	 base_ms;	/* time control */
	uint64_t	 inc_ms;
	unsigned int	 games_per_pair;
	uint64_t	 seed;
	char		**players;	/* account names, in the given order */
	size_t		 nplayers;
	unsigned int	 rounds;	/* Swiss, arena: rounds (arena 0: none) */
	unsigned int	 forfeit_s;	/* forfeit deadline, 0: none */
	int		 has_sprt;	/* an SPRT stops it: */
	double		 sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta;
	int		 sprt_verdict;	/* 0: none yet, 1: H0, 2: H1 */
	size_t		 nstart;	/* players at the start; then added */
	unsigned int	*wround;	/* per player: 0, or withdrawn when
					 * R Swiss rounds were paired: R + 1 */
	struct tb_list	 tb;		/* its tie-breaks (n 0: stored before
					 * migration 013: the default) */
};

/* One stored game of a tournament, for resuming it. */
struct league_tgame {
	int64_t		 game_id;
	unsigned int	 slot;		/* index into the tournament's schedule */
	int		 finished;	/* status 'finished' (else abandoned/live) */
	int		 result;	/* 1: first won, 2: second won, 0: none */
	int		 forfeit;	/* won by forfeit (reason forfeit) */
	char		 player1[LEAGUE_NAME_MAX + 1];	/* account names */
	char		 player2[LEAGUE_NAME_MAX + 1];
};

/* One finished rated game, for the rating replay. */
struct league_rgame {
	int64_t		 game_id;
	char		 player1[LEAGUE_NAME_MAX + 1];
	char		 player2[LEAGUE_NAME_MAX + 1];
	int		 result;	/* 1: first won, 2: second won */
};

struct league *league_open(const char *, const struct league_limits *,
	    char *, size_t);
void	 league_close(struct league *);
void	 league_set_limits(struct league *, const struct league_limits *);

/* Returns 1 if the name is a valid account name (no I/O; any thread). */
int	 league_name_ok(const char *);
int	 league_player_ok(const char *);
/* Returns NULL if the raw password is acceptable, else why not (no I/O). */
const char *league_pass_bad(const char *);

int	 league_register(struct league *, const char *, const char *,
	    char *, size_t);
int	 league_login(struct league *, const char *, const char *, uint64_t,
	    char *, size_t);
int	 league_login_from(struct league *, const char *, const char *,
	    const char *, uint64_t, char *, size_t);
int	 league_exists(struct league *, const char *);
/* Roles (league-role.c): granted by the operator, read at login. */
int	 league_role(struct league *, const char *);
int	 league_grant(struct league *, const char *, const char *, int,
	    char *, size_t);

/* Account life cycle. */
int	 league_passwd(struct league *, const char *, const char *,
	    const char *, const char *, uint64_t, char *, size_t);
int	 league_reset(struct league *, const char *, const char *, char *,
	    size_t);
int	 league_disable(struct league *, const char *, const char *, char *,
	    size_t);
int64_t	 league_start(struct league *);

int	 league_tournament_create(struct league *, struct league_tournament *,
	    char *, size_t);
const char *league_tstatus_name(enum league_tstatus);
const char *league_format_name(enum league_format);
int	 league_tournament_status(struct league *, int64_t,
	    enum league_tstatus);
int	 league_tournament_verdict(struct league *, int64_t, int);
int	 league_tournament_unplayed(struct league *, int64_t, const char *,
	    const char *);
int	 league_tournament_roster(struct league *,
	    const struct league_tournament *, char *, size_t);
int	 league_tournaments(struct league *, int, struct league_tournament **,
	    size_t *);
void	 league_tournament_free(struct league_tournament *);
void	 league_tournaments_free(struct league_tournament *, size_t);
int	 league_tournament_games(struct league *, int64_t,
	    struct league_tgame **, size_t *);

/*
 * An account's play statistics over its finished games.  first_throw[i]
 * counts the games in which the first win it threw was by its own move
 * number in bucket i (league_throw_bucket gives the bucket's bounds).
 */
#define LEAGUE_THROW_BUCKETS	8
struct league_player {
	char		 name[LEAGUE_NAME_MAX + 1];
	int64_t		 games;		/* finished games */
	int64_t		 wins;
	int64_t		 losses;
	int64_t		 moves;		/* its moves in them */
	int64_t		 kept;		/* of those, kept-win (results.h) */
	int64_t		 threw;		/* of those, threw-win */
	int64_t		 threw_win_games; /* games in which it threw a win */
	int64_t		 first_throw[LEAGUE_THROW_BUCKETS];
};

int	 league_rated_games(struct league *, struct league_rgame **, size_t *);
/* A player's rating and RD after one of its rated games. */
struct league_rpoint {
	int64_t		 game_id;
	double		 r, rd;		/* rounded as `player` shows them */
};
int	 league_rating_history(struct league *, const char *, size_t,
	    struct league_rpoint **, size_t *);
int	 league_player(struct league *, const char *, struct league_player *,
	    char *, size_t);
void	 league_throw_bucket(size_t, unsigned int *, unsigned int *);

#endif /* LEAGUE_H */
