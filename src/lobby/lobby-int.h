/*
 * lobby-int.h: what the lobby's files share: its limits, its structures
 * and the functions one file of src/lobby/ calls in another.  Nothing
 * outside the lobby and the node module (src/node/) includes it.  The
 * files call each other downward only, without a cycle (tests/layers.py
 * checks it); what a game's end tells a tournament goes up through a
 * hook.  Node mode (src/node/) is reached only through struct
 * lobby_node_ops.
 */
#ifndef LOBBY_INT_H
#define LOBBY_INT_H

#include <pthread.h>
#include <stdint.h>

#include "lib/budget.h"
#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/util.h"
#include "solver/game.h"
#include "league/league.h"
#include "lobby/lobby.h"
#include "proto/proto-addr.h"
#include "stats/sprt.h"
#include "stats/swiss.h"
#include "store/store.h"


#define LOBBY_TOKEN_LEN	24	/* hex characters of a resume token */
#define LOBBY_MAX_OUT	64	/* unanswered server commands kept per client */
#define LOBBY_MAX_WATCH	16	/* games one client may watch */
#define LOBBY_MAX_CHALL	16	/* open challenges per client */
#define LOBBY_RETRIES	3	/* illegal moves retried per turn */
#define LOBBY_CHALL_TTL	120000	/* ms an unanswered challenge stays open */
#define LOBBY_LAG_MS	20	/* a timer this late: the loop was stalled */
#define LOBBY_TX_MAX_MS	20	/* a send stamp moves a clock's start by */

/* Kinds of server commands. */
enum lcmd_kind {
	LCMD_NEW = 0,
	LCMD_PLAY,
	LCMD_GENMOVE,
	LCMD_GAMEOVER,
};

/* One server command a client has not answered yet. */
struct lcmd {
	STAILQ_ENTRY(lcmd) entry;
	uint64_t	 id;
	enum lcmd_kind	 kind;
	int64_t		 gid;		/* the game it concerns */
	uint64_t	 serial;	/* genmove: the turn it asked for */
};
STAILQ_HEAD(lcmdq, lcmd);

struct lgame;

/* A connection's part in the lobby. */
struct lobby_client {
	TAILQ_ENTRY(lobby_client) entry;
	struct lobby	*lb;
	void		*conn;
	uint64_t	 connid;
	char		 name[LEAGUE_NAME_MAX + 1];	/* "" before login */
	int		 admin;
	int		 ready;
	struct lseek	*seek;
	struct lgame	*game;		/* seated in it (and connected) */
	int		 seat;
	uint64_t	 next_id;	/* last server command id */
	uint64_t	 rx_ns;		/* when its input reached the socket */
	struct lcmdq	 out;		/* unanswered server commands */
	size_t		 nout;
	int64_t		*watch;		/* LOBBY_MAX_WATCH ids, from its first */
	size_t		 nwatch;
	int		 holding;	/* running one of its commands */
	struct buf	 held;		/* what was sent meanwhile */
	char		 peer[64];	/* ADDR:PORT, for admins */
	char		 anon[32];	/* "anon:START" of this daemon run */
	struct budget	*bud;		/* its client's budget (the session's),
					 * or own */
	struct budget	 own;
	struct nd_client *nd;		/* node mode's (src/node/), or NULL */
};
TAILQ_HEAD(lclients, lobby_client);

/* A seat of a live game. */
struct lplayer {
	char		 name[LEAGUE_NAME_MAX + 8];	/* or engine, conn:ID */
	int		 account;	/* name is an account */
	int		 engine;
	struct lobby_client *lc;	/* NULL: engine or away */
	uint64_t	 clock_us;	/* left, as of the last move */
	char		 token[LOBBY_TOKEN_LEN + 1];
	unsigned int	 illegal;	/* illegal moves this turn */
};

/* The life of a live game; lg_enter changes it. */
#define LG_STATES(X)							\
	/* a seat is to move */						\
	X(LG_PLAYING, "playing")					\
	/* ended: the log is writing the end */				\
	X(LG_ENDING, "ending")						\
	/* the log has the end (or failed): told, freed */		\
	X(LG_LOGGED, "logged")
enum lg_state { LG_STATES(ENUM_X_ID) };

/* A live game. */
struct lgame {
	TAILQ_ENTRY(lgame) entry;
	struct lobby	*lb;
	int64_t		 id;
	int		 logged;	/* id is in the store */
	struct game	 game;
	char		*start;		/* canonical start position */
	int		 to_move;	/* seat to move */
	unsigned long	 ply;
	uint64_t	 log_bytes;	/* its moves' and positions' (§12.1) */
	uint64_t	 base_ms, inc_ms;
	int		 rated;
	struct ltour	*tour;		/* or NULL */
	size_t		 slot;
	struct lplayer	 p[2];
	uint64_t	 turn_start;	/* when the mover's clock started (ns) */
	uint64_t	 tx_wait;	/* connid whose next tx stamp starts it */
	uint64_t	 prev_rx;	/* when the turn's cause arrived (ns) */
	int		 lag_checked;	/* the timer re-armed once for lag */
	uint64_t	 serial;	/* counts turns, to drop stale answers */
	struct clock_timer *timer;
	enum lg_state	 state;
	int		 log_ok;	/* the log has the end */
	int		 winner;	/* seat; 0: none (aborted) */
	const char	*reason;
	char		*detail;	/* more about the end, or NULL */
	struct lobby_client **watchers;
	size_t		 nwatchers;
	struct lg_ejob	*ejob;		/* an engine move on a worker, or NULL */
	int		 unseated;	/* lg_start_away: no turn yet */
	struct store_record *rec;	/* restored: the log's record then,
					 * for the web feed (lobby-xfeed.c) */
	struct nd_game	*nd;		/* node mode's (src/node/), or NULL */
};
TAILQ_HEAD(lgames, lgame);

/* An open seek. */
struct lseek {
	TAILQ_ENTRY(lseek) entry;
	uint64_t	 id;
	struct lobby_client *lc;
	char		*spec;		/* canonical game or template */
	int		 random;
	uint64_t	 base_ms, inc_ms;
	int		 rated;
	struct nd_seek	*nd;		/* node mode's (src/node/), or NULL */
};
TAILQ_HEAD(lseeks, lseek);

/* An open challenge. */
struct lchall {
	TAILQ_ENTRY(lchall) entry;
	uint64_t	 id;
	struct lobby_client *from;
	char		 to[LEAGUE_NAME_MAX + 1];
	char		*spec;
	int		 random;
	uint64_t	 base_ms, inc_ms;
	int		 rated;
	int		 seat;		/* the challenger's seat */
	uint64_t	 created;	/* lobby_clock_now, for expiry */
	struct game	 start;		/* made off the loop; fam NULL: none */
};
TAILQ_HEAD(lchalls, lchall);

/* The life of a tournament's game; lslot_enter changes it. */
#define LSLOT_STATES(X)							\
	/* to be played (again, after an abort) */			\
	X(LSLOT_PENDING, "pending")					\
	/* its game is live */						\
	X(LSLOT_PLAYING, "playing")					\
	/* played: winner holds the result */				\
	X(LSLOT_DONE, "done")						\
	/* Swiss: its round is not paired yet */			\
	X(LSLOT_UNPAIRED, "unpaired")					\
	/* never played: the SPRT stopped the match */			\
	X(LSLOT_STOPPED, "stopped")					\
	/* arena: a pairing its round did not use */			\
	X(LSLOT_VOID, "void")
enum lslot_state { LSLOT_STATES(ENUM_X_ID) };

/* An arena round's block: pairings for 64 players, the most there are. */
#define LOBBY_ARENA_PAIRINGS	32

/* A tournament's SPRT after its complete game pairs (lobby-tinfo.c). */
struct ltour_sprt {
	struct sprt	 test;
	struct matchstat_penta penta;	/* players[0]'s pairs */
	uint64_t	 pairs;
	double		 llr;
	int		 has_llr;	/* llr computed (pairs >= 1) */
	enum sprt_verdict verdict;
};

/* One scheduled game of a tournament. */
struct lslot {
	size_t		 a, b;		/* players[a] moves first */
	size_t		 pairing;	/* which pairing, for the start */
	unsigned int	 round;		/* game number within the pairing */
	size_t		 prev;		/* round > 0: the pairing's game before */
	enum lslot_state state;
	int		 winner;	/* done: 1 (a) or 2 (b) */
	int		 forfeit;	/* done: the loser was absent */
	uint64_t	 waiting;	/* lobby_clock_now when one player was
					 * there and the other not; 0: not */
};

/* A forfeit on its way to the log (lobby-tour.c). */
struct lforfeit {
	TAILQ_ENTRY(lforfeit) entry;
	struct lobby	*lb;
	struct ltour	*t;
	size_t		 slot;
	int		 winner;
	int		 ok;		/* the log has it (writer thread) */
};
TAILQ_HEAD(lforfeits, lforfeit);

/* A running tournament. */
struct ltour {
	TAILQ_ENTRY(ltour) entry;
	struct league_tournament def;
	struct lslot	*slots;
	size_t		 nslots;
	size_t		 npairings;	/* pairings per round (a block) */
	unsigned int	 round;		/* Swiss, arena: rounds paired so far */
	size_t		*byes;		/* Swiss: each paired round's bye */
	struct lobby	*lb;		/* for the timer */
	struct clock_timer *timer;	/* forfeit deadlines */
	uint64_t	 next_due;	/* the earliest, UINT64_MAX: none */
	struct lforfeits forfeits;	/* on their way to the log */
	struct ltour_sprt sprt;		/* its SPRT, if def.has_sprt */
	struct nd_tour	*nd;		/* node mode's (src/node/), or NULL */
};
TAILQ_HEAD(ltours, ltour);

/*
 * Node mode (several daemons on one PostgreSQL, doc/NODES.md): the one
 * door of the lobby to it.  The node module (src/node/) sets lb->nops
 * once, when the daemon becomes a node (or a drain starts); it is NULL
 * on a single node, where none of these runs.  The lobby calls them at
 * the points named; each does nothing that does not concern it.
 */
struct lobby_live;
struct xtour_pre;
struct lobby_node_ops {
	/* lobby_free, after the games (the workers are joined). */
	void	 (*free)(struct lobby *);
	/* A connection comes (its node state, lc->nd); it leaves: what it
	 * follows of other nodes goes, and lc->nd. */
	void	 (*attach)(struct lobby_client *);
	void	 (*detach)(struct lobby_client *);
	/* After a login's nlive event live lines: its games elsewhere, a
	 * drain's redirect, its tournaments' scheduler. */
	void	 (*login)(struct lobby_client *, size_t);
	/* lc's game is over and it is free again. */
	void	 (*game_over)(struct lobby_client *);
	/* A new game of lc, or ready: 0, or -1 with err (a drain). */
	int	 (*refuse)(const struct lobby_client *, struct buf *);
	/* lc's account plays elsewhere: 0, or -1 with err. */
	int	 (*elsewhere)(struct lobby_client *, struct buf *);
	/* The game account name plays elsewhere, or 0. */
	int64_t	 (*busy)(struct lobby *, const char *);
	/* resume of a game not live here: 0, or -1 with err. */
	int	 (*resume)(struct lobby_client *, int64_t, struct buf *);
	/* Seeks: whether lc pairs with sk here; sk opened; sk dropped;
	 * sk (with node state sk->nd) freed. */
	int	 (*may_pair)(struct lobby_client *, struct lseek *);
	void	 (*publish)(struct lobby *, struct lseek *);
	void	 (*seek_gone)(struct lobby *, struct lseek *);
	void	 (*seek_free)(struct lseek *);	/* of sk->nd, sk freed */
	/* watch of a game not live here: as lobby_watch, or 1 if no other
	 * node's is followed; unwatch (0: all); the watch was of a game
	 * here. */
	int	 (*watch)(struct lobby_client *, int64_t, struct lobby_live *,
		    struct buf *);
	void	 (*unwatch)(struct lobby_client *, int64_t);
	void	 (*watch_here)(struct lobby_client *);
	/* Tournaments: a read on the loop (by name, all: on 1 before, 0
	 * after; no database: lobby-xtread.c); tournament id read on a
	 * worker (a restore), applied on the loop, or freed; whether this
	 * node schedules now (then it notes which players play elsewhere);
	 * one of them; whether slot i of t may start its forfeit wait. */
	void	 (*tour_fresh)(struct lobby *, const char *);
	void	 (*tour_batch)(struct lobby *, int);
	struct xtour_pre *(*tour_read_id)(struct lobby *, int64_t);
	void	 (*tour_pre_apply)(struct xtour_pre *);
	void	 (*tour_pre_free)(struct xtour_pre *);
	int	 (*schedules)(struct lobby *);
	int	 (*tour_busy)(struct lobby *, const char *);
	int	 (*called)(struct lobby *, struct ltour *, size_t);
	/* Slot i of t: its forfeit wait is off; the live game of the log it
	 * waits for, refereed elsewhere, or 0; that game is refereed here
	 * now.  t (with node state t->nd) is freed. */
	void	 (*uncall)(struct ltour *, size_t);
	int64_t	 (*slot_elsewhere)(const struct ltour *, size_t);
	void	 (*slot_here)(struct ltour *, size_t);
	void	 (*tour_free)(struct ltour *);
	/* Game g was restored from the log here. */
	void	 (*restored)(struct lobby *, struct lgame *);
	/* Of a game with node state (g->nd): a move was made; whether it
	 * stopped here without a result (another node has it); g is freed. */
	void	 (*game_moved)(struct lgame *);
	int	 (*game_lost)(const struct lgame *);
	void	 (*game_free)(struct lgame *);
};

struct lobby {
	struct store	*store;
	struct league	*league;
	struct lobby_io	 io;
	struct clock_ops clock;		/* time and timers */
	struct lobby_conf conf;
	struct lclients	 clients;
	struct lgames	 games;
	struct lseeks	 seeks;
	size_t		 nseeks;
	struct lchalls	 challs;
	size_t		 nchalls;
	struct ltours	 tours;
	TAILQ_HEAD(lg_ejobs, lg_ejob) ejobs;	/* engine moves on workers */
	uint64_t	 next_seek;
	int64_t		 next_gid;	/* game ids without a store */
	gmp_randstate_t	 rs;
	/*
	 * What a logged game's end tells the layers above lobby-game.c
	 * (set by lobby_new): a tournament's game ended (winner 0: none),
	 * and a game was freed (its players may start another).
	 */
	void		 (*tour_game_over)(struct lobby *, struct ltour *,
			    size_t, int);
	void		 (*game_freed)(struct lobby *);
	void		 (*feed)(void *, const struct lobby_feed *); /* or NULL */
	void		*feed_arg;
	TAILQ_HEAD(lrestores, lrestore) restores; /* lobby-restore.c */
	/* lg_start: the account of a seat whose player is not here
	 * (lg_start_away), or NULL. */
	const char	*away;
	/* Node mode (src/node/): its operations and its state, or NULL. */
	const struct lobby_node_ops *nops;
	struct nd_lobby	*nd;
	struct lobby_tstore *tstore;	/* lobby-tstore.c, or NULL */
};

/* lobby-queue.c: a job on a worker (lb->io.work), or at once without one */
void	 lobby_work(struct lobby *, void (*)(void *), void (*)(void *),
	    void *);

/* lobby-queue.c (calls no other file of the lobby) */
uint64_t lobby_clock_now(const struct lobby *);
uint64_t lobby_clock_ns(const struct lobby *);
void	 lobby_copy(char *, const char *, size_t);
void	 lc_event(struct lobby_client *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 lc_send_line(struct lobby_client *, const struct buf *);
void	 lc_command(struct lobby_client *, enum lcmd_kind, int64_t, uint64_t,
	    const char *, ...) __attribute__((format(printf, 5, 6)));
int64_t	 lobby_gid(const char *);
int	 lobby_isnum(const char *);
void	 lc_unwatch(struct lobby_client *, int64_t);

/* lobby-game.c (calls lobby-queue.c, lobby-rating.c) */
struct lgame *lobby_game(struct lobby *, int64_t);
uint64_t lg_clock(const struct lgame *, int, uint64_t);
void	 lg_send_new(struct lgame *, int);
void	 lg_send_genmove(struct lgame *);
void	 lg_send_start(struct lgame *, int);
void	 lg_enter(struct lgame *, enum lg_state);
int	 lg_over(const struct lgame *);
void	 lg_turn(struct lgame *);
struct lgame *lg_start(struct lobby *, struct game *, struct lobby_client *,
	    struct lobby_client *, int, uint64_t, uint64_t, int, struct ltour *,
	    size_t);
struct lgame *lg_start_away(struct lobby *, const char *, struct game *,
	    struct lobby_client *, struct lobby_client *, uint64_t, uint64_t,
	    int);
int	 lg_seated(struct lgame *);
void	 lg_free(struct lgame *);
void	 lg_engine_drop(struct lobby *);
void	 lg_finish_detail(struct lgame *, int, const char *, const char *);
int64_t	 lobby_playing(struct lobby *, const char *);
void	 lg_tell_seat(struct lgame *, int, const char *);
void	 lg_answer_move(struct lgame *, int, const char *, const char *);
void	 lg_restored(struct lobby *, struct lgame *);
void	 lc_event_live(struct lobby_client *, struct lgame *, int);
int64_t	 lobby_busy(struct lobby *, const char *);

/* lobby-restore.c (calls lobby-game.c, lobby-tour.c, lobby-queue.c) */
void	 lrestore_drop(struct lobby *);

/* lobby-pair.c (calls lobby-queue.c) */
void	 lc_drop_seek(struct lobby_client *);
void	 lobby_drop_chall(struct lobby *, struct lchall *);
void	 lobby_chall_free(struct lchall *);

/* lobby-tour.c (calls lobby-tinfo.c, lobby-game.c, lobby-pair.c,
 * lobby-queue.c) */
void	 lobby_tour_game_over(struct lobby *, struct ltour *, size_t, int);
void	 lslot_enter(struct ltour *, size_t, enum lslot_state);
const char *lslot_state_name(enum lslot_state);
void	 lslot_unwait(struct lobby *, struct ltour *, size_t);
void	 ltour_enter(struct ltour *, enum league_tstatus);
void	 lobby_tour_slots(struct ltour *);
void	 lobby_schedule(struct lobby *);
int	 lobby_load_tours(struct lobby *, char *, size_t);
struct ltour *lobby_tour(struct lobby *, const char *);
void	 ltour_free(struct ltour *);
int	 lobby_tour_seat(struct lobby *, const char *, struct lobby_client **);
size_t	 ltour_player(const struct ltour *, const char *);
void	 ltour_rr_block(struct ltour *, size_t, size_t);
void	 ltour_withdrawn_stop(struct ltour *);
unsigned int ltour_slot_round(const struct ltour *, size_t);
void	 ltour_after_result(struct lobby *, struct ltour *);
void	 ltour_check_done(struct lobby *, struct ltour *);
int	 ltour_name_in(char (*)[LEAGUE_NAME_MAX + 1], size_t,
	    const char *);

/* lobby-tinfo.c (calls no other file of the lobby): reads of a tournament */
int	 ltour_pairs(const struct ltour *, const int *, struct swiss_pair *,
	    size_t *, size_t *, char *, size_t);
void	 ltour_active(const struct ltour *, unsigned int, int *);
void	 ltour_sprt_update(struct ltour *);
int	 lslot_over(const struct lslot *);
int	 ltour_pair_ready(const struct ltour *, size_t);

/* lobby-tstore.c (calls lobby-queue.c): a tournament's writes, in order,
 * on a worker */
void	 ltour_store_status(struct ltour *, enum league_tstatus);
void	 ltour_store_verdict(struct ltour *, int);
void	 ltour_store_texts(struct ltour *, const char *, const char *);
void	 ltour_store_roster(struct ltour *);
struct league_tournament *ltour_roster_copy(const struct ltour *, size_t);
void	 lobby_tstore_start(struct lobby *);
void	 lobby_tstore_free(struct lobby *);

/* lobby-feed.c (calls no other file of the lobby): the web's hook */
void	 lobby_feed_move(struct lgame *, int, const char *, const char *,
	    int, uint64_t);
void	 lobby_feed_end(struct lgame *);

/* lobby-feed.c: a move to the web's hook, whatever its source */
void	 lobby_feed_send_move(struct lobby *, int64_t, unsigned long, int,
	    const char *, const char *, const char *, uint64_t,
	    const uint64_t *);


/* lobby-tour.c: a tournament read from the log again (a node's) */
void	 lobby_tour_replay_games(struct ltour *, const struct league_tgame *,
	    size_t);

/* lobby-ops.c: a live game as games live, watch and lobby-web.c see it */
void	 lobby_live_fill(const struct lgame *, struct lobby_live *, uint64_t);

/* lobby-rating.c (calls lobby-queue.c) */
void	 lobby_rating_rows(struct lobby *, struct lobby_rating_row **,
	    size_t *);
double	 lobby_rating_live(struct lobby *, const char *);

/* lobby-tops.c: a tournament by name, or NULL with the refusal in err */
struct ltour *lobby_tour_named(struct lobby *, const char *, struct buf *);
struct ltour *lobby_tour_live(struct lobby *, const char *, struct buf *);

#endif /* LOBBY_INT_H */
