/*
 * lobby-pair.c: what brings two players together (PROTOCOL.md §13.3):
 * open seeks and challenges, and the random fair starts of templates.
 */

#include <sys/queue.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lobby.h"
#include "lobby-int.h"

/*
 * Draws a fair random start from a template: every number of the position
 * is an upper bound and is replaced by a uniform draw from 0..bound, until
 * the result is an N-position that is not over.  Returns 0, or -1 with err.
 */
int
lobby_draw_start(const struct game *tmpl, gmp_randstate_t rs,
    const struct game_limits *lim, struct game *out, struct game_error *err)
{
	struct buf	 text, drawn;
	char		*tok, *save, *copy;
	mpz_t		 n;
	int		 i, rv = -1;

	buf_init(&text);
	buf_init(&drawn);
	mpz_init(n);
	game_print(tmpl, &text);
	for (i = 0; i < LOBBY_DRAWS && rv != 0; i++) {
		buf_reset(&drawn);
		copy = xstrdup(buf_str(&text));
		for (tok = strtok_r(copy, " ", &save); tok != NULL;
		    tok = strtok_r(NULL, " ", &save)) {
			if (drawn.len > 0)
				buf_putc(&drawn, ' ');
			if (!lobby_isnum(tok)) {
				buf_puts(&drawn, tok);
				continue;
			}
			mpz_set_str(n, tok, 10);
			mpz_add_ui(n, n, 1);
			mpz_urandomm(n, rs, n);
			buf_mpz(&drawn, n);
		}
		free(copy);
		if (game_parse_line(out, buf_str(&drawn), lim, err) != 0)
			break;
		if (!game_terminal(out) && game_outcome(out, err) == GAME_N)
			rv = 0;
		else
			game_free(out);
	}
	if (rv != 0 && i == LOBBY_DRAWS)
		game_set_error(err, GAME_ELIMIT, "no fair start (an "
		    "N-position) in %d draws from %s", LOBBY_DRAWS,
		    buf_str(&text));
	mpz_clear(n);
	buf_free(&text);
	buf_free(&drawn);
	return (rv);
}

/* Drops a client's seek. */
void
lc_drop_seek(struct lobby_client *lc)
{
	struct lobby	*lb = lc->lb;

	if (lc->seek == NULL)
		return;
	TAILQ_REMOVE(&lb->seeks, lc->seek, entry);
	lb->nseeks--;
	free(lc->seek->spec);
	free(lc->seek);
	lc->seek = NULL;
}

/* Drops a challenge. */
void
lobby_drop_chall(struct lobby *lb, struct lchall *ch)
{
	TAILQ_REMOVE(&lb->challs, ch, entry);
	lb->nchalls--;
	free(ch->spec);
	if (ch->start.fam != NULL)
		game_free(&ch->start);
	free(ch);
}
