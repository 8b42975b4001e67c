/*
 * session.c: the session state machine and the execution of one request:
 * preprocess, parse, look the command up, check arity and state centrally,
 * run the handler, format the reply.  Handlers live in cmd-*.c.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/log.h"
#include "session/session.h"
#include "session/session-store.h"
#include "lib/util.h"

/* Initialises a session with no game, answering the commands of table. */
void
session_init(struct session *s, uint64_t id, const struct session_conf *conf,
    const struct cmd_entry *const *table)
{
	memset(s, 0, sizeof *s);
	buf_init(&s->body);
	s->id = id;
	s->conf = conf;
	s->table = table;
	s->state = SESSION_IDLE;
	s->to_move = 1;
	game_move_init(&s->mv);
	game_move_init(&s->emv);
	game_moveset_init(&s->ems);
}

/* Frees the game, the history and the random state. */
void
session_free(struct session *s)
{
	if (s->state != SESSION_IDLE || s->game.fam != NULL)
		game_free(&s->game);
	game_hist_free(&s->hist);
	if (s->seeded)
		gmp_randclear(s->rs);
	s->seeded = 0;
	session_stream(s, NULL, NULL, NULL);
	buf_free(&s->body);
	game_move_clear(&s->mv);
	game_move_clear(&s->emv);
	game_moveset_clear(&s->ems);
}

/*
 * A command's reply goes on after the body it wrote (a record of any
 * length): session_execute sends that body as the reply's first part
 * (SESSION_MORE), then each session_more the next part from more(s,
 * body), until more says it was the last.  With more NULL: forgets a
 * stream (more_free(s) frees arg).
 */
void
session_stream(struct session *s, int (*more)(struct session *,
    struct buf *), void (*more_free)(struct session *), void *arg)
{
	if (s->more_free != NULL)
		s->more_free(s);
	s->more = more;
	s->more_free = more_free;
	s->more_arg = arg;
}

/*
 * Appends the next part of a streamed reply to out (on a worker, once
 * the last part left): SESSION_MORE while more is to come, SESSION_NEXT
 * after the last (the reply ended), SESSION_CLOSE if it had to be cut
 * (the game log failed): the client sees no end.
 */
int
session_more(struct session *s, struct buf *out)
{
	struct buf	*body = &s->body;
	int		 rv;

	buf_reset(body);
	rv = s->more(s, body);
	if (rv >= 0)
		proto_reply_part(out, &s->rpart, body->data, body->len);
	if (body->cap > 65536)
		buf_free(body);
	if (rv > 0)
		return (SESSION_MORE);
	session_stream(s, NULL, NULL, NULL);
	if (rv < 0) {
		log_warnx("conn=%llu event=reply-cut command=record "
		    "error=\"the game log cannot be read\"",
		    (unsigned long long)s->id);
		return (SESSION_CLOSE);
	}
	proto_reply_end(out);
	return (SESSION_NEXT);
}

/* Logs a match that ends without a result (the client vanished). */
void
session_abandon(struct session *s, const char *reason)
{
	if (s->state == SESSION_MATCH)
		log_info("game=%lld event=over result=- reason=%s plies=%lu",
		    (long long)s->game_id, reason, s->ply);
	if (s->state == SESSION_MATCH && s->store != NULL && s->game_id > 0)
		s->store_ops->end(s->store, s->game_id, STORE_RESULT_NONE,
		    reason, NULL, STORE_ABANDONED, NULL, NULL);
	s->game_id = 0;
}

/*
 * Logs the end of the match a command left with CMD_WAIT; cb(arg, ok)
 * runs once the log has it on disk (or could not write it), perhaps on
 * another thread before this returns.
 */
void
session_end_log(struct session *s, void (*cb)(void *, int), void *arg)
{
	int64_t	 gid = s->game_id;

	s->game_id = 0;
	s->store_ops->end(s->store, gid, s->end_winner == 1 ?
	    STORE_RESULT_FIRST : s->end_winner == 2 ? STORE_RESULT_SECOND :
	    STORE_RESULT_NONE, s->end_reason, s->end_detail[0] != '\0' ?
	    s->end_detail : NULL, STORE_FINISHED, cb, arg);
}

/*
 * Changes the session's state: the one place it changes.  Logs the
 * transition at debug level.
 */
void
session_enter(struct session *s, enum session_state st)
{
	if (s->state == st)
		return;
	log_debug("conn=%llu event=state %s -> %s", (unsigned long long)s->id,
	    session_strstate(s->state), session_strstate(st));
	s->state = st;
}

static const char *const session_state_names[] = {
	SESSION_STATES(ENUM_X_NAME)
};

/* Returns the name of a state, for logs. */
const char *
session_strstate(enum session_state st)
{
	return (ENUM_NAME(session_state_names, st, "unknown"));
}

/* Returns the entry of table for an exact command name, or NULL. */
const struct cmd_entry *
cmd_find(const struct cmd_entry *const *table, const char *name)
{
	size_t	 i;

	/* The first byte first: most names differ there (no call). */
	for (i = 0; table[i] != NULL; i++)
		if (table[i]->name[0] == name[0] &&
		    strcmp(table[i]->name, name) == 0)
			return (table[i]);
	return (NULL);
}

/*
 * Returns 1 if the request line may be slow enough that the server should
 * run it off the event loop: long lines, `new` of a family that builds a
 * table, and game commands on a game that is large or uses Wythoff tables.
 * With cep, *cep is the command the line's head names (NULL: none known),
 * for the caller's next question (cmd_prep_needed) without a second scan.
 */
int
session_heavy(const struct session *s, const char *line, size_t len,
    const struct cmd_entry **cep)
{
	const struct cmd_entry *ce;
	struct proto_head h;
	struct proto_cmd cmd;
	const struct game_family *fam;
	const char	*why;
	char		 copy[SESSION_SHORT_LINE + 1];
	int		 heavy = 0;

	/* Constant work on any line: its head says where it runs. */
	if (cep != NULL)
		*cep = NULL;
	if (proto_head(line, len, &h) != 1 ||
	    (ce = cmd_find(s->table, h.name)) == NULL)
		return (len > SESSION_SHORT_LINE);	/* answered there */
	if (cep != NULL)
		*cep = ce;
	if (ce->flags & CMD_F_LOOP)	/* the lobby lives on the loop */
		return (len > SESSION_LOOP_LINE_MAX);	/* refused there */
	if (len > SESSION_SHORT_LINE)
		return (1);
	if (!(ce->flags & CMD_F_HEAVY))
		return (0);
	if (ce->flags & CMD_F_DB)
		return (1);
	if (strcmp(ce->name, "new") != 0)
		return (s->state != SESSION_IDLE && s->game.fam != NULL &&
		    (s->game.fam->flags & GAME_F_HEAVY_PLAY) != 0);
	/* new: its family decides; a short line, parsed as it will be. */
	memcpy(copy, line, len);
	copy[len] = '\0';
	proto_preprocess(copy, len);
	if (proto_parse(copy, &cmd, &why) == 1) {
		fam = game_family_find(cmd.argc > 0 ? cmd.argv[0] : "");
		heavy = fam != NULL && (fam->flags & GAME_F_HEAVY_PARSE) != 0;
	}
	proto_cmd_free(&cmd);
	return (heavy);
}

/*
 * Keeps a copy of the raw line in s->raw if preprocessing would change more
 * than tabs and the line end: a '#' or a control character.
 */
static void
session_keep_raw(struct session *s, const char *line, size_t len)
{
	size_t		 i, n = len;
	unsigned char	 c;

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	for (i = 0; i < n; i++) {
		c = (unsigned char)line[i];
		if (c == '#' || (c < 32 && c != '\t') || c == 127)
			break;
	}
	if (i == n)
		return;
	s->raw = xmalloc(n + 1);
	memcpy(s->raw, line, n);
	s->raw[n] = '\0';
}

/*
 * Returns argument argi (0: the first after the command name) as the
 * client sent it, before preprocessing, split on spaces and tabs only, in
 * buf (len bytes); or def when the line was kept as is.  Commands whose
 * arguments must not be silently cut (passwords) check this text.
 */
const char *
session_raw_arg(const struct session *s, int argi, const char *def,
    char *buf, size_t len)
{
	const char	*p, *w;
	size_t		 n;
	int		 k = 0, first = 1;

	if (s->raw == NULL)
		return (def);
	for (p = s->raw;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return ("");
		w = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		n = (size_t)(p - w);
		if (first && n > 0 && strspn(w, "0123456789") >= n) {
			first = 0;	/* the request id */
			continue;
		}
		first = 0;
		if (k++ == argi + 1) {
			if (n >= len)
				n = len - 1;
			memcpy(buf, w, n);
			buf[n] = '\0';
			return (buf);
		}
	}
}

/*
 * Checks a command before it runs, in this order: its arity, its state
 * flags (a game, no match, on the loop: len is the raw line's), then the preconditions its flags
 * name: the admin role, a lobby, the accounts, a login.  Returns 0, or -1
 * with the one-line error in body.
 */
static int
session_check(const struct session *s, const struct cmd_entry *ce,
    const struct proto_cmd *cmd, size_t len, struct buf *body)
{
	if (cmd->argc < ce->min_args ||
	    (ce->max_args >= 0 && cmd->argc > ce->max_args)) {
		buf_printf(body, "usage: %s%s%s", ce->name,
		    ce->usage[0] ? " " : "", ce->usage);
		return (-1);
	}
	if ((ce->flags & CMD_F_GAME) && s->state == SESSION_IDLE) {
		buf_puts(body, "no game: start one with new GAME");
		return (-1);
	}
	if ((ce->flags & CMD_F_NOMATCH) && s->state == SESSION_MATCH) {
		buf_printf(body, "%s is not available during a match "
		    "(resign first)", ce->name);
		return (-1);
	}
	if ((ce->flags & CMD_F_LOOP) && s->lc != NULL && !s->on_loop) {
		/* session_heavy keeps these on the loop unless too long. */
		if (len > SESSION_LOOP_LINE_MAX)
			buf_printf(body, "line too long: %s takes at most %d "
			    "bytes", ce->name, SESSION_LOOP_LINE_MAX);
		else
			buf_printf(body, "%s is not available here",
			    ce->name);
		return (-1);
	}
	if ((ce->flags & CMD_F_ADMIN) && !s->admin) {
		buf_printf(body, "permission denied: %s needs the admin role",
		    ce->name);
		return (-1);
	}
	if ((ce->flags & CMD_F_LOBBY) && s->lc == NULL) {
		buf_puts(body, "networked play is not available here");
		return (-1);
	}
	if ((ce->flags & CMD_F_LEAGUE) && s->league == NULL) {
		buf_puts(body, "accounts need the game log (--db)");
		return (-1);
	}
	if ((ce->flags & CMD_F_LOGIN) && s->account[0] == '\0') {
		buf_printf(body, "%s needs a login", ce->name);
		return (-1);
	}
	return (0);
}

/*
 * Executes one raw request line (modified in place) and appends the reply
 * to out.  A blank or comment-only line produces no reply.  Returns
 * SESSION_NEXT, SESSION_CLOSE (close once the reply is written) or
 * SESSION_WAIT (the command ended a logged match: the caller holds the
 * reply until session_end_log's callback).
 */
int
session_execute(struct session *s, char *line, size_t len, struct buf *out)
{
	const struct cmd_entry *ce;
	struct proto_cmd cmd;
	struct buf	*body = &s->body;
	const char	*why;
	size_t		 raw_len = len;
	int		 rv, ret = SESSION_NEXT;

	s->last_cmd = NULL;
	s->last_ok = 1;
	session_keep_raw(s, line, len);
	len = proto_preprocess(line, len);
	if ((rv = proto_parse(line, &cmd, &why)) == 0) {
		proto_cmd_free(&cmd);
		free(s->raw);
		s->raw = NULL;
		return (0);
	}
	buf_reset(body);
	if (rv < 0) {
		buf_puts(body, why);
		goto fail;
	}
	s->last_cmd = "unknown";
	if ((ce = cmd_find(s->table, cmd.name)) == NULL) {
		/* GTP's exact text (controllers compare it); the name is logged. */
		log_debug("conn=%llu event=unknown-command name=\"%.64s\"",
		    (unsigned long long)s->id, cmd.name);
		buf_puts(body, "unknown command");
		goto fail;
	}
	s->last_cmd = ce->name;
	if (session_check(s, ce, &cmd, raw_len, body) != 0)
		goto fail;
	rv = ce->exec(s, &cmd, body);
	if (rv == CMD_ERROR)
		goto fail;
	if (rv == CMD_ERROR_QUIT) {
		session_enter(s, SESSION_CLOSING);
		ret = SESSION_CLOSE;
		goto fail;
	}
	if (rv == CMD_QUIT) {
		session_enter(s, SESSION_CLOSING);
		ret = SESSION_CLOSE;
	} else if (rv == CMD_WAIT)
		ret = SESSION_WAIT;
	if (s->more != NULL) {
		/* The first part; session_more sends the rest. */
		proto_reply_begin(out, 1, &cmd, &s->rpart);
		proto_reply_part(out, &s->rpart, body->data, body->len);
		ret = SESSION_MORE;
		goto done;
	}
	proto_reply(out, 1, &cmd, buf_str(body));
	goto done;
fail:
	s->last_ok = 0;
	proto_reply(out, 0, &cmd, buf_str(body));
done:
	if (body->cap > 65536)
		buf_free(body);		/* do not keep a huge reply's memory */
	proto_cmd_free(&cmd);
	free(s->raw);
	s->raw = NULL;
	(void)len;
	return (ret);
}
