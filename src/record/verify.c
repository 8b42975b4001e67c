/*
 * verify.c: `grundy verify FILE` (PROTOCOL.md §12.1): re-referees a
 * record file with the solver core alone, independently of grundyd.
 * Every limit (bytes of the file, of a line, digits of a number) is
 * checked before the work.  The verdict is the first wrong line in file
 * order among those that can be judged: the headers first (each on its
 * own, then the result against the other headers), then the moves and
 * refused moves in order; what only the replayed game shows (`moves`,
 * and the result against the last position) is judged only when every
 * move line is right (a wrong move leaves the game after it unknown).
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"
#include "solver/referee.h"
#include "lib/util.h"
#include "record/verify.h"
#include "record/verify-int.h"


static const char *const verify_hdr_names[VH_N] = {
	"game", "family", "start", "player1", "player2", "rated", "tc",
	"tournament", "started", "ended", "result", "status", "moves"
};

void
verify_limits_default(struct verify_limits *l)
{
	l->max_line = VERIFY_MAX_LINE;
	l->max_file = VERIFY_MAX_FILE;
	game_limits_default(&l->game);
}

/*
 * Reads the next line into v->line (without its newline); returns 1, 0
 * at the end of the text, or -1 (the verdict written) for a line over
 * the limit, without its newline at the end, or holding a NUL.
 */
static int
verify_next(struct verify *v, enum verify_verdict *rv)
{
	const char	*nl;
	size_t		 n, avail = (size_t)(v->end - v->text);

	if (avail == 0)
		return (0);
	v->lineno++;
	n = avail < v->lim->max_line ? avail : v->lim->max_line;
	if ((nl = memchr(v->text, '\n', n)) == NULL) {
		*rv = verify_wrong(v, v->lineno, n == avail ?
		    "the last line has no newline (a cut file?)" :
		    "line over %zu bytes (the limit)", v->lim->max_line);
		return (-1);
	}
	n = (size_t)(nl - v->text);
	if (memchr(v->text, '\0', n) != NULL) {
		*rv = verify_wrong(v, v->lineno, "a NUL byte in the line");
		return (-1);
	}
	free(v->line);
	v->line = xmalloc(n + 1);
	memcpy(v->line, v->text, n);
	v->line[n] = '\0';
	v->text = nl + 1;
	return (1);
}

/* Returns 1 if s has the log's time form "YYYY-MM-DDTHH:MM:SS.mmmZ". */
static int
verify_time_form(const char *s)
{
	static const char form[] = "dddd-dd-ddTdd:dd:dd.dddZ";
	size_t		 i;

	if (strcmp(s, "-") == 0)
		return (1);
	if (strlen(s) != sizeof form - 1)
		return (0);
	for (i = 0; form[i] != '\0'; i++)
		if (form[i] == 'd' ? s[i] < '0' || s[i] > '9' :
		    s[i] != form[i])
			return (0);
	return (1);
}

/* Sets v->line's "KEY VALUE": value of header k, or the verdict. */
static int
verify_header(struct verify *v, enum verify_hdr k, enum verify_verdict *rv)
{
	const char	*key = verify_hdr_names[k];
	size_t		 n = strlen(key);
	int		 r;

	if ((r = verify_next(v, rv)) < 0)
		return (-1);
	if (r == 0) {
		*rv = verify_wrong(v, v->lineno + 1, "missing header %s (a cut "
		    "file?)", key);
		return (-1);
	}
	if (strncmp(v->line, key, n) != 0 || v->line[n] != ' ' ||
	    v->line[n + 1] == '\0' || v->line[n + 1] == ' ') {
		*rv = verify_wrong(v, v->lineno, "expected the header \"%s "
		    "VALUE\" here", key);
		return (-1);
	}
	v->hdr[k] = xstrdup(v->line + n + 1);
	v->hline[k] = v->lineno;
	return (0);
}

/* Checks the start: a game of the family, in canonical form. */
static enum verify_verdict
verify_start(struct verify *v)
{
	const char	*fam = v->hdr[VH_FAMILY], *start = v->hdr[VH_START];
	struct game_error err;
	struct buf	 canon;
	size_t		 n = strlen(fam);
	int		 same;

	if (game_family_find(fam) == NULL)
		return (verify_wrong(v, v->hline[VH_FAMILY], "unknown game "
		    "family %.40s", fam));
	if (strncmp(start, fam, n) != 0 || start[n] != ' ')
		return (verify_wrong(v, v->hline[VH_START], "the start is not "
		    "a game of family %s", fam));
	if (game_parse_line(&v->game, start, &v->lim->game, &err) != 0)
		return (verify_wrong(v, v->hline[VH_START], "the start is not "
		    "a valid game: %s", err.msg));
	v->has_game = 1;
	buf_init(&canon);
	game_print(&v->game, &canon);
	same = strcmp(buf_str(&canon), start) == 0;
	buf_free(&canon);
	if (!same)
		return (verify_wrong(v, v->hline[VH_START], "the start is not "
		    "in canonical form"));
	return (VERIFY_OK);
}

/* Checks "tc BASE+INC|-" and sets the clocks. */
static int
verify_tc(struct verify *v)
{
	const char	*t = v->hdr[VH_TC];
	char		 base[24];
	const char	*plus;

	if (strcmp(t, "-") == 0)
		return (0);
	if ((plus = strchr(t, '+')) == NULL || (size_t)(plus - t) >=
	    sizeof base)
		return (-1);
	memcpy(base, t, (size_t)(plus - t));
	base[plus - t] = '\0';
	if (verify_u64(base, &v->base_ms) != 0 ||
	    verify_u64(plus + 1, &v->inc_ms) != 0 ||
	    v->base_ms > UINT64_MAX / 4000 || v->inc_ms > UINT64_MAX / 4000)
		return (-1);
	v->has_tc = 1;
	v->left[0] = v->left[1] = v->base_ms * 1000;
	return (0);
}

/* Checks the syntax of the headers that need no replay. */
static enum verify_verdict
verify_header_syntax(struct verify *v)
{
	static const char *const bits[] = { "0", "1", NULL };
	static const char *const statuses[] = {
		"live", "finished", "abandoned", NULL
	};
	const char	*sp, *r = v->hdr[VH_RESULT];
	uint64_t	 x;

	if (verify_u64(v->hdr[VH_GAME], &x) != 0)
		return (verify_wrong(v, v->hline[VH_GAME], "bad game id"));
	if (strchr(v->hdr[VH_PLAYER1], ' ') != NULL)
		return (verify_wrong(v, v->hline[VH_PLAYER1], "a player name "
		    "is one word"));
	if (strchr(v->hdr[VH_PLAYER2], ' ') != NULL)
		return (verify_wrong(v, v->hline[VH_PLAYER2], "a player name "
		    "is one word"));
	if (!verify_oneof(v->hdr[VH_RATED], bits))
		return (verify_wrong(v, v->hline[VH_RATED], "rated is 0 or 1"));
	if (verify_tc(v) != 0)
		return (verify_wrong(v, v->hline[VH_TC], "bad time control: "
		    "expected BASE_MS+INC_MS or -"));
	if (strcmp(v->hdr[VH_TOURNAMENT], "-") != 0 && ((sp = strrchr(
	    v->hdr[VH_TOURNAMENT], ' ')) == NULL || verify_u64(sp + 1, &x)))
		return (verify_wrong(v, v->hline[VH_TOURNAMENT], "bad "
		    "tournament: expected NAME SLOT or -"));
	if (!verify_time_form(v->hdr[VH_STARTED]))
		return (verify_wrong(v, v->hline[VH_STARTED], "bad time"));
	if (!verify_time_form(v->hdr[VH_ENDED]))
		return (verify_wrong(v, v->hline[VH_ENDED], "bad time"));
	if (strcmp(v->hdr[VH_ENDED], "-") != 0 &&
	    strcmp(v->hdr[VH_ENDED], v->hdr[VH_STARTED]) < 0)
		return (verify_wrong(v, v->hline[VH_ENDED], "the game ended "
		    "before it started"));
	if ((sp = strchr(r, ' ')) == NULL || sp[1] == '\0' ||
	    verify_seat_word(r, (size_t)(sp - r)) < 0)
		return (verify_wrong(v, v->hline[VH_RESULT], "bad result: "
		    "expected first|second|- REASON|- [DETAIL]"));
	if (!verify_oneof(v->hdr[VH_STATUS], statuses))
		return (verify_wrong(v, v->hline[VH_STATUS], "bad status"));
	if (verify_u64(v->hdr[VH_MOVES], &v->nmoves) != 0)
		return (verify_wrong(v, v->hline[VH_MOVES], "bad move count"));
	return (VERIFY_OK);
}

/* Reads and checks the format line and the headers. */
static enum verify_verdict
verify_headers(struct verify *v)
{
	enum verify_verdict rv = VERIFY_OK;
	char		 want[32];
	int		 k, r;

	snprintf(want, sizeof want, "%s %d", RECORD_FORMAT, RECORD_VERSION);
	if ((r = verify_next(v, &rv)) < 0)
		return (rv);
	if (r == 0 || strcmp(v->line, want) != 0)
		return (verify_wrong(v, 1, "not a record file: line 1 is not "
		    "\"%s\"", want));
	for (k = 0; k < VH_N; k++)
		if (verify_header(v, (enum verify_hdr)k, &rv) != 0)
			return (rv);
	/* Both run: the verdict is the first wrong line of the two. */
	rv = verify_header_syntax(v);
	if (verify_start(v) != VERIFY_OK || rv != VERIFY_OK)
		return (VERIFY_WRONG);
	return (verify_result_head(v));
}

/*
 * Splits "F1 F2 ... Fn REST" at single blanks into f[0..n-1] and *rest
 * (in place); returns 0, or -1 if a field is missing or empty.
 */
static int
verify_fields(char *s, char **f, int n, char **rest)
{
	int	 i;

	for (i = 0; i < n; i++) {
		f[i] = s;
		if ((s = strchr(s, ' ')) == NULL || s == f[i])
			return (-1);
		*s++ = '\0';
	}
	*rest = s;
	return (*s == '\0' || *s == ' ' ? -1 : 0);
}

/* Checks a move line's ply, player and clock fields. */
static enum verify_verdict
verify_move_fields(struct verify *v, char **f, uint64_t *time_us)
{
	uint64_t	 ply, want;
	int		 seat = verify_mover(v);

	if (verify_u64(f[0], &ply) != 0 || verify_u64(f[3], time_us) != 0)
		return (verify_wrong(v, v->lineno, "bad number in a move line: "
		    "expected move PLY PLAYER MARK TIME_US CLOCK_US MOVE"));
	if (ply != v->ply + 1)
		return (verify_wrong(v, v->lineno, "ply %s, expected %" PRIu64,
		    f[0], v->ply + 1));
	if (v->ply + 1 > v->nmoves)
		return (verify_wrong(v, v->lineno, "more moves than the "
		    "header's %" PRIu64, v->nmoves));
	if (strcmp(f[1], seat == 1 ? "1" : "2") != 0)
		return (verify_wrong(v, v->lineno, "player %s, expected %d (the "
		    "players alternate, player 1 first)", f[1], seat));
	if (!v->has_tc || verify_engine(v, seat)) {
		if (strcmp(f[4], "-") != 0)
			return (verify_wrong(v, v->lineno, "clock %s, expected "
			    "- (%s)", f[4], v->has_tc ? "the engine's clock "
			    "never runs" : "no time control"));
		return (VERIFY_OK);
	}
	want = referee_clock_after(v->left[seat - 1], *time_us, v->inc_ms);
	v->spent_us = *time_us > UINT64_MAX - v->spent_us ? UINT64_MAX :
	    v->spent_us + *time_us;
	if (verify_u64(f[4], &ply) != 0 || ply != want)
		return (verify_wrong(v, v->lineno, "clock %s, expected %" PRIu64
		    " (%" PRIu64 " before, %" PRIu64 " used, %" PRIu64
		    " ms increment)", f[4], want, v->left[seat - 1], *time_us,
		    v->inc_ms));
	v->left[seat - 1] = want;
	return (VERIFY_OK);
}

/* Checks "move PLY PLAYER MARK TIME_US CLOCK_US MOVE" and plays it. */
static enum verify_verdict
verify_move(struct verify *v)
{
	struct game_error err;
	struct game_move m;
	struct buf	 canon, mv, pos;
	enum verify_verdict rv;
	enum store_mark	 mark;
	uint64_t	 time_us;
	char		*f[5], *move;

	if (verify_fields(v->line + 5, f, 5, &move) != 0)
		return (verify_wrong(v, v->lineno, "bad move line: expected "
		    "move PLY PLAYER MARK TIME_US CLOCK_US MOVE"));
	if ((rv = verify_move_fields(v, f, &time_us)) != VERIFY_OK)
		return (rv);
	game_move_init(&m);
	buf_init(&canon);
	if (verify_parse_move(v, move, &m, &err) != 0)
		rv = verify_wrong(v, v->lineno, "illegal move %.64s: %s", move,
		    err.msg);
	else {
		game_move_print(&m, &canon);
		mark = (enum store_mark)referee_mark(&v->game, &m);
		if (strcmp(buf_str(&canon), move) != 0)
			rv = verify_wrong(v, v->lineno, "move %.64s is not in "
			    "canonical form (%.64s)", move, buf_str(&canon));
		else if (strcmp(f[2], store_mark_name(mark)) != 0)
			rv = verify_wrong(v, v->lineno, "mark %.16s is wrong: "
			    "the move is %s", f[2], store_mark_name(mark));
		else {
			/* Printed as the referee logs it: max-game-bytes. */
			buf_init(&mv);
			buf_init(&pos);
			if (game_play_print(&v->game, &m, &mv, &pos, &err) != 0)
				rv = verify_wrong(v, v->lineno, "move %.64s: %s",
				    move, err.msg);
			else {
				v->ply++;
				v->bytes += mv.len + pos.len;
			}
			buf_free(&mv);
			buf_free(&pos);
		}
	}
	buf_free(&canon);
	game_move_clear(&m);
	return (rv);
}

/* Checks "refused PLY PLAYER TIME_MS DELAY_US "MOVE" REASON". */
static enum verify_verdict
verify_refused(struct verify *v)
{
	enum verify_verdict rv = VERIFY_OK;
	struct buf	 text;
	const char	*reason;
	char		*f[4], *rest;
	uint64_t	 ply, x;

	if (verify_fields(v->line + 8, f, 4, &rest) != 0 ||
	    verify_u64(f[0], &ply) != 0 || verify_u64(f[2], &x) != 0 ||
	    (strcmp(f[3], "-") != 0 && verify_u64(f[3], &x) != 0))
		return (verify_wrong(v, v->lineno, "bad refused line: expected "
		    "refused PLY PLAYER TIME_MS DELAY_US \"MOVE\" REASON"));
	if (ply != v->ply + 1)
		return (verify_wrong(v, v->lineno, "refused move for ply %s, "
		    "expected %" PRIu64, f[0], v->ply + 1));
	if (strcmp(f[1], verify_mover(v) == 1 ? "1" : "2") != 0)
		return (verify_wrong(v, v->lineno, "player %s, expected %d", f[1],
		    verify_mover(v)));
	buf_init(&text);
	if ((reason = verify_unquote(rest, &text)) == NULL ||
	    reason[0] != ' ' || reason[1] == '\0')
		rv = verify_wrong(v, v->lineno, "bad refused move: expected "
		    "\"MOVE\" REASON");
	else if (verify_refusal(v, &text, reason + 1) != 0)
		rv = verify_wrong(v, v->lineno, "the refused move %.64s is "
		    "legal here", buf_str(&text));
	buf_free(&text);
	return (rv);
}

/* Reads the body: moves and refused moves, then "end", then nothing. */
static enum verify_verdict
verify_body(struct verify *v)
{
	enum verify_verdict rv = VERIFY_OK;
	int		 r;

	while ((r = verify_next(v, &rv)) > 0) {
		if (strncmp(v->line, "move ", 5) == 0)
			rv = verify_move(v);
		else if (strncmp(v->line, "refused ", 8) == 0)
			rv = verify_refused(v);
		else if (strcmp(v->line, "end") == 0)
			break;
		else
			rv = verify_wrong(v, v->lineno, "expected a move, a "
			    "refused move or end");
		if (rv != VERIFY_OK)
			return (rv);
	}
	if (r < 0)
		return (rv);
	if (r == 0)
		return (verify_wrong(v, v->lineno + 1, "missing end line (a cut "
		    "file?)"));
	if (v->text != v->end)
		return (verify_wrong(v, v->lineno + 1, "text after the end "
		    "line"));
	return (verify_end(v));
}

/*
 * Verifies the record file text (len bytes; name names it in the
 * verdict): appends "ok N moves" or "NAME:LINE: REASON" to out.
 */
enum verify_verdict
verify_text(const char *name, const char *text, size_t len,
    const struct verify_limits *lim, struct buf *out)
{
	struct verify	 v;
	enum verify_verdict rv;
	int		 k;

	memset(&v, 0, sizeof v);
	buf_init(&v.wmsg);
	v.name = name;
	v.lim = lim;
	v.out = out;
	v.text = text;
	v.end = text + len;
	if (len > lim->max_file) {
		buf_printf(out, "%s: over %zu bytes (the limit)\n", name,
		    lim->max_file);
		return (VERIFY_UNREADABLE);
	}
	if ((rv = verify_headers(&v)) == VERIFY_OK &&
	    (rv = verify_body(&v)) == VERIFY_OK)
		buf_printf(out, "ok %" PRIu64 " moves\n", v.ply);
	else if (rv == VERIFY_WRONG)
		buf_puts(out, buf_str(&v.wmsg));
	buf_free(&v.wmsg);
	if (v.has_game)
		game_free(&v.game);
	for (k = 0; k < VH_N; k++)
		free(v.hdr[k]);
	free(v.line);
	return (rv);
}

/*
 * Verifies the file at path: its size is checked before it is read.
 * Appends the verdict to out ("PATH: REASON" if it cannot be read).
 */
static enum verify_verdict
verify_file(const char *path, const struct verify_limits *lim,
    struct buf *out)
{
	enum verify_verdict rv;
	struct stat	 sb;
	struct buf	 text;
	char		 chunk[65536];
	ssize_t		 n;
	int		 fd;

	/* O_NONBLOCK: a FIFO is refused below, not waited on in open. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK)) < 0 ||
	    fstat(fd, &sb) != 0) {
		buf_printf(out, "%s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return (VERIFY_UNREADABLE);
	}
	if (!S_ISREG(sb.st_mode) || (uintmax_t)sb.st_size > lim->max_file) {
		buf_printf(out, "%s: %s\n", path, !S_ISREG(sb.st_mode) ?
		    "not a regular file" : "over the size limit (--max-bytes)");
		close(fd);
		return (VERIFY_UNREADABLE);
	}
	buf_init(&text);
	while ((n = read(fd, chunk, sizeof chunk)) > 0 &&
	    text.len + (size_t)n <= lim->max_file)
		buf_add(&text, chunk, (size_t)n);
	if (n != 0) {
		buf_printf(out, "%s: %s\n", path, n < 0 ? strerror(errno) :
		    "over the size limit (--max-bytes)");
		rv = VERIFY_UNREADABLE;
	} else
		rv = verify_text(path, text.len ? text.data : "", text.len, lim,
		    out);
	buf_free(&text);
	close(fd);
	return (rv);
}

/* Parses a size option's value (1 ..) or returns 0. */
static size_t
verify_size_arg(const char *s)
{
	uint64_t	 x;

	if (s == NULL || verify_u64(s, &x) != 0 || x == 0 || x > SIZE_MAX / 2)
		return (0);
	return ((size_t)x);
}

/* grundy verify [--max-bytes N] [--max-line N] [--max-digits N] FILE */
int
verify_main(int argc, char **argv)
{
	static const char usage[] = "usage: grundy verify [--max-bytes N] "
	    "[--max-line N] [--max-digits N] FILE\n";
	struct verify_limits lim;
	struct buf	 out;
	enum verify_verdict rv;
	size_t		*opt, x;
	int		 a;

	verify_limits_default(&lim);
	for (a = 1; a < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
		if (strcmp(argv[a], "--help") == 0) {
			fputs(usage, stdout);
			return (0);
		}
		opt = strcmp(argv[a], "--max-bytes") == 0 ? &lim.max_file :
		    strcmp(argv[a], "--max-line") == 0 ? &lim.max_line :
		    strcmp(argv[a], "--max-digits") == 0 ?
		    &lim.game.max_digits : NULL;
		if (opt == NULL || (x = verify_size_arg(argv[a + 1])) == 0) {
			fprintf(stderr, "grundy verify: bad option %s\n%s",
			    argv[a], usage);
			return (2);
		}
		*opt = x;
	}
	if (a != argc - 1) {
		fputs(usage, stderr);
		return (2);
	}
	buf_init(&out);
	rv = verify_file(argv[a], &lim, &out);
	fputs(buf_str(&out), rv == VERIFY_UNREADABLE ? stderr : stdout);
	buf_free(&out);
	return ((int)rv);
}
