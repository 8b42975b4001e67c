/*
 * test-record.c: the record file and its JSON (record.c) on a
 * hand-written record; grundy verify (verify.c) on it and on copies
 * edited to be wrong, each naming its exact line; its limits; and the
 * paged, filtered history of the log (store_history_page) with exact ids
 * and its query plans.
 */
#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "testutil.h"
#include "testdb.h"

#include "lib/buf.h"
#include "record/record.h"
#include "store/store.h"
#include "store/store-int.h"
#include "lib/util.h"
#include "record/verify.h"

/* The hand-written record: nim 1 2 with a clock, a refused move. */
static char m1[] = "2=1", m2[] = "1=0", m3[] = "2=0", f1[] = "9=9";
static char p1[] = "nim 1 1", p2[] = "nim 0 1", p3[] = "nim 0 0";
static char why[] = "no such pile", fam[] = "nim", start[] = "nim 1 2";
static char alice[] = "alice", bob[] = "bob", engine[] = RECORD_ENGINE;
static char nlm[] = "no-legal-move", detail[] = "a \"quoted\" detail";
static struct store_rmove rmoves[] = {
	{ 1, 1, m1, p1, STORE_KEPT_WIN, 250, 1, 80, 250000,
	    0, 0, 0, 0, 0, 0 },
	{ 2, 2, m2, p2, STORE_NO_WIN, 1200, 0, 0, 1200000,
	    0, 0, 0, 0, 0, 0 },
	{ 3, 1, m3, p3, STORE_KEPT_WIN, 0, 1, 90, 0,
	    0, 0, 0, 0, 0, 0 },
};
static struct store_rrefused rrefused[] = {
	{ 2, 2, f1, why, 3, 1, 410, 0 },
};

static void
hand_record(struct store_record *r)
{
	memset(r, 0, sizeof *r);
	r->game.id = 7;
	r->game.family = fam;
	r->game.game = start;
	r->game.player1 = alice;
	r->game.player2 = bob;
	r->game.started_ms = INT64_C(1763703480123);
	r->game.ended_ms = INT64_C(1763703489456);
	r->game.status = STORE_FINISHED;
	r->game.result = STORE_RESULT_FIRST;
	r->game.reason = nlm;
	r->game.rated = 1;
	r->game.has_tc = 1;
	r->game.tc_base_ms = 1000;
	r->game.tc_inc_ms = 100;
	r->game.tournament = 3;
	r->game.slot = 2;
	r->moves = rmoves;
	r->nmoves = 3;
	r->refused = rrefused;
	r->nrefused = 1;
}

static const char hand_file[] =
    "grundy-record 1\n"				/* 1 */
    "game 7\n"
    "family nim\n"
    "start nim 1 2\n"
    "player1 alice\n"				/* 5 */
    "player2 bob\n"
    "rated 1\n"
    "tc 1000+100\n"
    "tournament cup 2\n"
    "started 2025-11-21T05:38:00.123Z\n"	/* 10 */
    "ended 2025-11-21T05:38:09.456Z\n"
    "result first no-legal-move\n"
    "status finished\n"
    "moves 3\n"
    "move 1 1 kept-win 250000 850000 2=1\n"	/* 15 */
    "refused 2 2 3 410 \"9=9\" no such pile\n"
    "move 2 2 no-win 1200000 100000 1=0\n"
    "move 3 1 kept-win 0 950000 2=0\n"
    "end\n";					/* 19 */

/* The file of the hand-written record, exactly. */
static void
test_render_file(void **state)
{
	struct store_record r;
	struct buf	 b;

	(void)state;
	hand_record(&r);
	buf_init(&b);
	record_file(&b, &r, "cup");
	assert_string_equal(buf_str(&b), hand_file);
	/* No time control, no tournament, live, the engine: dashes. */
	r.game.has_tc = 0;
	r.game.tournament = 0;
	r.game.status = STORE_LIVE;
	r.game.result = STORE_RESULT_NONE;
	r.game.reason = NULL;
	r.game.ended_ms = STORE_TIME_NONE;
	r.nmoves = 1;
	r.nrefused = 0;
	buf_reset(&b);
	record_file(&b, &r, NULL);
	assert_string_equal(buf_str(&b), "grundy-record 1\ngame 7\n"
	    "family nim\nstart nim 1 2\nplayer1 alice\nplayer2 bob\nrated 1\n"
	    "tc -\ntournament -\nstarted 2025-11-21T05:38:00.123Z\nended -\n"
	    "result - -\nstatus live\nmoves 1\n"
	    "move 1 1 kept-win 250000 - 2=1\nend\n");
	r.game.has_tc = 1;
	r.game.player1 = engine;
	buf_reset(&b);
	record_file(&b, &r, NULL);
	assert_non_null(strstr(buf_str(&b), "\nmove 1 1 kept-win 250000 - "
	    "2=1\n"));
	buf_free(&b);
}

/* The JSON of the hand-written record, exactly. */
static void
test_render_json(void **state)
{
	struct store_record r;
	struct buf	 b;

	(void)state;
	hand_record(&r);
	r.game.detail = detail;
	buf_init(&b);
	record_json(&b, &r, "cup");
	assert_string_equal(buf_str(&b), "{\"format\":\"grundy-record\","
	    "\"version\":1,\"game\":{\"id\":7,\"family\":\"nim\",\"start\":"
	    "\"nim 1 2\",\"player1\":\"alice\",\"player2\":\"bob\","
	    "\"status\":\"finished\",\"result\":\"first\",\"winner\":"
	    "\"alice\",\"reason\":\"no-legal-move\",\"detail\":"
	    "\"a \\\"quoted\\\" detail\",\"rated\":true,\"tc\":{\"base_ms\":"
	    "1000,\"inc_ms\":100},\"tournament\":\"cup\",\"slot\":2,"
	    "\"started\":\"2025-11-21T05:38:00.123Z\",\"ended\":"
	    "\"2025-11-21T05:38:09.456Z\"},\"moves\":["
	    "{\"ply\":1,\"player\":1,\"move\":\"2=1\",\"position\":\"nim 1 1\","
	    "\"mark\":\"kept-win\",\"time_ms\":250,\"time_us\":250000,"
	    "\"delay_us\":80,\"clock_us\":850000},"
	    "{\"ply\":2,\"player\":2,\"move\":\"1=0\",\"position\":\"nim 0 1\","
	    "\"mark\":\"no-win\",\"time_ms\":1200,\"time_us\":1200000,"
	    "\"delay_us\":null,\"clock_us\":100000},"
	    "{\"ply\":3,\"player\":1,\"move\":\"2=0\",\"position\":\"nim 0 0\","
	    "\"mark\":\"kept-win\",\"time_ms\":0,\"time_us\":0,"
	    "\"delay_us\":90,\"clock_us\":950000}],"
	    "\"refused\":[{\"ply\":2,\"player\":2,\"move\":\"9=9\",\"reason\":"
	    "\"no such pile\",\"time_ms\":3,\"delay_us\":410}]}\n");
	buf_free(&b);
}

/* Returns text with line n (from 1) replaced by with (NULL: deleted). */
static char *
edit_line(const char *text, int n, const char *with)
{
	struct buf	 b;
	const char	*p = text, *nl;
	char		*s;
	int		 i;

	buf_init(&b);
	for (i = 1; *p != '\0'; i++, p = nl + 1) {
		nl = strchr(p, '\n');
		if (i != n)
			buf_add(&b, p, (size_t)(nl - p + 1));
		else if (with != NULL)
			buf_printf(&b, "%s\n", with);
	}
	s = xstrdup(buf_str(&b));
	buf_free(&b);
	return (s);
}

/* Verifies text; checks the verdict and that the output starts with want. */
static void
verdict(const char *text, const struct verify_limits *lim,
    enum verify_verdict want, const char *out)
{
	struct buf	 b;
	enum verify_verdict v;

	buf_init(&b);
	v = verify_text("F", text, strlen(text), lim, &b);
	if (v != want || strncmp(buf_str(&b), out, strlen(out)) != 0)
		fail_msg("verdict %d \"%s\", expected %d \"%s...\" for:\n%s",
		    (int)v, buf_str(&b), (int)want, out, text);
	buf_free(&b);
}

/* The hand-written file is right; each edit names its line. */
static void
test_verify_edits(void **state)
{
	static const struct {
		int		 line;
		const char	*with;
		const char	*out;
	} edits[] = {
		{ 17, "move 2 2 no-win 1200000 100000 1=2",
		    "F:17: illegal move 1=2: " },
		{ 15, "move 1 1 threw-win 250000 850000 2=1",
		    "F:15: mark threw-win is wrong: the move is kept-win\n" },
		{ 18, "move 3 1 no-win 0 950000 2=0",
		    "F:18: mark no-win is wrong: the move is kept-win\n" },
		{ 17, "move 2 2 no-win 1200000 100001 1=0",
		    "F:17: clock 100001, expected 100000 (1000000 before, "
		    "1200000 used, 100 ms increment)\n" },
		{ 17, "move 2 2 no-win 1200000 - 1=0", "F:17: clock -, " },
		{ 12, "result second no-legal-move",
		    "F:12: wrong result: player 2 cannot move after ply 3, so "
		    "the result is first no-legal-move\n" },
		{ 12, "result first resign",
		    "F:12: wrong result: player 2 cannot move after ply 3, " },
		{ 16, "refused 2 2 3 410 \"1=0\" no such pile",
		    "F:16: the refused move 1=0 is legal here\n" },
		{ 16, "refused 3 2 3 410 \"9=9\" no such pile",
		    "F:16: refused move for ply 3, expected 2\n" },
		{ 14, "moves 4", "F:14: the header says 4 moves, the file "
		    "has 3\n" },
		{ 14, "moves 2", "F:18: more moves than the header's 2\n" },
		{ 15, "move 2 1 kept-win 250000 850000 2=1",
		    "F:15: ply 2, expected 1\n" },
		{ 17, "move 2 1 no-win 1200000 100000 1=0",
		    "F:17: player 1, expected 2 " },
		{ 17, "move 2 2 no-win 1200000 100000 1=0 ",
		    "F:17: move 1=0  is not in canonical form (1=0)\n" },
		{ 15, "move 1 1 kept-win 250000 850000 02=1",
		    "F:15: move 02=1 is not in canonical form (2=1)\n" },
		{ 15, "move 1 1 kept-win 100000000000000000000 850000 2=1",
		    "F:15: bad number in a move line" },
		{ 19, NULL, "F:19: missing end line (a cut file?)\n" },
		{ 1, "grundy-record 2", "F:1: not a record file" },
		{ 4, "start nim x", "F:4: the start is not a valid game: " },
		{ 4, "start wythoff 1 2", "F:4: the start is not a game of "
		    "family nim\n" },
		{ 8, "tc 1000", "F:8: bad time control" },
		{ 11, "ended -", "F:11: a finished game has ended\n" },
		{ 11, "ended 2025-11-21T05:37:00.000Z", "F:11: the game ended "
		    "before it started\n" },
		{ 13, "status live", "F:11: a live game has not ended\n" },
		{ 6, "player3 bob", "F:6: expected the header \"player2 "
		    "VALUE\" here\n" },
		{ 18, "mover 3 1 kept-win 0 950000 2=0",
		    "F:18: expected a move, a cost line, a refused move or "
		    "end\n" },
	};
	struct verify_limits lim;
	char		*t;
	size_t		 i;

	(void)state;
	verify_limits_default(&lim);
	verdict(hand_file, &lim, VERIFY_OK, "ok 3 moves\n");
	for (i = 0; i < nitems(edits); i++) {
		t = edit_line(hand_file, edits[i].line, edits[i].with);
		verdict(t, &lim, VERIFY_WRONG, edits[i].out);
		free(t);
	}
	t = xmalloc(sizeof hand_file + 8);
	snprintf(t, sizeof hand_file + 8, "%sextra\n", hand_file);
	verdict(t, &lim, VERIFY_WRONG, "F:20: text after the end line\n");
	free(t);
}

/*
 * The cost lines (what each move cost, grundy match's records): rendered
 * after their move, in the JSON where known, accepted by grundy verify
 * with and without them, and each wrong one named; clock=cpu charges the
 * CPU time.
 */
static void
test_cost_lines(void **state)
{
	static const struct {
		int		 line;
		const char	*with;
		const char	*out;
	} edits[] = {
		{ 16, "cost 1 250001 240000 1048576",
		    "F:16: wall time 250001, expected 250000 " },
		{ 16, "cost 2 250000 240000 1048576",
		    "F:16: a cost line for ply 2 follows the move line of its "
		    "ply (ply 1 was the last)\n" },
		{ 16, "cost 1 250000 240000",
		    "F:16: bad cost line: expected cost PLY WALL_US CPU_US|- "
		    "PEAK_BYTES|-\n" },
		{ 16, "cost 1 250000 x -", "F:16: bad cost line" },
		{ 17, "cost 1 250000 240000 1048576",
		    "F:17: a cost line for ply 1 follows the move line " },
		{ 8, "tc 1000+100 clock=wall", "F:8: bad time control" },
	};
	struct store_rmove mv[3];
	struct store_record r;
	struct verify_limits lim;
	struct buf	 b;
	char		*t, *u;
	size_t		 i;

	(void)state;
	verify_limits_default(&lim);
	hand_record(&r);
	memcpy(mv, rmoves, sizeof mv);
	r.moves = mv;
	mv[0].has_cost = mv[0].has_cpu = mv[0].has_peak = 1;
	mv[0].wall_us = 250000;
	mv[0].cpu_us = 240000;
	mv[0].peak_bytes = 1048576;
	mv[1].has_cost = 1;		/* wall time only */
	mv[1].wall_us = 1200000;
	buf_init(&b);
	record_file(&b, &r, "cup");
	assert_non_null(strstr(buf_str(&b), "\nmove 1 1 kept-win 250000 "
	    "850000 2=1\ncost 1 250000 240000 1048576\nrefused 2 "));
	assert_non_null(strstr(buf_str(&b), "\nmove 2 2 no-win 1200000 "
	    "100000 1=0\ncost 2 1200000 - -\nmove 3 "));
	verdict(buf_str(&b), &lim, VERIFY_OK, "ok 3 moves\n");
	for (i = 0; i < nitems(edits); i++) {
		t = edit_line(buf_str(&b), edits[i].line, edits[i].with);
		verdict(t, &lim, VERIFY_WRONG, edits[i].out);
		free(t);
	}
	/* The JSON: the members where known, absent where not measured. */
	buf_reset(&b);
	record_json(&b, &r, "cup");
	assert_non_null(strstr(buf_str(&b), "\"delay_us\":80,\"wall_us\":"
	    "250000,\"cpu_us\":240000,\"peak_bytes\":1048576,"));
	assert_non_null(strstr(buf_str(&b), "\"wall_us\":1200000,"
	    "\"cpu_us\":null,\"peak_bytes\":null,"));
	assert_non_null(strstr(buf_str(&b), "\"time_us\":0,\"delay_us\":90,"
	    "\"clock_us\":950000}"));
	assert_null(strstr(buf_str(&b), "\"clock\":"));
	/*
	 * clock=cpu: TIME_US is the CPU time, which its cost line shows; a
	 * cost line without it, or with another, is wrong.
	 */
	r.game.tc_cpu = 1;
	mv[0].time_us = 240000;
	mv[0].time_ms = 240;
	mv[1].has_cpu = 1;
	mv[1].cpu_us = 1200000;
	mv[1].wall_us = 1500000;
	buf_reset(&b);
	record_file(&b, &r, "cup");
	assert_non_null(strstr(buf_str(&b), "\ntc 1000+100 clock=cpu\n"));
	assert_non_null(strstr(buf_str(&b), "\nmove 1 1 kept-win 240000 "
	    "860000 2=1\ncost 1 250000 240000 1048576\n"));
	verdict(buf_str(&b), &lim, VERIFY_OK, "ok 3 moves\n");
	t = edit_line(buf_str(&b), 16, "cost 1 250000 - 1048576");
	verdict(t, &lim, VERIFY_WRONG, "F:16: CPU time -, expected 240000 ");
	free(t);
	t = edit_line(buf_str(&b), 16, "cost 1 240000 250000 1048576");
	verdict(t, &lim, VERIFY_WRONG, "F:16: CPU time 250000, expected ");
	free(t);
	/* Without the cost lines the same game is right too. */
	t = edit_line(buf_str(&b), 16, NULL);
	u = edit_line(t, 18, NULL);
	verdict(u, &lim, VERIFY_OK, "ok 3 moves\n");
	free(t);
	free(u);
	buf_reset(&b);
	record_json(&b, &r, "cup");
	assert_non_null(strstr(buf_str(&b), "\"tc\":{\"base_ms\":1000,"
	    "\"inc_ms\":100,\"clock\":\"cpu\"}"));
	buf_free(&b);
}

/* The hand-written file cut after its first move (player 2 to move). */
static char *
one_move_file(void)
{
	char	*t, *u;

	t = edit_line(hand_file, 14, "moves 1");
	u = edit_line(t, 16, NULL);	/* the refused move of ply 2 */
	free(t);
	t = edit_line(u, 16, NULL);	/* move 2 */
	free(u);
	u = edit_line(t, 16, NULL);	/* move 3 */
	free(t);
	return (u);
}

/* Results that end before the board does: who was to move, the detail. */
static void
test_verify_results(void **state)
{
	static const struct {
		const char	*result;
		enum verify_verdict want;
		const char	*out;
	} cases[] = {
		{ "result first timeout", VERIFY_OK, "ok 1 moves\n" },
		{ "result second timeout", VERIFY_WRONG, "F:12: wrong result: "
		    "player 2 was to move, so first wins by timeout\n" },
		{ "result second resign", VERIFY_OK, "ok 1 moves\n" },
		{ "result - resign", VERIFY_WRONG, "F:12: a resignation has a "
		    "winner\n" },
		{ "result - aborted by root: test", VERIFY_OK, "ok 1 moves\n" },
		{ "result first aborted", VERIFY_WRONG, "F:12: an aborted game "
		    "has no winner\n" },
		{ "result first illegal-move \"9=9\" no such pile", VERIFY_OK,
		    "ok 1 moves\n" },
		{ "result first illegal-move \"1=0\" no such pile",
		    VERIFY_WRONG, "F:12: wrong result: the move 1=0 is legal "
		    "after ply 1\n" },
		{ "result first illegal-move", VERIFY_WRONG, "F:12: an "
		    "illegal-move result needs its detail \"MOVE\" REASON\n" },
		{ "result first no-legal-move", VERIFY_WRONG, "F:12: wrong "
		    "result: player 2 has a legal move after ply 1\n" },
		{ "result first -", VERIFY_WRONG, "F:12: a finished game has a "
		    "reason\n" },
	};
	struct verify_limits lim;
	char		*u, *w;
	size_t		 i;

	(void)state;
	verify_limits_default(&lim);
	u = one_move_file();
	for (i = 0; i < nitems(cases); i++) {
		w = edit_line(u, 12, cases[i].result);
		verdict(w, &lim, cases[i].want, cases[i].out);
		free(w);
	}
	free(u);
}

/* One or two edits of a record and the verdict they must give. */
struct verify_case {
	int		 line;
	const char	*with;
	int		 line2;		/* 0: one edit */
	const char	*with2;
	enum verify_verdict want;
	const char	*out;
};

/* Checks each case on base: exact verdict lines. */
static void
verify_cases(const char *base, const struct verify_case *c, size_t n)
{
	struct verify_limits lim;
	char		*t, *u;
	size_t		 i;

	verify_limits_default(&lim);
	for (i = 0; i < n; i++) {
		t = edit_line(base, c[i].line, c[i].with);
		u = c[i].line2 == 0 ? xstrdup(t) : edit_line(t, c[i].line2,
		    c[i].with2);
		verdict(u, &lim, c[i].want, c[i].out);
		free(t);
		free(u);
	}
}

/*
 * The hand-written file with its tournament line or a refused move's text
 * edited: the refused move's text is not judged (a protocol breach, a
 * NUL, a text the referee cut).
 */
static void
test_verify_tour_refused(void **state)
{
	static const struct verify_case c[] = {
		{ 9, "tournament spring cup 2", 0, NULL, VERIFY_OK,
		    "ok 3 moves\n" },
		{ 9, "tournament cup", 0, NULL, VERIFY_WRONG, "F:9: bad "
		    "tournament: expected NAME SLOT or -\n" },
		{ 16, "refused 2 2 3 410 \"1=0\" answer of several lines", 0,
		    NULL, VERIFY_OK, "ok 3 moves\n" },
		{ 16, "refused 2 2 3 410 \"1=0\\u0000\" x", 0, NULL, VERIFY_OK,
		    "ok 3 moves\n" },
		{ 16, "refused 2 2 3 410 \"1=0\\u0000\"x", 0, NULL,
		    VERIFY_WRONG, "F:16: bad refused move" },
	};

	(void)state;
	verify_cases(hand_file, c, nitems(c));
}

/*
 * Every reason grundyd and grundy match write, each checked precisely;
 * an unknown one is wrong.  After ply 1 (2=1) the position nim 1 1 is
 * lost for player 2, who is to move.
 */
static void
test_verify_reasons(void **state)
{
	static const struct verify_case one[] = {
		{ 12, "result first bogus", 0, NULL, VERIFY_WRONG,
		    "F:12: unknown reason bogus\n" },
		{ 12, "result first adjudicated by the solver at ply 1", 0,
		    NULL, VERIFY_OK, "ok 1 moves\n" },
		{ 12, "result second adjudicated by the solver at ply 1", 0,
		    NULL, VERIFY_WRONG, "F:12: wrong result: player 2 to move "
		    "after ply 1 loses under perfect play, so the solver's "
		    "result is first adjudicated\n" },
		{ 12, "result first adjudicated by the solver at ply 2", 0,
		    NULL, VERIFY_WRONG, "F:12: wrong result: adjudicated at "
		    "ply 2, the game has 1 moves\n" },
		{ 12, "result second adjudicated by root: a ruling", 0, NULL,
		    VERIFY_OK, "ok 1 moves\n" },
		{ 12, "result - adjudicated by root: a ruling", 0, NULL,
		    VERIFY_WRONG, "F:12: adjudicated has a winner\n" },
		{ 12, "result first adjudicated by the engine", 0, NULL,
		    VERIFY_WRONG, "F:12: adjudicated needs its detail \"by "
		    "ADMIN: REASON\" or \"by the solver at ply N\"\n" },
		{ 12, "result - aborted", 0, NULL, VERIFY_WRONG, "F:12: an "
		    "aborted game needs its detail \"by ADMIN: REASON\"\n" },
		{ 12, "result - aborted by a b: x", 0, NULL, VERIFY_WRONG,
		    "F:12: an aborted game needs its detail \"by ADMIN: "
		    "REASON\"\n" },
		{ 12, "result first crash exited with status 3", 0, NULL,
		    VERIFY_OK, "ok 1 moves\n" },
		{ 12, "result second crash killed by signal 9", 0, NULL,
		    VERIFY_OK, "ok 1 moves\n" },
		{ 12, "result first crash closed its output", 0, NULL,
		    VERIFY_OK, "ok 1 moves\n" },
		{ 12, "result - crash closed its output", 0, NULL, VERIFY_WRONG,
		    "F:12: crash has a winner\n" },
		{ 12, "result first crash", 0, NULL, VERIFY_WRONG, "F:12: crash "
		    "needs its detail \"closed its output\", \"exited with "
		    "status N\" or \"killed by signal N\"\n" },
		{ 12, "result first crash killed by signal 0", 0, NULL,
		    VERIFY_WRONG, "F:12: crash needs its detail \"closed its "
		    "output\", \"exited with status N\" or \"killed by "
		    "signal N\"\n" },
		{ 12, "result - start-timeout", 0, NULL, VERIFY_WRONG,
		    "F:12: a start-timeout game has no moves (moves 1)\n" },
		{ 12, "result first forfeit bob was absent for 60 s", 7,
		    "rated 0", VERIFY_WRONG, "F:12: a forfeit game has no "
		    "moves (moves 1)\n" },
		{ 12, "result second resign x", 0, NULL, VERIFY_WRONG,
		    "F:12: a resignation has no detail\n" },
		{ 12, "result first timeout x", 0, NULL, VERIFY_WRONG,
		    "F:12: timeout has no detail\n" },
		{ 12, "result first timeout", 8, "tc -", VERIFY_WRONG,
		    "F:12: a timeout needs a time control (tc -)\n" },
		{ 12, "result first timeout", 6, "player2 engine",
		    VERIFY_WRONG, "F:12: wrong result: the engine (player 2, "
		    "to move) has no clock to run out\n" },
		/* 250,000 us charged, 1,000,000 left: 1,250 ms at least. */
		{ 12, "result first timeout", 11,
		    "ended 2025-11-21T05:38:01.372Z", VERIFY_OK,
		    "ok 1 moves\n" },
		{ 12, "result first timeout", 11,
		    "ended 2025-11-21T05:38:01.371Z", VERIFY_WRONG,
		    "F:12: wrong result: player 2 had 1000000 us left after "
		    "250000 us of charged moves, so a timeout ends the game "
		    "after at least 1250000 us, not in 1248 ms\n" },
		{ 12, "result first timeout", 10,
		    "started 2025-11-20T23:59:59.999Z", VERIFY_OK,
		    "ok 1 moves\n" },
	};
	/* A timeout across a leap day: the calendar of the time stamps. */
	static const struct verify_case leap[] = {
		{ 10, "started 2024-02-29T23:59:59.000Z", 11,
		    "ended 2024-03-01T00:00:00.249Z", VERIFY_OK, "ok 1 moves\n" },
		{ 10, "started 2024-02-29T23:59:59.000Z", 11,
		    "ended 2024-03-01T00:00:00.248Z", VERIFY_WRONG,
		    "F:12: wrong result: player 2 had 1000000 us left after "
		    "250000 us of charged moves, so a timeout ends the game "
		    "after at least 1250000 us, not in 1248 ms\n" },
	};
	static const struct verify_case none[] = {
		{ 12, "result - start-timeout", 0, NULL, VERIFY_OK,
		    "ok 0 moves\n" },
		{ 12, "result second start-timeout", 0, NULL, VERIFY_OK,
		    "ok 0 moves\n" },
		{ 12, "result second start-timeout slow", 0, NULL,
		    VERIFY_WRONG, "F:12: start-timeout has no detail\n" },
		{ 12, "result first forfeit bob was absent for 60 s", 7,
		    "rated 0", VERIFY_OK, "ok 0 moves\n" },
		{ 12, "result second forfeit alice was absent for 86400 s", 7,
		    "rated 0", VERIFY_OK, "ok 0 moves\n" },
		{ 12, "result first forfeit bob was absent for 60 s", 0, NULL,
		    VERIFY_WRONG, "F:12: a forfeit is an unrated tournament "
		    "game\n" },
		{ 12, "result first forfeit bob was absent for 60 s", 9,
		    "tournament -", VERIFY_WRONG, "F:12: a forfeit is an "
		    "unrated tournament game\n" },
		{ 12, "result first forfeit alice was absent for 60 s", 7,
		    "rated 0", VERIFY_WRONG, "F:12: forfeit needs its detail "
		    "\"LOSER was absent for SECONDS s\" (SECONDS 1..86400)\n" },
		{ 12, "result first forfeit bob was absent for 86401 s", 7,
		    "rated 0", VERIFY_WRONG, "F:12: forfeit needs its detail "
		    "\"LOSER was absent for SECONDS s\" (SECONDS 1..86400)\n" },
		{ 12, "result - forfeit bob was absent for 60 s", 7,
		    "rated 0", VERIFY_WRONG, "F:12: forfeit has a winner\n" },
		{ 12, "result first timeout", 0, NULL, VERIFY_WRONG,
		    "F:12: wrong result: player 1 was to move, so second wins "
		    "by timeout\n" },
		/* A start already over: a crash while starting is possible. */
		{ 12, "result first crash killed by signal 9", 4,
		    "start nim 0 0", VERIFY_OK, "ok 0 moves\n" },
		{ 12, "result first resign", 4, "start nim 0 0", VERIFY_WRONG,
		    "F:12: wrong result: player 1 cannot move after ply 0, so "
		    "the result is second no-legal-move\n" },
	};
	/* The whole game (3 moves, the board over after them). */
	static const struct verify_case all[] = {
		{ 12, "result first crash closed its output", 0, NULL,
		    VERIFY_WRONG, "F:12: wrong result: player 2 cannot move "
		    "after ply 3, so the result is first no-legal-move\n" },
		{ 12, "result first adjudicated by the solver at ply 3", 0,
		    NULL, VERIFY_WRONG, "F:12: wrong result: player 2 cannot "
		    "move after ply 3, so the result is first no-legal-move\n" },
		{ 12, "result first no-legal-move x", 0, NULL, VERIFY_WRONG,
		    "F:12: no-legal-move has no detail\n" },
		/* File order: the result (12) before a wrong move (17). */
		{ 12, "result - resign", 17,
		    "move 2 2 no-win 1200000 100000 1=2", VERIFY_WRONG,
		    "F:12: a resignation has a winner\n" },
		{ 12, "result first bogus", 17,
		    "move 2 2 no-win 1200000 100000 1=2", VERIFY_WRONG,
		    "F:12: unknown reason bogus\n" },
		{ 11, "ended -", 12, "result first bogus", VERIFY_WRONG,
		    "F:11: a finished game has ended\n" },
		{ 12, "result - - x", 13, "status live", VERIFY_WRONG,
		    "F:11: a live game has not ended\n" },
		/* The start (4) before a bad rated header (7). */
		{ 4, "start nim 1 02", 7, "rated 2", VERIFY_WRONG,
		    "F:4: the start is not in canonical form\n" },
		{ 7, "rated 2", 4, "start nim 1 2", VERIFY_WRONG,
		    "F:7: rated is 0 or 1\n" },
		/* What needs the whole game waits for every move to be right. */
		{ 12, "result second no-legal-move", 17,
		    "move 2 2 no-win 1200000 100000 1=2", VERIFY_WRONG,
		    "F:17: illegal move 1=2: " },
	};
	static const struct verify_case live[] = {
		{ 12, "result - -", 13, "status live", VERIFY_OK,
		    "ok 3 moves\n" },
		{ 12, "result - - x", 13, "status live", VERIFY_WRONG,
		    "F:12: a live game has no result yet\n" },
	};
	char		*u, *z, *t;

	(void)state;
	u = one_move_file();
	verify_cases(u, one, nitems(one));
	t = edit_line(u, 12, "result first timeout");
	verify_cases(t, leap, nitems(leap));
	free(t);
	t = edit_line(u, 14, "moves 0");
	z = edit_line(t, 15, NULL);
	free(t);
	verify_cases(z, none, nitems(none));
	verify_cases(hand_file, all, nitems(all));
	t = edit_line(hand_file, 11, "ended -");
	verify_cases(t, live, nitems(live));
	free(t);
	free(u);
	free(z);
}

/* Every limit is checked before the work. */
static void
test_verify_limits(void **state)
{
	struct verify_limits lim;
	struct buf	 b;
	char		*t;

	(void)state;
	verify_limits_default(&lim);
	lim.max_line = 20;
	verdict(hand_file, &lim, VERIFY_WRONG, "F:10: line over 20 bytes "
	    "(the limit)\n");
	verify_limits_default(&lim);
	lim.max_file = 100;
	buf_init(&b);
	assert_int_equal(verify_text("F", hand_file, strlen(hand_file), &lim,
	    &b), VERIFY_UNREADABLE);
	assert_string_equal(buf_str(&b), "F: over 100 bytes (the limit)\n");
	buf_free(&b);
	verify_limits_default(&lim);
	lim.game.max_digits = 1;
	t = edit_line(hand_file, 4, "start nim 12 2");
	verdict(t, &lim, VERIFY_WRONG, "F:4: the start is not a valid game: ");
	free(t);
	verify_limits_default(&lim);
	verdict("grundy-record 1\ngame 7", &lim, VERIFY_WRONG,
	    "F:2: the last line has no newline (a cut file?)\n");
	verdict("", &lim, VERIFY_WRONG, "F:1: not a record file");
}

/* Begins a game of players a, b (tournament tour, 0: none). */
static int64_t
begin(struct store *st, const char *a, const char *b, int64_t tour)
{
	struct store_game g = nim_game("nim 1", a, b);

	g.tournament = tour;
	return (store_game_begin(st, &g));
}

/* Reads a page; returns its ids as "1 2 3". */
static void
page(struct store *st, const struct store_hfilter *f, const char *want)
{
	struct store_history h;
	struct buf	 b;
	size_t		 i;

	assert_int_equal(store_history_page(st, f, &h), 0);
	buf_init(&b);
	for (i = 0; i < h.n; i++)
		buf_printf(&b, "%s%lld", i ? " " : "",
		    (long long)h.games[i].id);
	assert_string_equal(buf_str(&b), want);
	buf_free(&b);
	store_history_free(&h);
}

/* Fails if the plan of f's query scans the games table, or if it does
 * not use index (NULL: any). */
static void
plan_uses(const char *path, const struct store_hfilter *f, const char *index)
{
	sqlite3		*db;
	sqlite3_stmt	*s;
	struct buf	 sql, plan;

	if (tdb_pg() != NULL)
		return;		/* SQLite's planner */
	buf_init(&sql);
	buf_init(&plan);
	buf_puts(&sql, "EXPLAIN QUERY PLAN ");
	store_history_sql(&sql, f);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, buf_str(&sql), -1, &s, NULL),
	    SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW)
		buf_printf(&plan, "%s\n", sqlite3_column_text(s, 3));
	sqlite3_finalize(s);
	sqlite3_close(db);
	if (strstr(buf_str(&plan), "SCAN games") != NULL ||
	    strstr(buf_str(&plan), "games USING") == NULL ||
	    (index != NULL && strstr(buf_str(&plan), index) == NULL))
		fail_msg("plan scans the games table, or not with %s:\n%s",
		    index != NULL ? index : "an index", buf_str(&plan));
	buf_free(&sql);
	buf_free(&plan);
}

/* Filters and pages of the history, exact ids; the plans use indexes. */
static void
test_history_page(void **state)
{
	struct fixture	*fx = *state;
	struct store_hfilter f;
	struct store	*st;
	int64_t		 id[9];
	size_t		 i;

	st = open_ok(fx->path, NULL);
	raw_file_exec(fx->path, "INSERT INTO tournaments (id, name, format, game, "
	    "base_ms, inc_ms, games_per_pair, seed, players, created_at) "
	    "VALUES (4, 'cup', 'roundrobin', 'nim 1', 1000, 0, 1, 1, "
	    "'a b', '2026-01-01T00:00:00.000Z')");
	id[0] = begin(st, "a", "b", 0);
	id[1] = begin(st, "b", "c", 0);
	id[2] = begin(st, "c", "a", 4);
	id[3] = begin(st, "a", "c", 4);
	id[4] = begin(st, "b", "b", 0);
	id[5] = begin(st, "a", "b", 0);
	for (i = 0; i < 6; i++)
		assert_int_equal(id[i], (int64_t)i + 1);
	assert_int_equal(store_flush(st), 0);
	raw_file_exec(fx->path, "UPDATE games SET started_at = "
	    "'2026-01-0' || id || 'T12:00:00.000Z'");
	memset(&f, 0, sizeof f);
	f.limit = 100;
	page(st, &f, "6 5 4 3 2 1");
	f.player = "a";
	page(st, &f, "6 4 3 1");
	f.limit = 2;
	page(st, &f, "6 4");
	f.before = 4;
	page(st, &f, "3 1");
	f.before = 1;
	page(st, &f, "");
	f.before = 0;
	f.limit = 100;
	f.player = "b";			/* b against itself: once */
	page(st, &f, "6 5 2 1");
	f.player = "nobody";
	page(st, &f, "");
	f.player = NULL;
	f.tournament = "cup";
	page(st, &f, "4 3");
	f.tournament = "nope";
	page(st, &f, "");
	f.tournament = NULL;
	f.tournament_id = 4;
	f.player = "c";
	page(st, &f, "4 3");
	f.tournament_id = 0;
	f.player = NULL;
	assert_int_equal(store_time_arg("2026-01-04", f.since,
	    sizeof f.since), 0);
	assert_string_equal(f.since, "2026-01-04T00:00:00.000Z");
	page(st, &f, "6 5 4");
	f.player = "a";
	f.before = 6;
	page(st, &f, "4");
	assert_int_equal(store_time_arg("2026-13-01", f.since,
	    sizeof f.since), -1);
	assert_int_equal(store_time_arg("2026-01-04T12:00:00.000Z", f.since,
	    sizeof f.since), 0);
	/* A span of start times (until: before it) and a result. */
	memset(&f, 0, sizeof f);
	f.limit = 100;
	assert_int_equal(store_time_arg("2026-01-02", f.since,
	    sizeof f.since), 0);
	assert_int_equal(store_time_arg("2026-01-05", f.until,
	    sizeof f.until), 0);
	page(st, &f, "4 3 2");
	raw_file_exec(fx->path, "UPDATE games SET result = 'first' WHERE "
	    "id IN (2, 4, 6)");
	f.result = "first";
	page(st, &f, "4 2");
	f.since[0] = '\0';
	f.player = "a";
	page(st, &f, "4");
	f.result = "second";
	page(st, &f, "");
	/* One player's page walks the seat indexes, never the table. */
	memset(&f, 0, sizeof f);
	f.limit = 21;
	f.player = "a";
	plan_uses(fx->path, &f, NULL);
	f.before = 3;
	plan_uses(fx->path, &f, NULL);
	f.tournament = "cup";
	plan_uses(fx->path, &f, NULL);
	memset(&f, 0, sizeof f);
	f.limit = 21;
	f.tournament_id = 4;
	plan_uses(fx->path, &f, NULL);
	/* since= alone: the started_at index, not a walk down the ids. */
	memset(&f, 0, sizeof f);
	f.limit = 21;
	f.before = 3;
	assert_int_equal(store_time_arg("2026-01-04", f.since,
	    sizeof f.since), 0);
	plan_uses(fx->path, &f, "USING INDEX games_started_at");
	store_close(st);
}

TDB_STORE_MAIN(
	cmocka_unit_test(test_render_file),
	cmocka_unit_test(test_render_json),
	cmocka_unit_test(test_verify_edits),
	cmocka_unit_test(test_cost_lines),
	cmocka_unit_test(test_verify_tour_refused),
	cmocka_unit_test(test_verify_results),
	cmocka_unit_test(test_verify_reasons),
	cmocka_unit_test(test_verify_limits),
	cmocka_unit_test(test_history_page),
)
