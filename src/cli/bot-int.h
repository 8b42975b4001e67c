/*
 * bot-int.h: the internals of `grundy bot` shared by its files: options
 * and the relay loop, the server side (its commands, events, reconnecting,
 * the --server list), the program's process and the logs.  Byte streams,
 * lines, answer blocks and the start of the program are the channel's
 * (chan.h).  The files call each other one way, without a cycle
 * (tests/layers.py checks it).
 */
#ifndef BOT_INT_H
#define BOT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "cli/bot-policy.h"
#include "cli/chan.h"
#include "cli/sandbox.h"
#include "lib/clock.h"
#include "lib/buf.h"
#include "proto/proto.h"
#include "proto/proto-addr.h"

#define BOT_OUT_MAX	(4 * 1024 * 1024) /* queued bytes: stop reading */
#define BOT_QUEUE_MAX	256		/* commands awaiting an answer */
#define BOT_FIRST_ID	1001		/* ids of the bot's own commands */
#define BOT_RESUME_S	600		/* how long to try to reconnect */
#define BOT_RETRY_MS	500		/* first wait before reconnecting */
#define BOT_BACKOFF_MS	30000		/* longest wait between attempts */
#define BOT_ANSWER_MAX	(64 * 1024)	/* bytes of an answer kept */
#define BOT_NAME_MAX	33		/* bytes of an account name */
#define BOT_PING_MS	240000		/* keep-alive, below idle-timeout */
#define BOT_FINISH_MS	10000		/* wait for the last answers */
#define BOT_LOG_MAX	400		/* bytes of a line shown in logs */
#define BOT_TOKEN_MAX	256		/* bytes of a resume token */
#define BOT_GAME_MAX	32		/* bytes of a game id */
#define BOT_DIAL_MS	5000		/* a dial's timeout: the node is gone */
#define BOT_REDIRECTS	8		/* redirects followed within: */
#define BOT_REDIRECT_MS	60000		/* this window; then the list */
#define BOT_TAKEOVER_MS	60000		/* wait for a game's takeover */
#define BOT_DEAD_MS	10000		/* a node unreachable since: no
					 * redirect there is followed */
#define BOT_READ_MS	30000		/* server silent: ping, then lost */

/* The bot's own commands, whose answers come from the server. */
enum bot_kind {
	BOT_REGISTER,
	BOT_LOGIN,
	BOT_READY,
	BOT_SEEK,
	BOT_ACCEPT,
	BOT_RESUME,
	BOT_PING,
	BOT_UNREADY,
	BOT_DECLINE,
	BOT_RESUME_ID,		/* resume GAME_ID: by account */
	BOT_RESIGN,		/* resign GAME_ID REASON: the program's loss */
};

/*
 * The server connection's life cycle, changed only by bot_link_set, which
 * logs old -> new at debug level.  UP: connected.  LOCKED: connected, but
 * the login was refused for a lock, so the loop closes the connection.
 * WAIT_LOCK: closed, waiting for the lock to end.  DOWN: closed (lost, or
 * never connected yet), reconnecting with backoff.  REDIRECT: connected,
 * but told to go to another node (event redirect), so the loop closes the
 * connection and dials that node.
 */
enum bot_link {
	BOT_LINK_UP,
	BOT_LINK_LOCKED,
	BOT_LINK_WAIT_LOCK,
	BOT_LINK_DOWN,
	BOT_LINK_REDIRECT,
};

/* One of the bot's commands awaiting the server's answer. */
struct bot_own {
	unsigned long	 id;
	enum bot_kind	 kind;
};

/* One server command awaiting the program's answer. */
struct bot_fwd {
	unsigned long	 pid;		/* its id for the program */
	unsigned long	 sid;		/* its id from the server */
	unsigned long	 gen;		/* the connection it came on */
	char		 name[16];	/* new, play, genmove, gameover */
};

struct bot {
	/* Options. */
	const char	*server;
	const char	*name;
	const char	*password;
	char		 pwbuf[160];	/* read from a file or the environment */
	const char	*seek;
	int		 do_register;
	int		 accept;
	struct botpol_accept filter;
	int		 ready;
	unsigned long	 games;		/* 0: play forever */
	unsigned long	 reconnect_ms;	/* first wait before reconnecting */
	unsigned long	 reconnect_s;	/* give up after this long */
	unsigned long	 dial_ms;	/* --dial-timeout */
	unsigned long	 takeover_ms;	/* --takeover-wait */
	unsigned long	 read_ms;	/* --read-timeout, 0: none */
	char		**prog;
	int		 sandbox;	/* --sandbox: the program sandboxed */
	struct sandbox_opts sb;		/* --sandbox-limits */
	int		 ponder;	/* --ponder: never frozen */
	char		 host[256], port[32];	/* the node dialled */

	/* The nodes (bot-nodes.c): the --server list and redirects. */
	struct proto_addr nodes[PROTO_NODES_MAX];
	size_t		 nnodes;
	size_t		 node;		/* the list's current (or last) node */
	size_t		 round_fails;	/* dials failed in a row */
	int		 detour;	/* host:port is a redirect's, not node */
	uint64_t	 redirect_at[BOT_REDIRECTS];	/* the last ones, ms */
	size_t		 nredirect;
	char		 dead[256 + 32 + 4];	/* the last node whose
							 * dial failed, */
	uint64_t	 dead_at;			/* then */

	/* The program, and the server connection. */
	struct chan	 pc;		/* program: rfd its stdout, wfd stdin */
	struct ptree	*tree;		/* its tree when not sandboxed, or NULL */
	int		 frozen;	/* its tree is frozen (no pondering) */
	int		 freeze_due;	/* it owes nothing: freeze once sent */
	int		 resigned;	/* the server answered our resign */
	struct chan	 sc;		/* server socket: rfd == wfd */
	unsigned long	 gen;		/* connection generation */
	enum bot_link	 link;		/* the connection's life cycle */
	unsigned int	 attempt;	/* reconnect attempts since then */
	int		 hello_first;	/* never connected yet: register */
	uint64_t	 down_since, next_try, last_send;
	uint64_t	 last_recv;	/* bytes from the server, or dialled */
	int		 pinged;	/* a ping for the silence is out */

	/* Answer queues and the blocks being read. */
	struct bot_own	 own[BOT_QUEUE_MAX];
	size_t		 nown;
	unsigned long	 next_id;
	struct bot_fwd	 fwd[BOT_QUEUE_MAX];
	size_t		 nfwd;
	unsigned long	 next_pid;	/* the program's next command id */
	struct proto_answer sans;	/* server answer block */
	struct proto_answer pans;	/* program answer block */

	/* Games. */
	int		 logged_in;
	int		 in_game;
	unsigned long	 game_gen;	/* connection the game is attached on */
	unsigned long	 live_gen;	/* connection whose event live named
					 * the game its token resumes */
	char		 game_id[BOT_GAME_MAX];
	char		 token[BOT_TOKEN_MAX];
	char		 p1[BOT_NAME_MAX], p2[BOT_NAME_MAX];
	int		 you;		/* seat 1 or 2, 0 if unknown */
	unsigned long	 done;		/* games finished with a result */
	int		 finishing;	/* enough games: leave when answered */
	/* The game waits for a takeover (event takeover): until then. */
	int		 waiting;
	uint64_t	 wait_until;
	uint64_t	 seek_at;	/* a refused seek sent again then; 0 */
	unsigned int	 seek_tries;	/* outage refusals in a row (backoff) */
	unsigned long	 refused_gen;	/* the connection that refused
					 * its resume meanwhile */
	uint64_t	 finish_by;
};

/* bot-log.c: logs and the connection's life cycle (the clock: clock.h). */
void	 bot_link_set(struct bot *, enum bot_link);
int	 bot_down(const struct bot *);
void	 bot_log(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/*
 * Logs a warning: something the program's author must look at (its
 * format is a string literal, prefixed with "warning: ").
 */
#define bot_warn(...)	bot_log("warning: " __VA_ARGS__)
const char	*bot_short(const char *s, char *tmp, size_t len);
const char	*bot_flat(const struct proto_answer *a, char *tmp, size_t len);

/* bot-nodes.c: the --server list, moving between nodes, redirects. */
void	 bot_nodes_parse(struct bot *, const char *);
void	 bot_node_lost(struct bot *);
void	 bot_node_failed(struct bot *);
void	 bot_redirect(struct bot *, const char *, size_t, const char *);
void	 bot_node_dead(struct bot *);
void	 bot_takeover_wait(struct bot *b, const char *);

/* bot-prog.c: the program. */
void	 bot_stop_program(struct bot *b);
void	 bot_fatal(struct bot *b, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
const char *bot_program_died(struct bot *b, char *, size_t);
void	 bot_spawn(struct bot *b);
void	 bot_program_kill(struct bot *b);
const char *bot_program_stderr(struct bot *b);
const char *bot_program_input(struct bot *b);
void	 bot_program_run(struct bot *b, int on);

/* bot-server.c: the server side. */
int	 bot_dial(struct bot *b, char *why, size_t len);
void	 bot_send(struct bot *b, enum bot_kind kind, const char *text);
void	 bot_hello(struct bot *b, int first);
void	 bot_close(struct bot *b);
void	 bot_lost(struct bot *b, const char *why);
void	 bot_reconnect(struct bot *b);
void	 bot_server_input(struct bot *b);
void	 bot_takeover_check(struct bot *b);
void	 bot_seek_check(struct bot *b);
void	 bot_resign_own(struct bot *b, const char *reason,
	    const char *detail);

#endif /* BOT_INT_H */
