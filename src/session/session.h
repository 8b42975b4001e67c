/*
 * session.h: one client's protocol session: its state machine, its game and
 * history, and the execution of one request line into one reply.  No I/O:
 * the server feeds lines in and writes replies out.
 */
#ifndef SESSION_H
#define SESSION_H

#include <stdint.h>

#include "solver/engine.h"
#include "solver/referee.h"
#include "proto/proto.h"
#include "session/session-conf.h"
#include "lib/budget.h"
#include "lib/util.h"

struct store;
struct session_store;
struct lobby;
struct lobby_client;
struct league;
struct addrrate;
struct lobby_prep;
struct cmd_work;

/* Session states and their names; session_enter() logs every transition. */
#define SESSION_STATES(X)						\
	X(SESSION_IDLE, "idle")		/* no game yet */		\
	X(SESSION_GAME, "game")		/* a game, free play, analysis */ \
	X(SESSION_MATCH, "match")	/* refereed, against the engine */ \
	X(SESSION_CLOSING, "closing")	/* quit: flush, then close */
enum session_state { SESSION_STATES(ENUM_X_ID) };

struct session {
	uint64_t	 id;		/* connection id, for logs */
	enum session_state state;
	const struct session_conf *conf;
	const struct cmd_entry *const *table;	/* its commands, NULL-ended */
	struct game	 game;		/* valid unless SESSION_IDLE */
	int		 to_move;	/* 1 or 2: the player to move */
	unsigned long	 moveno;	/* moves played since `new` */
	size_t		 pos_bytes;	/* memory estimate of one position */
	struct game_hist hist;		/* earlier positions, tagged to_move */
	int		 client;	/* match: the client's player, 1 or 2 */
	int		 first;		/* match: the player who moved first */
	int		 seeded;	/* engine picks at random from rs */
	gmp_randstate_t	 rs;
	struct buf	 body;		/* reply body scratch, reused */
	struct game_move mv;		/* play's move, reused: its numbers */
					/* keep their limbs (no GMP a ply) */
	struct game_move emv;		/* the engine's, reused */
	struct game_moveset ems;	/* the engine's scratch set, reused */
	/*
	 * The game log (NULL: logging off), its entry points (set with it:
	 * session-store.h), and this match's place in it.
	 */
	struct store	*store;
	const struct session_store *store_ops;
	int64_t		 game_id;	/* match: its id in the log, or 0 */
	unsigned long	 ply;		/* match: moves logged */
	uint64_t	 last_ms;	/* match: when the last move was made */
	/*
	 * The end of the match a command left with CMD_WAIT: the server
	 * logs it (session_end_log) and sends the reply once it is on disk.
	 */
	int		 end_winner;	/* 1: the first player, 2: second,
					 * 0: none (the solver could not judge) */
	const char	*end_reason;
	char		 end_detail[REFEREE_DETAIL_MAX];	/* or "" */
	uint64_t	 log_bytes;	/* match: its moves' and positions' */
	struct budget	 bud;		/* its client's budget (lib/budget.h):
					 * the server sets its class */
	/*
	 * Networked play (PROTOCOL.md §13), set by the server: the lobby
	 * (loop only), the accounts (any thread), this connection's account.
	 * login runs off the loop and sets login_changed; the server then
	 * tells the lobby.  on_loop is set while a command runs on the loop.
	 */
	struct lobby	*lobby;
	struct lobby_client *lc;
	struct league	*league;
	struct lobby_prep *prep;	/* seek/challenge work done off the loop */
	struct cmd_work	*work;		/* other work done off the loop
					 * (cmd/cmd-prep.h) */
	struct addrrate	*regrate;	/* account creation per address */
	char		 account[33];
	int		 admin;
	/* Set by the server: the client's address, and "anon:START". */
	char		 addr[64];
	const char	*anon_prefix;
	/* The connection's round trip in microseconds, or -1 (any thread). */
	long		 (*rtt)(void *);
	void		*rtt_arg;
	int		 login_changed;
	int		 login_live;	/* send "event live" after the reply */
	unsigned int	 login_failed;
	int		 on_loop;
	/*
	 * The request line as received, kept by session_execute while a
	 * command runs when preprocessing changed more than blanks (a '#'
	 * or a control character), else NULL: see session_raw_arg.
	 */
	char		*raw;
	/* Filled by session_execute for the server's log line. */
	const char	*last_cmd;
	int		 last_ok;
	/*
	 * A reply streamed a part at a time (session_stream): more appends
	 * the next part of its body (1: more to come, 0: the end, -1: the
	 * reply is cut), more_free frees more_arg.
	 */
	int		 (*more)(struct session *, struct buf *);
	void		 (*more_free)(struct session *);
	void		*more_arg;
	struct proto_rpart rpart;
};

struct cmd_entry;

void	 session_init(struct session *, uint64_t, const struct session_conf *,
	    const struct cmd_entry *const *);
void	 session_free(struct session *);
/* Return values of session_execute. */
#define SESSION_NEXT	0	/* the reply is in out: go on */
#define SESSION_CLOSE	1	/* the reply is in out, then close */
#define SESSION_WAIT	2	/* hold the reply: session_end_log first */
#define SESSION_MORE	3	/* out is a part: session_more once it left */

int	 session_execute(struct session *, char *, size_t, struct buf *);
void	 session_stream(struct session *, int (*)(struct session *,
	    struct buf *), void (*)(struct session *), void *);
int	 session_more(struct session *, struct buf *);
void	 session_end_log(struct session *, void (*)(void *, int), void *);
void	 session_enter(struct session *, enum session_state);
const char *session_strstate(enum session_state);
int	 session_heavy(const struct session *, const char *, size_t,
	    const struct cmd_entry **);
void	 session_abandon(struct session *, const char *);
const char *session_raw_arg(const struct session *, int, const char *,
	    char *, size_t);

/* One command table entry; see the comment at the top of cmd.c. */
struct cmd_entry {
	const char	*name;
	int		 min_args;
	int		 max_args;	/* -1: unbounded */
	int		 flags;
#define CMD_F_GAME	0x1		/* needs a game (not SESSION_IDLE) */
#define CMD_F_NOMATCH	0x2		/* refused during a match */
#define CMD_F_HEAVY	0x4		/* may be slow: run off the loop */
#define CMD_F_DB	0x8		/* reads the game log: always off the loop */
#define CMD_F_LOOP	0x10		/* uses the lobby: always on the loop */

/*
 * Lines longer than SESSION_SHORT_LINE run on a worker; a lobby command
 * (CMD_F_LOOP) runs on the loop up to SESSION_LOOP_LINE_MAX bytes and is
 * refused (on a worker) beyond: its arguments are short (a game of at most
 * 4,096 bytes, names, options).  PROTOCOL.md §6.
 */
#define SESSION_SHORT_LINE	1024
#define SESSION_LOOP_LINE_MAX	8192
#define CMD_F_LOBBY	0x20		/* needs networked play (a lobby) */
#define CMD_F_LEAGUE	0x40		/* needs the accounts (--db) */
#define CMD_F_LOGIN	0x80		/* needs a logged-in account */
#define CMD_F_ADMIN	0x100		/* needs the admin role */
#define CMD_F_PREP	0x200		/* may be prepared on a worker first */
	const char	*usage;
	int		 (*exec)(struct session *, const struct proto_cmd *,
			    struct buf *);
};

/* Return values of cmd_entry.exec. */
#define CMD_OK		0	/* success; body holds the reply */
#define CMD_ERROR	-1	/* failure; body holds the one-line error */
#define CMD_QUIT	1	/* success, then close the connection */
#define CMD_ERROR_QUIT	-2	/* failure, then close the connection */
#define CMD_WAIT	2	/* success; the reply waits for the log */

const struct cmd_entry *cmd_find(const struct cmd_entry *const *,
	    const char *);
int	 cmd_prep_needed(struct session *, const struct cmd_entry *,
	    const char *, size_t);
void	 cmd_prep_run(struct session *, const char *, size_t);
void	 cmd_prep_free(struct session *);
/* The server's commands (cmd.c) and `grundy engine`'s (cmd-std.c). */
extern const struct cmd_entry *const cmd_table[];
extern const struct cmd_entry *const cmd_engine_table[];

/* cmd-game.c: the engine's games and resign, which cmd-lobby.c extends. */
int	 cmd_games_exec(struct session *, const struct proto_cmd *,
	    struct buf *);
int	 cmd_resign_exec(struct session *, const struct proto_cmd *,
	    struct buf *);

#endif /* SESSION_H */
