/*
 * verify-util.c: what the parts of `grundy verify` share (verify-int.h):
 * the verdict, numbers, result words, JSON strings, moves and the turn.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "lib/util.h"
#include "record/verify-int.h"
#include "solver/referee.h"

/*
 * Keeps the verdict "FILE:LINE: REASON" unless a line before it was
 * already found wrong (the verdict is the first wrong line in file
 * order); returns VERIFY_WRONG.
 */
enum verify_verdict __attribute__((format(printf, 3, 4)))
verify_wrong(struct verify *v, unsigned long line, const char *fmt, ...)
{
	va_list	 ap;

	if (v->wline != 0 && v->wline <= line)
		return (VERIFY_WRONG);
	v->wline = line;
	v->wmsg.len = 0;
	buf_printf(&v->wmsg, "%s:%lu: ", v->name, line);
	va_start(ap, fmt);
	buf_vprintf(&v->wmsg, fmt, ap);
	va_end(ap);
	buf_putc(&v->wmsg, '\n');
	return (VERIFY_WRONG);
}

/* Parses a decimal of at most 20 digits into *out; 0, or -1. */
int
verify_u64(const char *s, uint64_t *out)
{
	uint64_t	 x = 0;
	size_t		 n = 0;

	if (*s == '\0' || (s[0] == '0' && s[1] != '\0'))
		return (-1);
	for (; *s != '\0'; s++, n++) {
		if (*s < '0' || *s > '9' || n == 20 ||
		    x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return (-1);
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*out = x;
	return (0);
}

/* Returns the seat (1, 2) named by a result word, 0 for "-", -1: bad. */
int
verify_seat_word(const char *w, size_t n)
{
	if (n == 5 && strncmp(w, "first", 5) == 0)
		return (1);
	if (n == 6 && strncmp(w, "second", 6) == 0)
		return (2);
	return (n == 1 && w[0] == '-' ? 0 : -1);
}

/* Returns 1 if the word w is one of the NULL-terminated list. */
int
verify_oneof(const char *w, const char *const *list)
{
	for (; *list != NULL; list++)
		if (strcmp(w, *list) == 0)
			return (1);
	return (0);
}

/*
 * Parses text as a move of the position and checks it; returns 0 (m
 * set), or -1 with err (a syntax error, or a move the rules forbid).
 */
int
verify_parse_move(struct verify *v, const char *text, struct game_move *m,
    struct game_error *err)
{
	char		*copy, *argv[GAME_MOVE_MAX + 1], *tok, *save;
	int		 argc = 0, rv = -1;

	copy = xstrdup(text);
	for (tok = strtok_r(copy, " \t", &save); tok != NULL && argc <=
	    GAME_MOVE_MAX; tok = strtok_r(NULL, " \t", &save))
		argv[argc++] = tok;
	if (argc == 0)
		game_set_error(err, GAME_ESYNTAX, "empty move");
	else if (argc > GAME_MOVE_MAX)
		game_set_error(err, GAME_ESYNTAX, "too many tokens");
	else if (game_move_parse(&v->game, m, argc, argv, &v->lim->game,
	    err) == 0 && game_check(&v->game, m, err) == 0)
		rv = 0;
	free(copy);
	return (rv);
}

/* Returns the seat to move next: 1 before odd plies, 2 before even. */
int
verify_mover(const struct verify *v)
{
	return (v->ply % 2 == 0 ? 1 : 2);
}

/* Returns 1 if seat is the engine (its clock is never charged). */
int
verify_engine(const struct verify *v, int seat)
{
	return (strcmp(v->hdr[seat == 1 ? VH_PLAYER1 : VH_PLAYER2],
	    RECORD_ENGINE) == 0);
}

/*
 * Decodes the JSON string at s (its '"' first) into out; returns what
 * follows its closing '"', or NULL if it is not one.
 */
const char *
verify_unquote(const char *s, struct buf *out)
{
	static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
	const char	*e;
	char		 hex[5];
	unsigned long	 c;

	if (*s++ != '"')
		return (NULL);
	for (; *s != '"'; s++) {
		if (*s == '\0')
			return (NULL);
		if (*s != '\\') {
			buf_putc(out, *s);
			continue;
		}
		s++;
		if (*s == 'u') {
			if (strspn(s + 1, "0123456789abcdefABCDEF") < 4)
				return (NULL);
			memcpy(hex, s + 1, 4);
			hex[4] = '\0';
			c = strtoul(hex, NULL, 16);
			buf_utf8(out, c);
			s += 4;
			continue;
		}
		for (e = esc; *e != '\0' && *e != *s; e += 2)
			continue;
		if (*s == '\0' || *e == '\0')
			return (NULL);
		buf_putc(out, e[1]);
	}
	return (s + 1);
}

/*
 * Checks that the text in quoted, refused for reason, is no legal move of
 * the position now; -1 if it is one.  A protocol breach (the answer
 * itself was bad), a text the referee may have cut and one holding a NUL
 * are not judged.
 */
int
verify_refusal(struct verify *v, struct buf *quoted, const char *reason)
{
	const char	*text = buf_str(quoted);
	static const char *const breach[] = {
		"answer too long", "answer of several lines", NULL
	};
	struct game_error err;
	struct game_move m;
	int		 legal;

	if (verify_oneof(reason, breach) || quoted->len >= REFEREE_QUOTE_MAX ||
	    strlen(text) != quoted->len)
		return (0);	/* a NUL in it: received as it was, no move */
	game_move_init(&m);
	legal = verify_parse_move(v, text, &m, &err) == 0;
	game_move_clear(&m);
	return (legal ? -1 : 0);
}
