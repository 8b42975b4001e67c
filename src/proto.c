/*
 * proto.c: GTP version 2 framing (proto/PROTOCOL.md §6).  A request is one
 * line: [id] command [arguments].  A reply is "=[id] body" or "?[id] error",
 * and ends with an empty line.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

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
	size_t		 i, o = 0;
	unsigned char	 c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)line[i];
		if (c == '#')
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
	int	 cap = 8;

	memset(cmd, 0, sizeof *cmd);
	cmd->argv = xreallocarray(NULL, (size_t)cap, sizeof *cmd->argv);
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
			cmd->argv = xreallocarray(cmd->argv, (size_t)cap,
			    sizeof *cmd->argv);
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

/* Frees the argument array of a parsed command. */
void
proto_cmd_free(struct proto_cmd *cmd)
{
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
	const char	*p, *nl;
	int		 first = 1;

	buf_putc(out, ok ? '=' : '?');
	if (cmd != NULL && cmd->has_id)
		buf_printf(out, "%lu", cmd->id);
	for (p = body != NULL ? body : ""; *p != '\0'; p = nl + 1) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (nl > p) {
			buf_putc(out, first ? ' ' : '\n');
			buf_add(out, p, (size_t)(nl - p));
			first = 0;
		}
		if (*nl == '\0')
			break;
	}
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
