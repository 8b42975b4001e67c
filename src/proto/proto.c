/*
 * proto.c: GTP version 2 framing (proto/PROTOCOL.md §6).  A request is one
 * line: [id] command [arguments].  A reply is "=[id] body" or "?[id] error",
 * and ends with an empty line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto/proto.h"

/*
 * Removes control characters other than HT and LF in place, turns HT into
 * a space and, with comments, drops everything from '#' on.
 */
static size_t
proto_clean(char *line, size_t len, int comments)
{
	size_t		 i, o = 0;
	unsigned char	 c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)line[i];
		if (c == '#' && comments)
			break;
		if (c == '\t')
			c = ' ';
		else if ((c < 32 && c != '\n') || c == 127)
			continue;
		line[o++] = (char)c;
	}
	line[o] = '\0';
	return (o);
}

/*
 * Preprocesses one line in place, as GTP §2.2 says: removes control
 * characters other than HT and LF, turns HT into a space, and drops
 * everything from '#' on.  A trailing CR (CR LF endings) is a control
 * character and goes too.  Returns the new length; a line that is then
 * empty or blank must be ignored by the caller.
 */
size_t
proto_preprocess(char *line, size_t len)
{
	return (proto_clean(line, len, 1));
}

/* Returns 1 if s is a non-empty run of digits that fits an unsigned long. */
static int
proto_is_id(const char *s, unsigned long *id)
{
	unsigned long	 v = 0;
	const char	*p;

	for (p = s; isdigit((unsigned char)*p); p++) {
		if (v > (~0UL - (unsigned long)(*p - '0')) / 10)
			return (0);
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (p == s || *p != '\0')
		return (0);
	*id = v;
	return (1);
}

/*
 * Parses a preprocessed line into cmd, splitting it in place on spaces.
 *   line = [id SP] name *(SP arg)
 * Returns 0 if the line is blank (ignore it), 1 if cmd holds a command, or
 * -1 with *why set when the line has an id but no command.
 */
int
proto_parse(char *line, struct proto_cmd *cmd, const char **why)
{
	char	*p, *tok;
	int	 cap = PROTO_ARGV_SMALL;

	memset(cmd, 0, sizeof *cmd);
	cmd->argv = cmd->small;
	for (p = line;;) {
		while (*p == ' ' || *p == '\n')
			*p++ = '\0';
		if (*p == '\0')
			break;
		tok = p;
		while (*p != '\0' && *p != ' ' && *p != '\n')
			p++;
		if (*p != '\0')
			*p++ = '\0';
		if (cmd->name == NULL && !cmd->has_id &&
		    proto_is_id(tok, &cmd->id)) {
			cmd->has_id = 1;
			continue;
		}
		if (cmd->name == NULL) {
			cmd->name = tok;
			continue;
		}
		if (cmd->argc == cap) {
			cap *= 2;
			cmd->argv = xreallocarray(cmd->argv == cmd->small ?
			    NULL : cmd->argv, (size_t)cap, sizeof *cmd->argv);
			if (cap == 2 * PROTO_ARGV_SMALL)
				memcpy(cmd->argv, cmd->small, sizeof cmd->small);
		}
		cmd->argv[cmd->argc++] = tok;
	}
	if (cmd->name != NULL)
		return (1);
	if (cmd->has_id) {
		*why = "missing command after id";
		return (-1);
	}
	return (0);
}

/*
 * Reads the head of a raw request line as proto_preprocess and proto_parse
 * would see it, from at most PROTO_SCAN_MAX bytes.  Returns 1 with h->name
 * the command's name (and h->has_id, h->id), 0 for a blank line, or -1
 * when the scan cannot tell: no command name complete within the bytes
 * scanned, or a name longer than PROTO_NAME_MAX (no command has one).  The
 * id is filled whenever it was read.
 */
int
proto_head(const char *line, size_t len, struct proto_head *h)
{
	char		 tok[PROTO_NAME_MAX + 2];
	size_t		 i, n = 0;
	int		 end = 0, over = 0;
	unsigned char	 c = ' ';

	memset(h, 0, sizeof *h);
	for (i = 0; !end; i++) {
		if (i == len)
			end = 1;	/* the line's end ends a token */
		else if (i == PROTO_SCAN_MAX)
			return (-1);	/* the scan's end ends nothing */
		else if ((c = (unsigned char)line[i]) == '#')
			end = 1;	/* a comment ends the line */
		else if (c < 32 && c != '\t' && c != '\n')
			continue;	/* removed by preprocessing */
		else if (c == 127)
			continue;
		if (!end && c != ' ' && c != '\t' && c != '\n') {
			if (n < sizeof tok - 1)
				tok[n++] = (char)c;
			else
				over = 1;
			continue;
		}
		if (n == 0)
			continue;
		tok[n] = '\0';
		n = 0;
		if (over || strlen(tok) > PROTO_NAME_MAX)
			return (-1);
		if (h->name[0] == '\0' && !h->has_id &&
		    proto_is_id(tok, &h->id)) {
			h->has_id = 1;
			continue;
		}
		memcpy(h->name, tok, strlen(tok) + 1);
		return (1);
	}
	return (h->has_id ? -1 : 0);
}

/* Frees the argument array of a parsed command. */
void
proto_cmd_free(struct proto_cmd *cmd)
{
	if (cmd->argv != cmd->small)
		free(cmd->argv);
	cmd->argv = NULL;
	cmd->argc = 0;
}

/*
 * Appends a reply: '=' (ok) or '?' (failure), the id if the request had
 * one, a space and the body unless it is empty, then the empty line that
 * ends every reply.  Empty lines inside the body would end the reply early,
 * so they are dropped, as is a trailing newline.
 */
void
proto_reply(struct buf *out, int ok, const struct proto_cmd *cmd,
    const char *body)
{
	struct proto_rpart rp;

	proto_reply_begin(out, ok, cmd, &rp);
	proto_reply_part(out, &rp, body != NULL ? body : "",
	    body != NULL ? strlen(body) : 0);
	proto_reply_end(out);
}

/*
 * A reply written in parts (a body streamed a chunk at a time): begin
 * with its status and id, the parts of its body in order (the lines cut
 * anywhere), then its end; the bytes are proto_reply's of the whole body.
 */
void
proto_reply_begin(struct buf *out, int ok, const struct proto_cmd *cmd,
    struct proto_rpart *rp)
{
	buf_putc(out, ok ? '=' : '?');
	if (cmd != NULL && cmd->has_id)
		buf_printf(out, "%lu", cmd->id);
	rp->first = 1;
	rp->mid = 0;
}

void
proto_reply_part(struct buf *out, struct proto_rpart *rp, const char *p,
    size_t len)
{
	const char	*nl;
	size_t		 n;

	while (len > 0) {
		nl = memchr(p, '\n', len);
		n = nl != NULL ? (size_t)(nl - p) : len;
		if (n > 0) {
			if (!rp->mid)
				buf_putc(out, rp->first ? ' ' : '\n');
			buf_add(out, p, n);
			rp->first = 0;
			rp->mid = 1;
		}
		if (nl == NULL)
			break;
		rp->mid = 0;
		p = nl + 1;
		len -= n + 1;
	}
}

void
proto_reply_end(struct buf *out)
{
	buf_add(out, "\n\n", 2);
}

/* Returns 1 if a raw line would be empty after preprocessing (no reply). */
int
proto_blank(const char *line, size_t len)
{
	size_t		 i;
	unsigned char	 c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)line[i];
		if (c == '#')
			return (1);
		if (c > ' ' && c != 127)
			return (0);
	}
	return (1);
}

/*
 * Preprocesses one line of an answer in place, as GTP v2 §3.1 asks of a
 * controller: removes control characters other than HT and LF (so a CR
 * goes) and turns HT into a space.  Unlike a command, an answer has no
 * comments: '#' stays.  Returns the new length.
 */
size_t
proto_answer_clean(char *line, size_t len)
{
	return (proto_clean(line, len, 0));
}

/*
 * Returns 1 if a preprocessed line is the first line of an answer:
 *   ("=" / "?") [id] [SP text]
 * with the id a run of digits that fits an unsigned long.  Fills *ok,
 * *has_id, *id and *text (the rest after the spaces that follow the id).
 * Returns 0 for any other line, such as a program's "=== banner ===" or
 * "=x": those are not answers.
 */
int
proto_answer_head(const char *line, int *ok, int *has_id, unsigned long *id,
    const char **text)
{
	const char	*p = line + 1;
	unsigned long	 v = 0;

	if (line[0] != '=' && line[0] != '?')
		return (0);
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (~0UL - (unsigned long)(*p - '0')) / 10)
			return (0);
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (*p != '\0' && *p != ' ')
		return (0);
	*ok = line[0] == '=';
	*has_id = p > line + 1;
	*id = v;
	*text = p + strspn(p, " ");
	return (1);
}

/* Returns 1 if a preprocessed line is empty or only spaces. */
static int
proto_answer_blank(const char *line)
{
	return (line[strspn(line, " ")] == '\0');
}

/* Sets up an answer reader that keeps at most max bytes of a body. */
void
proto_answer_init(struct proto_answer *a, size_t max)
{
	memset(a, 0, sizeof *a);
	buf_init(&a->body);
	a->max = max;
}

/* Frees an answer reader. */
void
proto_answer_free(struct proto_answer *a)
{
	buf_free(&a->body);
	a->open = 0;
}

/* Forgets the block just read, ready for the next. */
void
proto_answer_reset(struct proto_answer *a)
{
	a->open = a->ok = a->has_id = a->over = 0;
	a->id = 0;
	a->lines = 0;
	buf_reset(&a->body);
	if (a->body.cap > 65536)
		buf_free(&a->body);
}

/* Appends text to the body, or marks it cut past the cap. */
static void
proto_answer_add(struct proto_answer *a, const char *s, size_t n, int nl)
{
	if (a->over || a->body.len + n + (size_t)nl > a->max) {
		a->over = 1;
		return;
	}
	if (nl)
		buf_putc(&a->body, '\n');
	buf_add(&a->body, s, n);
}

/*
 * Feeds one raw line (without its LF) to an answer reader; the line is
 * preprocessed in place (proto_answer_clean).  cut says the line was too
 * long and line holds only its first bytes.  A line that starts an
 * answer (proto_answer_head) opens a block; every line up to the next
 * empty (or blank) line belongs to it, whatever it says, so nothing
 * inside an answer is ever taken as a command.  Returns
 * PROTO_NOT_ANSWER (the line is not part of an answer: the caller
 * handles it, and unless it starts with '=' or '?' it is left as it
 * came), PROTO_IN_BLOCK (taken), or
 * PROTO_BLOCK_DONE (the empty line ended the block: read ok, has_id,
 * id, lines, over and body, then call proto_answer_reset).
 */
enum proto_feed
proto_answer_feed(struct proto_answer *a, char *line, size_t len, int cut)
{
	const char	*text;
	char		 head[PROTO_HEAD_MAX + 1];
	size_t		 hn;
	int		 ok, has_id;
	unsigned long	 id;

	if (!a->open) {
		/*
		 * The first byte that preprocessing keeps must be '=' or '?':
		 * a request (a letter, a digit) is told at once.
		 */
		for (hn = 0; hn < len && (((unsigned char)line[hn] < 32 &&
		    line[hn] != '\t' && line[hn] != '\n') ||
		    (unsigned char)line[hn] == 127); hn++)
			;
		if (hn == len || (line[hn] != '=' && line[hn] != '?'))
			return (PROTO_NOT_ANSWER);
		/*
		 * Decide on a cleaned copy of the first bytes, so that a line
		 * that is no answer reaches its caller as it came (a command
		 * is preprocessed, and a password checked, by the session).
		 * The copy cleans to a prefix of the cleaned line, and no
		 * prefix of an answer's head is refused by proto_answer_head.
		 */
		hn = len < PROTO_HEAD_MAX ? len : PROTO_HEAD_MAX;
		memcpy(head, line, hn);
		hn = proto_answer_clean(head, hn);
		head[hn] = '\0';
		if (!proto_answer_head(head, &ok, &has_id, &id, &text))
			return (PROTO_NOT_ANSWER);
	}
	len = proto_answer_clean(line, len);
	if (!a->open) {
		if (!proto_answer_head(line, &ok, &has_id, &id, &text))
			return (PROTO_NOT_ANSWER);
		proto_answer_reset(a);
		a->open = 1;
		a->ok = ok;
		a->has_id = has_id;
		a->id = id;
		a->lines = 1;
		proto_answer_add(a, text, strlen(text), 0);
		if (cut)
			a->over = 1;
		return (PROTO_IN_BLOCK);
	}
	if (!cut && proto_answer_blank(line)) {
		a->open = 0;
		/* Trailing spaces are not part of the answer. */
		while (a->body.len > 0 && a->body.data[a->body.len - 1] == ' ')
			a->body.data[--a->body.len] = '\0';
		return (PROTO_BLOCK_DONE);
	}
	a->lines++;
	proto_answer_add(a, line, len, 1);
	if (cut)
		a->over = 1;
	return (PROTO_IN_BLOCK);
}

/*
 * Appends the answer a has read, re-framed with the id given (as a
 * relay forwards it): "=ID TEXT" or "?ID TEXT", its further lines, then
 * the empty line.
 */
void
proto_answer_write(struct buf *out, const struct proto_answer *a,
    unsigned long id)
{
	buf_printf(out, "%c%lu", a->ok ? '=' : '?', id);
	if (a->body.len > 0 && a->body.data[0] != '\n')
		buf_putc(out, ' ');
	buf_add(out, a->body.data != NULL ? a->body.data : "", a->body.len);
	buf_add(out, "\n\n", 2);
}

/*
 * Appends the reply to an answer that answers no outstanding server
 * command (unknown, stale or duplicate id, or no server command at all).
 */
void
proto_answer_stray(struct buf *out)
{
	buf_puts(out, "? unexpected answer: no server command is waiting "
	    "for it\n\n");
}

/*
 * Appends the reply to a request line over the limit of max bytes, with
 * the request's id if its first bytes (head, preprocessed) hold one.
 */
void
proto_too_long(struct buf *out, const char *head, size_t max)
{
	const char	*p = head + strspn(head, " ");
	size_t		 n = strspn(p, "0123456789");
	char		 id[24];
	unsigned long	 v;

	buf_putc(out, '?');
	if (n > 0 && n < sizeof id && p[n] == ' ') {
		memcpy(id, p, n);
		id[n] = '\0';
		if (proto_is_id(id, &v))
			buf_printf(out, "%lu", v);
	}
	buf_printf(out, " line too long: the limit is %zu bytes\n\n", max);
}

/*
 * Parses a time control "BASE" or "BASE+INC" in milliseconds; returns 0,
 * or -1 if it is malformed or out of range.
 */
int
proto_parse_tc(const char *s, uint64_t *base, uint64_t *inc)
{
	unsigned long long b, i = 0;
	char		*end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	b = strtoull(s, &end, 10);
	if (errno != 0)
		return (-1);
	if (*end == '+') {
		s = end + 1;
		if (*s < '0' || *s > '9')
			return (-1);
		i = strtoull(s, &end, 10);
		if (errno != 0)
			return (-1);
	}
	if (*end != '\0' || b == 0 || b > PROTO_TC_MAX || i > PROTO_TC_MAX)
		return (-1);
	*base = b;
	*inc = i;
	return (0);
}

/* Formats a time control as BASE or BASE+INC. */
void
proto_tc_print(struct buf *b, uint64_t base, uint64_t inc)
{
	buf_printf(b, "%llu", (unsigned long long)base);
	if (inc > 0)
		buf_printf(b, "+%llu", (unsigned long long)inc);
}
