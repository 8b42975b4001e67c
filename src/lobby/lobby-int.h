/*
 * lobby-int.h: what the lobby's files share (lobby.c, lobby-queue.c,
 * lobby-game.c, lobby-pair.c, lobby-tour.c, lobby-rating.c, lobby-ops.c):
 * its limits, its structures and the functions one file calls in another.
 * Nothing outside the lobby includes it.
 *
 * The files call each other downward only, without a cycle (tests/
 * layers.py): lobby-ops.c on top, then lobby.c (the lobby's life, its
 * clients, the answers), then lobby-tops.c (a tournament's operations),
 * then lobby-tour.c, then lobby-tinfo.c, lobby-game.c and
 * lobby-pair.c, then lobby-rating.c, and lobby-queue.c at the bottom.
 * lobby-node.c (a node's drain) calls only lobby-queue.c.
 * lobby-restore.c (a live game restored from the log) calls lobby-game.c,
 * lobby-tour.c and lobby-queue.c; lobby.c calls it (lrestore_drop).
 * What a game's end tells a tournament goes up through a hook.
 */
#ifndef LOBBY_INT_H
#define LOBBY_INT_H

#include <pthread.h>
#include <stdint.h>

#include "lib/buf.h"
#include "lib/clock.h"
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
struct store_where;
struct xwatch_pre;
struct lwhere;

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
	uint64_t	 tx_ns;		/* when its output last left (mono ns) */
	struct lcmdq	 out;		/* unanswered server commands */
	size_t		 nout;
	int64_t		*watch;		/* LOBBY_MAX_WATCH ids, from its first */
	size_t		 nwatch;
	int		 holding;	/* running one of its commands */
	struct buf	 held;		/* what was sent meanwhile */
	char		 peer[64];	/* ADDR:PORT, for admins */
	int64_t		 xtold;		/* the scheduler node it was sent to
					 * (lobby-xtour.c), 0: none */
	char		 anon[32];	/* "anon:START" of this daemon run */
	struct store_where *where;	/* its login's games elsewhere */
	size_t		 nwhere;	/* (lobby-where.c) */
	struct xwatch_pre *xpre;	/* watch's game read on a worker
					 * (lobby-xwatch.c) */
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
enum lg_state {
	LG_PLAYING = 0,		/* a seat is to move */
	LG_ENDING,		/* ended: the log is writing the end */
	LG_LOGGED,		/* the log has the end (or failed): told, freed */
};

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
	int		 lease_lost;	/* this node lost its lease (lobby-lease.c) */
	int		 log_ok;	/* the log has the end */
	int		 winner;	/* seat; 0: none (aborted) */
	const char	*reason;
	char		*detail;	/* more about the end, or NULL */
	struct lobby_client **watchers;
	size_t		 nwatchers;
	struct lg_ejob	*ejob;		/* an engine move on a worker, or NULL */
	int		 xwait;		/* paired across nodes: no turn yet */
	struct store_record *xrec;	/* restored: the log's record then,
					 * for the web feed (lobby-xfeed.c) */
	int		 xwatched;	/* followed by another node: each move
					   written at once (lobby-xwatch.c) */
};
TAILQ_HEAD(lgames, lgame);

/*
 * An open seek's life cycle across nodes (lobby-xnode.c, xseek_set): its
 * row in table seeks, and the one job of it on the node's queue.  A seek
 * freed (paired, withdrawn, gone) has none.
 */
enum lseek_x {
	LSEEK_LOCAL,		/* no row: on this node only (single node; a
				 * node waiting for room or the database) */
	LSEEK_PUBLISHING,	/* its INSERT queued or running (xrow -1) */
	LSEEK_PUBLISHED,	/* row xrow, no job */
	LSEEK_CLAIMING,		/* its claim queued or running */
	LSEEK_PAIRED,		/* a game started (here or elsewhere) */
	LSEEK_WITHDRAWN		/* dropped: its row is deleted on a worker */
};

/* An open seek. */
struct lseek {
	TAILQ_ENTRY(lseek) entry;
	uint64_t	 id;
	struct lobby_client *lc;
	char		*spec;		/* canonical game or template */
	int		 random;
	uint64_t	 base_ms, inc_ms;
	int		 rated;
	int64_t		 xrow;		/* published (lobby-xnode.c), -1 while
					 * publishing, or 0 */
	enum lseek_x	 xstate;	/* lobby-xnode.c's xseek_set only */
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
enum lslot_state {
	LSLOT_PENDING = 0,	/* to be played (again, after an abort) */
	LSLOT_PLAYING,		/* its game is live */
	LSLOT_DONE,		/* played: winner holds the result */
	LSLOT_UNPAIRED,		/* Swiss: its round is not paired yet */
	LSLOT_STOPPED,		/* never played: the SPRT stopped the match */
	LSLOT_VOID,		/* arena: a pairing its round did not use */
};

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
	uint64_t	 xseq;		/* node: the announcement its forfeit
					 * wait needs (lobby-xtour.c); 0: none */
	int64_t		 remote;	/* playing: a live game of the log not
					 * refereed here (lobby-xtour.c) */
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
	uint64_t	 xfresh;	/* read from the log then (lobby-xtour.c) */
};
TAILQ_HEAD(ltours, ltour);

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
	/* The node this lobby is (lobby_set_node): 0 for a single node. */
	int64_t		 node_id;
	char		 node_addr[256];
	int		 leader;	/* holds the scheduler's lock */
	struct llease	*lease;		/* lost games (lobby-lease.c) */
	TAILQ_HEAD(lrestores, lrestore) restores; /* lobby-restore.c */
	struct {			/* node drain (lobby-node.c) */
		char	 to[PROTO_ADDR_MAX + 1];	/* "": not draining */
		uint64_t redirected;	/* event redirect sent since */
	} drain;
	/* Matchmaking across nodes (lobby-xnode.c), or NULL. */
	struct lxnode	*xnode;
	const char	*xaway;		/* lg_start: the away seat's account */
	/* A published seek is dropped (lobby-xnode.c sets it): its row is
	 * deleted on a worker (if another node claimed it a moment before,
	 * the claim wins); returns 0. */
	int		 (*seek_gone)(struct lobby *, struct lseek *);
	/* Spectating across nodes (lobby-xwatch.c), or NULL. */
	struct lxwatch	*xwatch;
	/* Tournaments across nodes (lobby-xtour.c), or NULL; the scheduler's
	 * announcements published, for the forfeit waits (lobby-tour.c). */
	struct lxtour	*xtour;
	uint64_t	 xtour_seq;
	int		 xtour_stale;	/* a new scheduler's read failed: it
					 * does not schedule yet */
	/* The players of tournament games live in the log but refereed
	 * elsewhere (remote slots): busy (lobby-tour.c, each schedule). */
	char		(*xbusy)[LEAGUE_NAME_MAX + 1];
	size_t		 nxbusy;
	struct sqldb	*xdb;		/* lobby-xnode.c's, for leases */
	struct lwhere	*where;		/* games waiting for a takeover
					 * (lobby-where.c), or NULL */
};

/* lobby-work.c (calls no other file of the lobby): a job on a worker
 * (lb->io.work), or at once without one */
void	 lobby_work(struct lobby *, void (*)(void *), void (*)(void *),
	    void *);

/* lobby-queue.c (calls no other file of the lobby) */
uint64_t lobby_clock_now(const struct lobby *);
uint64_t lobby_clock_ns(const struct lobby *);
void	 lobby_copy(char *, const char *, size_t);
void	 lc_event(struct lobby_client *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
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
void	 lg_free(struct lgame *);
void	 lg_engine_drop(struct lobby *);
void	 lg_finish(struct lgame *, int, const char *);
void	 lg_finish_detail(struct lgame *, int, const char *, const char *);
int64_t	 lobby_playing(struct lobby *, const char *);
void	 lg_tell_seat(struct lgame *, int, const char *);
void	 lg_answer_move(struct lgame *, int, const char *, const char *);
void	 lg_restored(struct lobby *, struct lgame *);

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
void	 ltour_enter(struct ltour *, enum league_tstatus);
void	 lobby_tour_result(struct lobby *, struct ltour *, size_t, int);
void	 lobby_tour_slots(struct ltour *);
void	 lobby_schedule(struct lobby *);
int	 lobby_load_tours(struct lobby *, char *, size_t);
struct ltour *lobby_tour(struct lobby *, const char *);
void	 ltour_free(struct ltour *);
int	 lobby_tour_seat(struct lobby *, const char *, struct lobby_client **);
size_t	 ltour_player(const struct ltour *, const char *);
void	 ltour_rr_block(struct ltour *, size_t, size_t);
void	 ltour_withdrawn_stop(struct ltour *);
void	 ltour_after_result(struct lobby *, struct ltour *);
void	 ltour_check_done(struct lobby *, struct ltour *);
int	 ltour_name_in(char (*)[LEAGUE_NAME_MAX + 1], size_t,
	    const char *);

/* lobby-tops.c (calls lobby-tour.c, lobby-tinfo.c): its operations */
int	 lobby_tour_pause(struct lobby *, struct ltour *, int, struct buf *);

/* lobby-tinfo.c (calls no other file of the lobby): reads of a tournament */
int	 ltour_pairs(const struct ltour *, const int *, struct swiss_pair *,
	    size_t *, size_t *, char *, size_t);
void	 ltour_active(const struct ltour *, unsigned int, int *);
void	 ltour_sprt_update(struct ltour *);
int	 lslot_over(const struct lslot *);
int	 ltour_pair_ready(const struct ltour *, size_t);

/* lobby-feed.c (calls no other file of the lobby): the web's hook */
void	 lobby_feed_move(struct lgame *, int, const char *, const char *,
	    int, uint64_t);
void	 lobby_feed_end(struct lgame *);

/* lobby-lease.c (calls lobby-game.c, lobby-tour.c, lobby-feed.c,
 * lobby-queue.c) */
void	 lobby_lease_free(struct lobby *);

/* lobby-node.c (calls lobby-queue.c): a node's drain */
int	 lnode_draining(const struct lobby *);
void	 lnode_game_over(struct lobby_client *);
void	 lnode_login(struct lobby_client *, size_t);

/* lobby-where.c: an account's games on other nodes, event live (calls
 * lobby-game.c, lobby-queue.c; lobby.c, lobby-ops.c and lobby-restore.c
 * call it). */
void	 lc_event_live(struct lobby_client *, struct lgame *, int);
size_t	 lwhere_login(struct lobby_client *);
void	 lwhere_restored(struct lobby *, struct lgame *);
int	 lwhere_busy(struct lobby_client *, struct buf *);
int64_t	 lobby_busy(struct lobby *, const char *);
int	 lwhere_resume(struct lobby_client *, int64_t, struct buf *);
void	 lwhere_free(struct lobby *);

/* lobby-xnode.c (calls lobby-game.c, lobby-pair.c, lobby-queue.c):
 * matchmaking across nodes */
void	 lobby_xnode_publish(struct lobby *, struct lseek *);
int	 lobby_xnode_may_pair(struct lobby_client *, struct lseek *);
int	 lobby_xnode_seated(struct lgame *);

/* lobby-xwatch.c (calls lobby-queue.c): spectating across nodes */
void	 lobby_xwatch_init(struct lobby *, struct sqldb *, struct sqldb *);
void	 lobby_xwatch_free(struct lobby *);
void	 lobby_xwatch_note(struct lobby *, const char *);
void	 lobby_xwatch_catch_up(struct lobby *);
int	 lobby_xwatch(struct lobby_client *, int64_t, struct lobby_live *,
	    struct buf *);
void	 lobby_xunwatch(struct lobby_client *, int64_t);
void	 lobby_xwatch_pre_drop(struct lobby_client *);
void	 lobby_xwatch_wanted(struct lobby *, int64_t);
/* lobby-feed.c: a move to the web's hook, whatever its source */
void	 lobby_feed_send_move(struct lobby *, int64_t, unsigned long, int,
	    const char *, const char *, const char *, uint64_t,
	    const uint64_t *);
struct store_rmove;
void	 lobby_feed_clock(const int *, uint64_t, uint64_t *,
	    const struct store_rmove *);

/* lobby-xtour.c (calls lobby-tour.c, lobby-game.c, lobby-queue.c):
 * tournaments across nodes */
void	 lobby_xtour_free(struct lobby *);
void	 lobby_xtour_leader(struct lobby *, int);
int	 lobby_xtour_note(struct lobby *, const char *);
void	 lobby_xtour_fresh(struct lobby *, const char *);
void	 lobby_xtour_fresh_id(struct lobby *, int64_t);
void	 lobby_xtour_batch(struct lobby *, int);
void	 lobby_xtour_login(struct lobby_client *);
int	 lobby_tour_replay(struct lobby *, struct ltour *);
void	 lobby_tour_replay_games(struct ltour *, const struct league_tgame *,
	    size_t);

/* lobby-ops.c: a live game as games live, watch and lobby-web.c see it */
void	 lobby_live_fill(const struct lgame *, struct lobby_live *, uint64_t);

/* lobby-rating.c (calls lobby-queue.c) */
void	 lobby_rating_rows(struct lobby *, struct lobby_rating_row **,
	    size_t *);

/* lobby-tops.c: a tournament by name, or NULL with the refusal in err */
struct ltour *lobby_tour_named(struct lobby *, const char *, struct buf *);
struct ltour *lobby_tour_live(struct lobby *, const char *, struct buf *);

#endif /* LOBBY_INT_H */
