/*
 * verify-result.c: how `grundy verify` judges a record's result
 * (PROTOCOL.md §12.1): every reason grundyd, grundy match and the
 * tournaments write, first against the other headers (before any move is
 * read), then against the replayed game.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "solver/referee.h"
#include "lib/util.h"
#include "record/verify-int.h"

#define VERIFY_REASON_MAX	200	/* bytes of an admin's reason (§13.9) */
#define VERIFY_FORFEIT_MAX	86400	/* seconds of a forfeit's wait */

/* How a reason's result is judged (PROTOCOL.md §12.1). */
enum vr_winner { VR_SEAT, VR_NONE, VR_ANY, VR_NOT_MOVER, VR_BOARD };
enum vr_detail { VD_NONE, VD_MOVE, VD_ADMIN, VD_ADJ, VD_CRASH, VD_ABSENT,
	VD_LIMIT, VD_PLIES, VD_BYTES };

/* Every reason of a finished game that grundyd and grundy match write. */
static const struct verify_reason {
	const char	*name;
	enum vr_winner	 winner;
	enum vr_detail	 detail;
	int		 nomoves;	/* a game without moves */
	const char	*noun;		/* in the verdict */
} verify_reasons[] = {
	{ "no-legal-move", VR_BOARD, VD_NONE, 0, "no-legal-move" },
	{ "last-token-taken", VR_BOARD, VD_NONE, 0, "last-token-taken" },
	{ "resign", VR_SEAT, VD_NONE, 0, "a resignation" },
	{ "timeout", VR_NOT_MOVER, VD_NONE, 0, "timeout" },
	{ "illegal-move", VR_NOT_MOVER, VD_MOVE, 0, "an illegal-move result" },
	{ "aborted", VR_NONE, VD_ADMIN, 0, "an aborted game" },
	{ "adjudicated", VR_SEAT, VD_ADJ, 0, "adjudicated" },
	{ "crash", VR_SEAT, VD_CRASH, 0, "crash" },
	{ "start-timeout", VR_ANY, VD_NONE, 1, "start-timeout" },
	{ "forfeit", VR_SEAT, VD_ABSENT, 1, "forfeit" },
	/* A sandbox limit (grundy match --sandbox): as a crash, no detail. */
	{ "memory-limit", VR_SEAT, VD_LIMIT, 0, "memory-limit" },
	{ "process-limit", VR_SEAT, VD_LIMIT, 0, "process-limit" },
	{ "forbidden-syscall", VR_SEAT, VD_LIMIT, 0, "forbidden-syscall" },
	{ "output-limit", VR_SEAT, VD_LIMIT, 0, "output-limit" },
	{ "ply-limit", VR_ANY, VD_PLIES, 0, "ply-limit" },
	{ "byte-limit", VR_ANY, VD_BYTES, 0, "byte-limit" },
};

/* The result line's parts: winner (0: none), reason, detail (or NULL). */
struct verify_result {
	int		 winner;
	char		 reason[64];
	const char	*detail;
	const struct verify_reason *how;	/* NULL: "-" or unknown */
};

/* Splits the result header (its syntax was checked). */
static void
verify_result_split(const struct verify *v, struct verify_result *r)
{
	const char	*s = v->hdr[VH_RESULT], *w = strchr(s, ' ') + 1;
	size_t		 n = strcspn(w, " "), i;

	r->winner = verify_seat_word(s, (size_t)(w - 1 - s));
	snprintf(r->reason, sizeof r->reason, "%.*s", (int)(n < 63 ? n : 63),
	    w);
	r->detail = w[n] == ' ' ? w + n + 1 : NULL;
	r->how = NULL;
	for (i = 0; i < nitems(verify_reasons); i++)
		if (n < 63 && strcmp(r->reason, verify_reasons[i].name) == 0)
			r->how = &verify_reasons[i];
}

/* Returns 1 if s is "by ADMIN: REASON" as lobby_end writes it (§13.9). */
static int
verify_admin_detail(const char *s)
{
	size_t	 n;

	if (strncmp(s, "by ", 3) != 0)
		return (0);
	s += 3;
	n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_-.");
	if (n == 0 || n > 32 || strncmp(s + n, ": ", 2) != 0)
		return (0);
	s += n + 2;
	return (*s != '\0' && strlen(s) <= VERIFY_REASON_MAX);
}

/* Returns 1 if s is "PREFIX N" with N a number in lo..hi. */
static int
verify_prefixed(const char *s, const char *prefix, uint64_t lo, uint64_t hi,
    uint64_t *n)
{
	size_t	 k = strlen(prefix);

	return (strncmp(s, prefix, k) == 0 && verify_u64(s + k, n) == 0 &&
	    *n >= lo && *n <= hi);
}

/* Checks a forfeit's detail: "LOSER was absent for SECONDS s". */
static int
verify_absent_detail(const struct verify *v, const struct verify_result *r)
{
	const char	*d = r->detail, *loser;
	size_t		 n, len;
	uint64_t	 x;
	char		 num[24];

	loser = v->hdr[r->winner == 1 ? VH_PLAYER2 : VH_PLAYER1];
	n = strlen(loser);
	if (strncmp(d, loser, n) != 0 || strncmp(d + n, " was absent for ",
	    16) != 0)
		return (0);
	d += n + 16;
	len = strlen(d);
	if (len < 3 || len - 2 >= sizeof num || strcmp(d + len - 2, " s") != 0)
		return (0);
	memcpy(num, d, len - 2);
	num[len - 2] = '\0';
	return (verify_u64(num, &x) == 0 && x >= 1 && x <= VERIFY_FORFEIT_MAX);
}

/* Checks a detail's form for its reason; NULL, or what is wrong. */
static const char *
verify_detail_form(const struct verify *v, const struct verify_result *r)
{
	uint64_t	 x;
	const char	*d = r->detail;

	switch (r->how->detail) {
	case VD_NONE:
	case VD_LIMIT:
		return (d == NULL ? NULL : "has no detail");
	case VD_MOVE:	/* its move is judged on the replayed game */
		return (d != NULL ? NULL : "needs its detail \"MOVE\" REASON");
	case VD_ADMIN:
		return (d != NULL && verify_admin_detail(d) ? NULL :
		    "needs its detail \"by ADMIN: REASON\"");
	case VD_ADJ:
		return (d != NULL && (verify_admin_detail(d) ||
		    verify_prefixed(d, "by the solver at ply ", 0, UINT64_MAX,
		    &x)) ? NULL : "needs its detail \"by ADMIN: REASON\" or "
		    "\"by the solver at ply N\"");
	case VD_CRASH:
		return (d != NULL && (strcmp(d, "closed its output") == 0 ||
		    verify_prefixed(d, "exited with status ", 0, 255, &x) ||
		    verify_prefixed(d, "killed by signal ", 1, 127, &x)) ?
		    NULL : "needs its detail \"closed its output\", \"exited with "
		    "status N\" or \"killed by signal N\"");
	case VD_ABSENT:
		return (d != NULL && verify_absent_detail(v, r) ? NULL :
		    "needs its detail \"LOSER was absent for SECONDS s\" "
		    "(SECONDS 1..86400)");
	case VD_PLIES:
		return (d != NULL && verify_prefixed(d, "max-plies ", 1,
		    UINT64_MAX, &x) ? NULL : "needs its detail \"max-plies "
		    "N\"");
	case VD_BYTES:
		return (d != NULL && verify_prefixed(d, "max-game-bytes ", 1,
		    UINT64_MAX, &x) ? NULL : "needs its detail "
		    "\"max-game-bytes B\"");
	}
	return (NULL);
}

/*
 * A loss a player may declare of its own game (resign GAME_ID REASON
 * [DETAIL], PROTOCOL.md §13.4): `crash` with its DETAIL, or a sandbox
 * limit without one, checked as a record's result line is.  Returns the
 * reason's name (static), or NULL with *why set.
 */
const char *
verify_own_loss(const char *reason, const char *detail, const char **why)
{
	struct verify_result r;
	size_t		 i;

	memset(&r, 0, sizeof r);
	for (i = 0; i < nitems(verify_reasons); i++)
		if (strcmp(reason, verify_reasons[i].name) == 0 &&
		    (verify_reasons[i].detail == VD_CRASH ||
		    verify_reasons[i].detail == VD_LIMIT))
			r.how = &verify_reasons[i];
	if (r.how == NULL) {
		*why = "a reason is memory-limit, process-limit, "
		    "forbidden-syscall, output-limit or crash";
		return (NULL);
	}
	r.detail = detail;
	if ((*why = verify_detail_form(NULL, &r)) != NULL)
		return (NULL);
	return (r.how->name);
}

/* Checks what the headers alone show of a finished game's result. */
static enum verify_verdict
verify_head_finished(struct verify *v, const struct verify_result *r)
{
	unsigned long	 line = v->hline[VH_RESULT];
	const char	*bad;

	if (strcmp(v->hdr[VH_ENDED], "-") == 0)	/* line 11, before 12 */
		return (verify_wrong(v, v->hline[VH_ENDED], "a finished game "
		    "has ended"));
	if (strcmp(r->reason, "-") == 0)
		return (verify_wrong(v, line, "a finished game has a reason"));
	if (r->how == NULL)
		return (verify_wrong(v, line, "unknown reason %.40s",
		    r->reason));
	if (r->how->winner == VR_NONE && r->winner != 0)
		return (verify_wrong(v, line, "%s has no winner",
		    r->how->noun));
	if ((r->how->winner == VR_SEAT || r->how->winner == VR_NOT_MOVER ||
	    r->how->winner == VR_BOARD) && r->winner == 0)
		return (verify_wrong(v, line, "%s has a winner", r->how->noun));
	if ((bad = verify_detail_form(v, r)) != NULL)
		return (verify_wrong(v, line, "%s %s", r->how->noun, bad));
	if (r->how->nomoves && v->nmoves != 0)
		return (verify_wrong(v, line, "a %s game has no moves (moves "
		    "%" PRIu64 ")", r->reason, v->nmoves));
	if (strcmp(r->reason, "forfeit") == 0 && (strcmp(v->hdr[VH_RATED],
	    "0") != 0 || strcmp(v->hdr[VH_TOURNAMENT], "-") == 0))
		return (verify_wrong(v, line, "a forfeit is an unrated "
		    "tournament game"));
	if (strcmp(r->reason, "timeout") == 0 && !v->has_tc)
		return (verify_wrong(v, line, "a timeout needs a time control "
		    "(tc -)"));
	return (VERIFY_OK);
}

/*
 * Checks what the headers alone show of the result and status, before
 * any move is read: the verdict then names the first wrong line.
 */
enum verify_verdict
verify_result_head(struct verify *v)
{
	struct verify_result r;
	const char	*status = v->hdr[VH_STATUS];

	verify_result_split(v, &r);
	if (strcmp(status, "live") == 0) {
		if (strcmp(v->hdr[VH_ENDED], "-") != 0)
			return (verify_wrong(v, v->hline[VH_ENDED], "a live "
			    "game has not ended"));
		if (r.winner != 0 || strcmp(r.reason, "-") != 0 ||
		    r.detail != NULL)
			return (verify_wrong(v, v->hline[VH_RESULT], "a live "
			    "game has no result yet"));
		return (VERIFY_OK);
	}
	if (strcmp(status, "abandoned") == 0)
		return (VERIFY_OK);	/* its last moves may be lost (§12) */
	return (verify_head_finished(v, &r));
}

/* Checks the result of a game whose last position is over. */
static enum verify_verdict
verify_result_over(struct verify *v, const struct verify_result *r)
{
	const char	*want;
	int		 mover = verify_mover(v), winner;

	(void)referee_over(&v->game, mover, &winner, &want);
	if (r->winner != winner || strcmp(r->reason, want) != 0)
		return (verify_wrong(v, v->hline[VH_RESULT], "wrong result: "
		    "player %d cannot move after ply %" PRIu64 ", so the "
		    "result is %s %s", mover, v->ply, winner == 1 ? "first" :
		    "second", want));
	return (VERIFY_OK);
}

/* Checks an illegal-move result's detail: "MOVE" REASON, really illegal. */
static enum verify_verdict
verify_result_illegal(struct verify *v, const struct verify_result *r)
{
	enum verify_verdict rv = VERIFY_OK;
	struct buf	 text;
	const char	*reason;

	buf_init(&text);
	if ((reason = verify_unquote(r->detail, &text)) == NULL ||
	    reason[0] != ' ' || reason[1] == '\0')
		rv = verify_wrong(v, v->hline[VH_RESULT], "an illegal-move "
		    "result needs its detail \"MOVE\" REASON");
	else if (verify_refusal(v, &text, reason + 1) != 0)
		rv = verify_wrong(v, v->hline[VH_RESULT], "wrong result: the "
		    "move %.64s is legal after ply %" PRIu64, buf_str(&text),
		    v->ply);
	buf_free(&text);
	return (rv);
}

/* Checks "adjudicated by the solver at ply N": N, and its winner. */
static enum verify_verdict
verify_result_solver(struct verify *v, const struct verify_result *r)
{
	struct game_error err;
	uint64_t	 n;
	int		 out, mover = verify_mover(v), winner;

	if (!verify_prefixed(r->detail, "by the solver at ply ", 0,
	    UINT64_MAX, &n))
		return (VERIFY_OK);	/* an admin's ruling (§13.9) */
	if (n != v->ply)
		return (verify_wrong(v, v->hline[VH_RESULT], "wrong result: "
		    "adjudicated at ply %" PRIu64 ", the game has %" PRIu64
		    " moves", n, v->ply));
	if ((out = game_outcome(&v->game, &err)) < 0)
		return (verify_wrong(v, v->hline[VH_RESULT], "the solver "
		    "cannot judge the position after ply %" PRIu64 ": %s", v->ply,
		    err.msg));
	winner = out == GAME_N ? mover : 3 - mover;
	if (r->winner != winner)
		return (verify_wrong(v, v->hline[VH_RESULT], "wrong result: "
		    "player %d to move after ply %" PRIu64 " %s under perfect "
		    "play, so the solver's result is %s adjudicated", mover,
		    v->ply, out == GAME_N ? "wins" : "loses", winner == 1 ?
		    "first" : "second"));
	return (VERIFY_OK);
}

/*
 * Checks a bound's result (ply-limit, byte-limit, §12.1): the bound was
 * reached (a bound lowered during the game ends it at its next move, so
 * it may have been passed before), and the winner is the solver's, or
 * none if the solver cannot judge the position.
 */
static enum verify_verdict
verify_result_bound(struct verify *v, const struct verify_result *r)
{
	struct game_error err;
	uint64_t	 n;
	int		 out, mover = verify_mover(v), winner;

	if (r->how->detail == VD_PLIES) {
		(void)verify_prefixed(r->detail, "max-plies ", 1, UINT64_MAX,
		    &n);
		if (n > v->ply)
			return (verify_wrong(v, v->hline[VH_RESULT], "wrong "
			    "result: max-plies %" PRIu64 " is not reached: the "
			    "game has %" PRIu64 " moves", n, v->ply));
	} else {
		(void)verify_prefixed(r->detail, "max-game-bytes ", 1,
		    UINT64_MAX, &n);
		if (v->bytes < n)
			return (verify_wrong(v, v->hline[VH_RESULT], "wrong "
			    "result: max-game-bytes %" PRIu64 " is not reached: "
			    "its moves and positions have %" PRIu64 " bytes", n,
			    v->bytes));
	}
	out = game_outcome(&v->game, &err);
	winner = out < 0 ? 0 : out == GAME_N ? mover : 3 - mover;
	if (r->winner != winner)
		return (verify_wrong(v, v->hline[VH_RESULT], "wrong result: "
		    "the solver's verdict after ply %" PRIu64 " is %s", v->ply,
		    winner == 0 ? "none (it cannot judge the position)" :
		    winner == 1 ? "first" : "second"));
	return (VERIFY_OK);
}

/*
 * Parses "YYYY-MM-DDTHH:MM:SS.mmmZ" (its form checked) into milliseconds
 * since 1970 (proleptic Gregorian calendar, days from the civil date).
 */
static int64_t
verify_time_ms(const char *s)
{
	int64_t	 y = atoi(s), m = atoi(s + 5), d = atoi(s + 8), era, yoe,
		 doy, doe;

	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (((era * 146097 + doe - 719468) * 86400 + atoi(s + 11) * 3600 +
	    atoi(s + 14) * 60 + atoi(s + 17)) * 1000 + atoi(s + 20));
}

/*
 * Checks a timeout against the clocks: the player to move (who lost) is
 * not the engine, and the game lasted at least the charged time of every
 * move plus what the loser's clock had left (the grace is not known).
 */
static enum verify_verdict
verify_result_timeout(struct verify *v)
{
	int		 mover = verify_mover(v);
	int64_t		 ms;
	uint64_t	 need;

	if (verify_engine(v, mover))
		return (verify_wrong(v, v->hline[VH_RESULT], "wrong result: "
		    "the engine (player %d, to move) has no clock to run out",
		    mover));
	/*
	 * A CPU-time clock: the charged times are CPU time, which a turn can
	 * spend faster than the wall clock (threads), and a turn over its
	 * wall bound loses with CPU time left: the length proves nothing.
	 */
	if (strcmp(v->hdr[VH_STARTED], "-") == 0 || v->cpu_clock)
		return (VERIFY_OK);
	ms = verify_time_ms(v->hdr[VH_ENDED]) - verify_time_ms(
	    v->hdr[VH_STARTED]) + 1;	/* each stamp is cut to the ms */
	need = v->spent_us + v->left[mover - 1];
	if (need < v->spent_us || need / 1000 > (uint64_t)ms ||
	    (need / 1000 == (uint64_t)ms && need % 1000 != 0))
		return (verify_wrong(v, v->hline[VH_RESULT], "wrong result: "
		    "player %d had %" PRIu64 " us left after %" PRIu64 " us of "
		    "charged moves, so a timeout ends the game after at least "
		    "%" PRIu64 " us, not in %" PRId64 " ms", mover,
		    v->left[mover - 1], v->spent_us, need, ms - 1));
	return (VERIFY_OK);
}

/* Checks the result of a finished game against the replayed game. */
static enum verify_verdict
verify_result_game(struct verify *v, const struct verify_result *r)
{
	int		 mover = verify_mover(v);

	/* Never started (a crash or a limit at ply 0): not judged. */
	if (r->how->nomoves || ((r->how->detail == VD_CRASH ||
	    r->how->detail == VD_LIMIT) && v->ply == 0))
		return (VERIFY_OK);
	if (game_terminal(&v->game))
		return (verify_result_over(v, r));
	if (r->how->winner == VR_BOARD)
		return (verify_wrong(v, v->hline[VH_RESULT], "wrong result: "
		    "player %d has a legal move after ply %" PRIu64, mover,
		    v->ply));
	if (r->how->winner == VR_NOT_MOVER && r->winner != 3 - mover)
		return (verify_wrong(v, v->hline[VH_RESULT], "wrong result: "
		    "player %d was to move, so %s wins by %s", mover,
		    mover == 1 ? "second" : "first", r->reason));
	if (r->how->detail == VD_MOVE)
		return (verify_result_illegal(v, r));
	if (r->how->detail == VD_ADJ)
		return (verify_result_solver(v, r));
	if (r->how->detail == VD_PLIES || r->how->detail == VD_BYTES)
		return (verify_result_bound(v, r));
	if (strcmp(r->reason, "timeout") == 0)
		return (verify_result_timeout(v));
	return (VERIFY_OK);
}

/* Checks moves, then the result, once every move is replayed. */
enum verify_verdict
verify_end(struct verify *v)
{
	struct verify_result r;

	if (v->ply != v->nmoves)
		return (verify_wrong(v, v->hline[VH_MOVES], "the header says "
		    "%" PRIu64 " moves, the file has %" PRIu64, v->nmoves,
		    v->ply));
	if (strcmp(v->hdr[VH_STATUS], "finished") != 0)
		return (VERIFY_OK);	/* judged on the headers alone */
	verify_result_split(v, &r);
	return (verify_result_game(v, &r));
}
