/*
 * cli-engine.c: one command on the engine's session for the terminal
 * programs, as `grundy engine` would answer it, with the reply's text
 * taken out of its GTP framing.
 */
#include <stdarg.h>
#include <string.h>

#include "cli-engine.h"

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
