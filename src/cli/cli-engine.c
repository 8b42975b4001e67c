/*
 * cli-engine.c: one command on the engine's session for the terminal
 * programs, as `grundy engine` would answer it, with the reply's text
 * taken out of its GTP framing.
 */
#include <stdarg.h>
#include <string.h>

#include "cli/cli-engine.h"

/* A session with grundyd's defaults, or with the game limits lim. */
void
cli_engine_init(struct cli_engine *e, const struct game_limits *lim)
{
	conf_default(&e->conf);
	if (lim != NULL)
		e->conf.sc.lim = *lim;
	session_init(&e->s, 0, &e->conf.sc, cmd_engine_table);
	buf_init(&e->line);
	buf_init(&e->out);
}

void
cli_engine_free(struct cli_engine *e)
{
	session_free(&e->s);
	conf_free(&e->conf);
	buf_free(&e->line);
	buf_free(&e->out);
}

/*
 * Runs the command made from fmt; puts the reply's text (after "= " or
 * "? ", without the empty line that ends it; lines end with LF) in body.
 * Returns 1 on success, 0 when the command was refused.
 */
int
cli_engine_run(struct cli_engine *e, struct buf *body, const char *fmt, ...)
{
	va_list		 ap;
	const char	*p;
	size_t		 n;

	buf_reset(&e->line);
	va_start(ap, fmt);
	buf_vprintf(&e->line, fmt, ap);
	va_end(ap);
	buf_reset(&e->out);
	(void)session_execute(&e->s, e->line.data, e->line.len, &e->out);
	buf_reset(body);
	if (e->out.len < 3)
		return (0);
	p = e->out.data + 1;
	n = e->out.len - 3;	/* without the "\n\n" that ends a reply */
	if (n > 0 && *p == ' ') {
		p++;
		n--;
	}
	buf_add(body, p, n);
	if (n > 0)
		buf_putc(body, '\n');
	buf_str(body);
	return (e->out.data[0] == '=');
}

/*
 * Checks a move with the engine's `legal` (nothing changes).  Returns 1 if
 * it is legal; else 0 with why it is not (one line, without "false " or
 * "invalid move: ") in why.
 */
int
cli_engine_legal(struct cli_engine *e, const char *move, struct buf *why)
{
	const char	*b;
	size_t		 n;

	if (cli_engine_run(e, why, "legal %s", move) &&
	    strncmp(buf_str(why), "true", 4) == 0)
		return (1);
	b = buf_str(why);
	if (strncmp(b, "false ", 6) == 0)
		b += 6;
	else if (strncmp(b, "invalid move: ", 14) == 0)
		b += 14;
	n = strcspn(b, "\n");
	if (n > 0)
		memmove(why->data, b, n);
	why->len = n;
	(void)buf_str(why);
	why->data[n] = '\0';
	return (0);
}
