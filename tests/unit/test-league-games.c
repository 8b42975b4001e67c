/*
 * test-league-games.c: the league's tournaments (create, list, status,
 * the refusals), the games the store logs for them, the rated games in
 * replay order, and the player statistics against hand-computed figures.
 * The accounts and the league's migration are in test-league.c.  Every
 * test runs on PostgreSQL too (tests/e2e/league-pg.sh): the games are written
 * through the store on the same back end, and read back through sqldb.
 */
#include <sys/types.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "testdb.h"
#include "test-league-db.h"

#include "lib/buf.h"
#include "cmd/cmd-history.h"
#include "league/league.h"
#include "store/store.h"

/* Fills a tournament definition (players point at static strings). */
static void
tdef(struct league_tournament *t, const char *name, char **players,
    size_t n)
{
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	t->format = LEAGUE_ROUNDROBIN;
	t->game = (char *)"nim 7 7 7";
	t->random = 1;
	t->base_ms = 60000;
	t->inc_ms = 500;
	t->games_per_pair = 2;
	t->seed = UINT64_MAX - 5;
	t->players = players;
	t->nplayers = n;
}

/* Creating a tournament must fail with err containing want. */
static void
tcreate_fails(struct league *lg, struct league_tournament *t,
    const char *want)
{
	char	 err[512];

	err[0] = '\0';
	assert_int_equal(league_tournament_create(lg, t, err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("tournament %s: \"%s\" does not say \"%s\"", t->name,
		    err, want);
}

/* The refused tournaments: none of them is written. */
static void
tournaments_refused(struct fixture *fx, char **abc)
{
	char		*bad1[] = { (char *)"alice", (char *)"dave" };
	char		*bad2[] = { (char *)"alice", (char *)"bob",
			    (char *)"alice" };
	char		*bad3[] = { (char *)"alice", (char *)"a b" };
	struct {
		const char	*name;
		char		**players;
		size_t		 n;
		const char	*want;
	} bad[] = {
		{ "spring", abc, 3, "tournament spring exists" },
		{ "x", bad1, 2, "no account dave" },
		{ "x", bad2, 3, "player alice is listed twice" },
		{ "x", abc, 1, "at least 2 players" },
		{ "x", abc, 0, "at least 2 players" },
		{ "x", bad3, 2, "bad player name" },
		{ "bad name", abc, 2, "bad tournament name" },
	};
	struct league_tournament u;
	size_t		 i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		tdef(&u, bad[i].name, bad[i].players, bad[i].n);
		tcreate_fails(fx->lg, &u, bad[i].want);
	}
	tdef(&u, "x", abc, 2);
	u.games_per_pair = 0;
	tcreate_fails(fx->lg, &u, "games per pairing");
	tdef(&u, "x", abc, 2);
	u.game = NULL;
	tcreate_fails(fx->lg, &u, "needs a game");
	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM tournaments"), 2);
}

/* Both tournaments are running; everything comes back as given. */
static void
tournaments_listed(struct league *lg)
{
	struct league_tournament *v;
	size_t		 n;

	assert_int_equal(league_tournaments(lg, 0, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].id, 1);
	assert_string_equal(v[0].name, "spring");
	assert_int_equal(v[0].format, LEAGUE_ROUNDROBIN);
	assert_int_equal(v[0].status, LEAGUE_T_RUNNING);
	assert_string_equal(v[0].game, "nim 7 7 7");
	assert_int_equal(v[0].random, 1);
	assert_int_equal(v[0].base_ms, 60000);
	assert_int_equal(v[0].inc_ms, 500);
	assert_int_equal(v[0].games_per_pair, 2);
	assert_true(v[0].seed == UINT64_MAX - 5);
	assert_int_equal(v[0].nplayers, 3);
	assert_string_equal(v[0].players[0], "alice");
	assert_string_equal(v[0].players[1], "bob");
	assert_string_equal(v[0].players[2], "carol");
	assert_int_equal(v[1].id, 2);
	assert_string_equal(v[1].name, "summer");
	assert_int_equal(v[1].format, LEAGUE_GAUNTLET);
	assert_int_equal(v[1].random, 0);
	assert_true(v[1].seed == 7);
	assert_int_equal(v[1].nplayers, 2);
	assert_string_equal(v[1].players[0], "bob");
	assert_string_equal(v[1].players[1], "carol");
	league_tournaments_free(v, n);
}

/* Finish one: only the other runs; all=1 lists both. */
static void
tournaments_status(struct league *lg)
{
	struct league_tournament *v;
	size_t		 n;

	assert_int_equal(league_tournament_status(lg, 1,
	    LEAGUE_T_FINISHED), 0);
	assert_int_equal(league_tournament_status(lg, 99,
	    LEAGUE_T_FINISHED), -1);
	assert_int_equal(league_tournaments(lg, 0, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].name, "summer");
	league_tournaments_free(v, n);
	assert_int_equal(league_tournament_status(lg, 2,
	    LEAGUE_T_CANCELLED), 0);
	assert_int_equal(league_tournaments(lg, 0, &v, &n), 0);
	assert_int_equal(n, 0);
	league_tournaments_free(v, n);
	assert_int_equal(league_tournaments(lg, 1, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].status, LEAGUE_T_FINISHED);
	assert_int_equal(v[1].status, LEAGUE_T_CANCELLED);
	league_tournaments_free(v, n);
}

/* Tournaments: create, list, status, and the refusals. */
static void
test_tournaments(void **state)
{
	struct fixture	*fx = *state;
	char		*abc[] = { (char *)"alice", (char *)"bob",
			    (char *)"carol" };
	struct league_tournament t, u;
	char		 err[512];

	lgdb_fresh(fx);			/* both back ends: no store here */
	fx->lg = lgdb_league(fx, 5, 30);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	reg_ok(fx->lg, "carol");

	tdef(&t, "spring", abc, 3);
	t.status = LEAGUE_T_CANCELLED;		/* ignored: it starts running */
	assert_int_equal(league_tournament_create(fx->lg, &t, err,
	    sizeof err), 0);
	assert_int_equal(t.id, 1);
	assert_int_equal(t.status, LEAGUE_T_RUNNING);
	tdef(&u, "summer", abc + 1, 2);
	u.format = LEAGUE_GAUNTLET;
	u.random = 0;
	u.seed = 7;
	assert_int_equal(league_tournament_create(fx->lg, &u, err,
	    sizeof err), 0);
	assert_int_equal(u.id, 2);

	tournaments_refused(fx, abc);
	tournaments_listed(fx->lg);
	tournaments_status(fx->lg);

	/* An owned copy frees with league_tournament_free. */
	memset(&u, 0, sizeof u);
	u.game = strdup("nim 1");
	u.players = calloc(2, sizeof *u.players);
	assert_non_null(u.players);
	u.players[0] = strdup("alice");
	u.players[1] = strdup("bob");
	u.nplayers = 2;
	league_tournament_free(&u);
	assert_null(u.players);
	assert_null(u.game);
}

/* Writes a game: seats, plies, status, result; throws by own move. */
struct gspec {
	const char	*p1, *p2;
	unsigned int	 nplies;
	enum store_status status;
	enum store_result result;
	unsigned int	 t1[4];		/* player 1's own moves that threw */
	unsigned int	 t2[4];		/* player 2's */
	int		 rated;
	int64_t		 tournament;
	unsigned int	 slot;
	const char	*tc;
};

/* Returns 1 if k is in the zero-terminated list t. */
static int
in_list(const unsigned int *t, unsigned int k)
{
	size_t	 i;

	for (i = 0; i < 4 && t[i] != 0; i++) {
		if (t[i] == k)
			return (1);
	}
	return (0);
}

/*
 * Writes a game through the store: player 1 moves at odd plies, player 2
 * at even ones; a player's k-th own move threw a win if k is in its list,
 * else it is no-win when k is a multiple of 3 and kept-win otherwise.
 * With end 0 the game is left live.
 */
static int64_t
gwrite(struct store *st, const struct gspec *sp, int end)
{
	struct store_game g;
	struct store_move m;
	char		 mv[32], pos[32];
	unsigned int	 ply, k;
	int64_t		 id;

	memset(&g, 0, sizeof g);
	memset(&m, 0, sizeof m);
	g.family = "nim";
	g.game = "nim 100";
	g.player1 = sp->p1;
	g.player2 = sp->p2;
	g.rated = sp->rated;
	g.tc = sp->tc;
	g.tournament = sp->tournament;
	g.slot = sp->slot;
	id = store_game_begin(st, &g);
	for (ply = 1; ply <= sp->nplies; ply++) {
		memset(&m, 0, sizeof m);
		k = (ply + 1) / 2;
		snprintf(mv, sizeof mv, "1=%u", 100 - ply);
		snprintf(pos, sizeof pos, "nim %u", 100 - ply);
		m.ply = ply;
		m.player = ply % 2 == 1 ? 1 : 2;
		m.move = mv;
		m.position = pos;
		m.time_ms = ply;
		if (in_list(m.player == 1 ? sp->t1 : sp->t2, k))
			m.mark = STORE_THREW_WIN;
		else
			m.mark = k % 3 == 0 ? STORE_NO_WIN : STORE_KEPT_WIN;
		store_move(st, id, &m);
	}
	if (end)
		store_game_end(st, id, sp->result, sp->status == STORE_FINISHED ?
		    "no-legal-move" : "eof", sp->status, NULL, NULL);
	return (id);
}

/* Sleeps a few milliseconds, so that the next end time differs. */
static void
tick(void)
{
	struct timespec	 ts = { 0, 5 * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Writes the games of test_games into id[0..6]: tournament tid's slots 0
 * to 3, then free games; game 1 ends last.
 */
static void
games_write(struct store *st, int64_t tid, int64_t *id)
{
	struct gspec	 sp;

	/* 1: slot 0, finished (ends last); 2: slot 1, finished. */
	sp = (struct gspec){ .p1 = "alice", .p2 = "bob", .nplies = 3,
	    .status = STORE_FINISHED, .result = STORE_RESULT_FIRST,
	    .rated = 1, .tc = "60000+500", .tournament = tid, .slot = 0 };
	id[0] = gwrite(st, &sp, 0);
	sp.p1 = "bob";
	sp.p2 = "alice";
	sp.slot = 1;
	sp.result = STORE_RESULT_SECOND;
	id[1] = gwrite(st, &sp, 1);
	assert_int_equal(store_flush(st), 0);
	tick();
	/* 3: slot 1 again after 2 was cut off: abandoned, then replayed. */
	sp.slot = 2;
	sp.status = STORE_ABANDONED;
	sp.result = STORE_RESULT_NONE;
	id[2] = gwrite(st, &sp, 1);
	/* 4: slot 3, live. */
	sp.slot = 3;
	id[3] = gwrite(st, &sp, 0);
	/* 5: a free rated game; 6: a free unrated one; 7: rated, no result. */
	sp = (struct gspec){ .p1 = "bob", .p2 = "alice", .nplies = 2,
	    .status = STORE_FINISHED, .result = STORE_RESULT_SECOND,
	    .rated = 1, .tc = "5000" };
	id[4] = gwrite(st, &sp, 1);
	sp.rated = 0;
	sp.p1 = "conn:7";
	sp.p2 = "engine";
	id[5] = gwrite(st, &sp, 1);
	sp.rated = 1;
	sp.p1 = "alice";
	sp.p2 = "bob";
	sp.result = STORE_RESULT_NONE;
	id[6] = gwrite(st, &sp, 1);
	assert_int_equal(store_flush(st), 0);
	tick();
	store_game_end(st, id[0], STORE_RESULT_FIRST, "resign",
	    STORE_FINISHED, NULL, NULL);
	assert_int_equal(store_flush(st), 0);
}

/* What the store wrote for the games of test_games (read through sqldb). */
static void
games_stored(const struct fixture *fx, int64_t tid)
{
	char		 txt[64];

	assert_int_equal(lgdb_int(fx, "SELECT COUNT(*) FROM games WHERE "
	    "rated = 1"), 6);
	assert_int_equal(lgdb_int(fx, "SELECT slot FROM games WHERE "
	    "id = 2"), 1);
	assert_int_equal(lgdb_int(fx, "SELECT tournament_id FROM games "
	    "WHERE id = 4"), tid);
	lgdb_text(fx, "SELECT tc FROM games WHERE id = 1", txt, sizeof txt);
	assert_string_equal(txt, "60000+500");
	lgdb_text(fx, "SELECT tournament_id FROM games WHERE id = 5", txt,
	    sizeof txt);
	assert_string_equal(txt, "(null)");
	lgdb_text(fx, "SELECT slot FROM games WHERE id = 5", txt, sizeof txt);
	assert_string_equal(txt, "(null)");
	assert_int_equal(lgdb_int(fx, "SELECT rated FROM games WHERE "
	    "id = 6"), 0);
}

/* The tournament's games, by id, whatever their state. */
static void
games_tournament(struct league *lg, int64_t tid, const int64_t *id)
{
	struct league_tgame *tg;
	size_t		 n, i;

	assert_int_equal(league_tournament_games(lg, tid, &tg, &n), 0);
	assert_int_equal(n, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(tg[i].game_id, id[i]);
		assert_int_equal(tg[i].slot, i);
		assert_int_equal(tg[i].finished, i < 2);
		assert_int_equal(tg[i].result, i < 2 ? (int)i + 1 : 0);
	}
	assert_string_equal(tg[0].player1, "alice");
	assert_string_equal(tg[0].player2, "bob");
	assert_string_equal(tg[1].player1, "bob");
	assert_string_equal(tg[1].player2, "alice");
	free(tg);
	assert_int_equal(league_tournament_games(lg, 99, &tg, &n), 0);
	assert_int_equal(n, 0);
	free(tg);
}

/* Rated, finished, with a result: 2, 5, then 1 (it ended last). */
static void
games_rated(struct league *lg, const int64_t *id)
{
	struct league_rgame *rg;
	size_t		 n;

	assert_int_equal(league_rated_games(lg, &rg, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(rg[0].game_id, id[1]);
	assert_string_equal(rg[0].player1, "bob");
	assert_string_equal(rg[0].player2, "alice");
	assert_int_equal(rg[0].result, 2);
	assert_int_equal(rg[1].game_id, id[4]);
	assert_int_equal(rg[1].result, 2);
	assert_int_equal(rg[2].game_id, id[0]);
	assert_string_equal(rg[2].player1, "alice");
	assert_int_equal(rg[2].result, 1);
	free(rg);
}

/* Tournament games and the rated games, in the order they ended. */
static void
test_games(void **state)
{
	struct fixture	*fx = *state;
	char		*ab[] = { (char *)"alice", (char *)"bob" };
	struct league_tournament t;
	struct gspec	 sp;
	int64_t		 id[8];
	char		 err[512], txt[64];

	lgdb_reset(fx);			/* the store migrates it */
	open_both(fx, 5, 30);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	tdef(&t, "cup", ab, 2);
	assert_int_equal(league_tournament_create(fx->lg, &t, err,
	    sizeof err), 0);
	games_write(fx->st, t.id, id);
	games_stored(fx, t.id);
	games_tournament(fx->lg, t.id, id);
	games_rated(fx->lg, id);

	/* A zeroed store_game is an unrated game outside tournaments. */
	memset(&sp, 0, sizeof sp);
	sp.p1 = "conn:1";
	sp.p2 = "engine";
	id[7] = gwrite(fx->st, &sp, 0);
	assert_int_equal(store_flush(fx->st), 0);
	lgdb_text(fx, "SELECT CAST(rated AS TEXT) || ',' || COALESCE(tc,"
	    " 'null') || ',' || COALESCE(CAST(tournament_id AS TEXT), 'null')"
	    " || ',' || COALESCE(CAST(slot AS TEXT), 'null') FROM games"
	    " WHERE id = 8", txt, sizeof txt);
	assert_string_equal(txt, "0,null,null,null");
}

/* Checks league_player for name: its return and the player command's text. */
static void
player_is(struct league *lg, const char *name, int want, const char *text)
{
	struct league_player p;
	struct buf	 b;
	char		 err[512];
	int		 r;

	buf_init(&b);
	r = league_player(lg, name, &p, err, sizeof err);
	if (r == 0)
		cmd_history_player(&b, &p, "1500 rd 350 provisional");
	else
		buf_puts(&b, err);
	if (r != want || strcmp(buf_str(&b), text) != 0)
		fail_msg("player %s: %d\n%s\nexpected %d\n%s", name, r,
		    buf_str(&b), want, text);
	buf_free(&b);
}

/* The games of test_player (see there). */
static const struct gspec player_games[] = {
	{ "alice", "bob", 7, STORE_FINISHED, STORE_RESULT_FIRST,
	    { 3 }, { 1 }, 1, 0, 0, NULL },
	{ "bob", "alice", 20, STORE_FINISHED, STORE_RESULT_FIRST,
	    { 0 }, { 7, 9 }, 1, 0, 0, NULL },
	{ "alice", "carol", 2, STORE_FINISHED, STORE_RESULT_SECOND,
	    { 0 }, { 0 }, 0, 0, 0, NULL },
	{ "alice", "bob", 5, STORE_ABANDONED, STORE_RESULT_NONE,
	    { 1 }, { 1 }, 1, 0, 0, NULL },
	{ "engine", "alice", 50, STORE_FINISHED, STORE_RESULT_SECOND,
	    { 0 }, { 22, 21 }, 0, 0, 0, NULL },
	{ "alice", "bob", 30, STORE_FINISHED, STORE_RESULT_FIRST,
	    { 15, 12 }, { 0 }, 1, 0, 0, NULL },
	{ "alice", "bob", 3, STORE_FINISHED, STORE_RESULT_FIRST,
	    { 1 }, { 0 }, 1, 0, 0, NULL },
	{ "alice", "carol", 1, STORE_LIVE, STORE_RESULT_NONE,
	    { 1 }, { 0 }, 1, 0, 0, NULL },
	{ "bob", "carol", 4, STORE_FINISHED, STORE_RESULT_FIRST,
	    { 2 }, { 0 }, 0, 0, 0, NULL },
};

/* The player command's texts for test_player's games. */
static void
player_texts(struct league *lg)
{
	player_is(lg, "alice", 0,
	    "account alice\n"
	    "rating 1500 rd 350 provisional\n"
	    "games 6 wins 4 losses 2\n"
	    "moves 57 optimal 82.2%\n"
	    "threw-win-games 5\n"
	    "first-throw 1:1 2:0 3:1 4:0 5:0 6-10:1 11-20:1 21+:1");
	player_is(lg, "bob", 0,
	    "account bob\n"
	    "rating 1500 rd 350 provisional\n"
	    "games 5 wins 2 losses 3\n"
	    "moves 31 optimal 90.9%\n"
	    "threw-win-games 2\n"
	    "first-throw 1:1 2:1 3:0 4:0 5:0 6-10:0 11-20:0 21+:0");
	/* carol: game 3 (won, ply 2), game 9 (lost, plies 2 and 4). */
	player_is(lg, "carol", 0,
	    "account carol\n"
	    "rating 1500 rd 350 provisional\n"
	    "games 2 wins 1 losses 1\n"
	    "moves 3 optimal 100.0%\n"
	    "threw-win-games 0\n"
	    "first-throw 1:0 2:0 3:0 4:0 5:0 6-10:0 11-20:0 21+:0");
	player_is(lg, "dave", 0,
	    "account dave\n"
	    "rating 1500 rd 350 provisional\n"
	    "games 0 wins 0 losses 0\n"
	    "moves 0 optimal -\n"
	    "threw-win-games 0\n"
	    "first-throw 1:0 2:0 3:0 4:0 5:0 6-10:0 11-20:0 21+:0");
	player_is(lg, "zed", -1, "no account zed");
	player_is(lg, "engine", -1, "bad account name");
}

/*
 * The statistics against figures worked out by hand.  Only finished
 * games count.  alice: games 1 (won), 2 (lost), 3 (lost), 5 (won), 6
 * (won), 7 (won); moves 4 + 10 + 1 + 25 + 15 + 2 = 57, of which 8 threw a
 * win and 12 had none (own move numbers divisible by 3 but for throws:
 * 2 in game 2, 7 in game 5, 3 in game 6), so 37 kept one and the
 * optimal-move rate (kept / (kept + threw), PROTOCOL.md §13.10) is
 * 37 / 45 = 82.22%, "82.2%"; she threw in games 1 (first at her 3rd
 * move), 2 (7th), 5 (21st), 6 (12th) and 7 (1st).  bob: games 1 (lost),
 * 2 (won), 6 (lost), 7 (lost), 9 (won); moves 3 + 10 + 15 + 1 + 2 = 31
 * with 2 throws and 9 without a win (1 + 3 + 5): 20 / 22 = 90.91%,
 * "90.9%"; first throws at his 1st move (game 1) and 2nd (game 9).
 */
static void
test_player(void **state)
{
	struct fixture	*fx = *state;
	static const int64_t want[LEAGUE_THROW_BUCKETS] = {
		1, 0, 1, 0, 0, 1, 1, 1
	};
	static const unsigned int bounds[LEAGUE_THROW_BUCKETS][2] = {
		{ 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 4 }, { 5, 5 }, { 6, 10 },
		{ 11, 20 }, { 21, 0 }
	};
	struct league_player p;
	char		 err[256];
	unsigned int	 lo, hi;
	size_t		 i;

	lgdb_reset(fx);			/* the store migrates it */
	open_both(fx, 5, 30);
	reg_ok(fx->lg, "alice");
	reg_ok(fx->lg, "bob");
	reg_ok(fx->lg, "carol");
	reg_ok(fx->lg, "dave");
	for (i = 0; i < sizeof player_games / sizeof player_games[0]; i++)
		gwrite(fx->st, &player_games[i],
		    player_games[i].status != STORE_LIVE);
	assert_int_equal(store_flush(fx->st), 0);

	player_texts(fx->lg);

	/* The same figures as data. */
	assert_int_equal(league_player(fx->lg, "alice", &p, err, sizeof err),
	    0);
	assert_string_equal(p.name, "alice");
	assert_int_equal(p.games, 6);
	assert_int_equal(p.wins, 4);
	assert_int_equal(p.losses, 2);
	assert_int_equal(p.moves, 57);
	assert_int_equal(p.kept, 37);
	assert_int_equal(p.threw, 8);
	assert_int_equal(p.threw_win_games, 5);
	for (i = 0; i < LEAGUE_THROW_BUCKETS; i++)
		assert_int_equal(p.first_throw[i], want[i]);
	for (i = 0; i < LEAGUE_THROW_BUCKETS; i++) {
		league_throw_bucket(i, &lo, &hi);
		assert_int_equal(lo, bounds[i][0]);
		assert_int_equal(hi, bounds[i][1]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tournaments,
		    tdb_setup_league, tdb_teardown),
		cmocka_unit_test_setup_teardown(test_games, tdb_setup_league,
		    tdb_teardown),
		cmocka_unit_test_setup_teardown(test_player, tdb_setup_league,
		    tdb_teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
