/*
 * test-tour-migrate.c: migration 007 (tournament formats) from the schema
 * before it, with data: every tournament keeps its id and columns, every
 * game its tournament, foreign keys hold, the new columns take their
 * defaults and their CHECKs, and the league reads the rows back.
 */
#include <sys/types.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "testutil.h"
#include "testdb.h"
#include "test-league-db.h"

#include "league/league.h"
#include "store/store.h"

#define TOUR_V	7		/* the migration under test */

/* Runs sql on the database; returns SQLite's code. */
static int
try_exec(const char *path, const char *sql)
{
	sqlite3		*db;
	int		 rc;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	raw_exec(db, "PRAGMA foreign_keys = ON");
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return (rc);
}

/* Version 6 with two tournaments and their games, migrated to 7. */
static void
test_migrate_v6_tours(void **state)
{
	struct fixture	*fx = *state;
	struct league_tournament *v;
	struct league_limits lim = { 5, 60, 0 };
	struct league	*lg;
	char		 err[512];
	size_t		 n;

	LGDB_SQLITE_ONLY("migration 007 of an SQLite log");
	assert_string_equal(store_migrations[TOUR_V - 1].name,
	    "007-tournament-formats.sql");
	assert_int_equal(store_migrate_file(fx->path, store_migrations,
	    store_nmigrations, TOUR_V - 1, err, sizeof err), 0);
	raw_file_exec(fx->path, "INSERT INTO accounts (name, hash, created_at)"
	    " VALUES ('a', '$y$x', 'T'), ('b', '$y$x', 'T');"
	    "INSERT INTO tournaments (id, name, format, status, game, random,"
	    " base_ms, inc_ms, games_per_pair, seed, players, created_at)"
	    " VALUES (3, 'rr', 'roundrobin', 'finished', 'nim 3', 0, 1000, 5,"
	    " 2, -7, 'a,b', '2025-01-01T00:00:00.000Z'),"
	    " (9, 'g', 'gauntlet', 'running', 'nim 9 9', 1, 0, 0, 4, 11,"
	    " 'b,a', '2025-01-02T00:00:00.000Z');"
	    "INSERT INTO games (id, family, game, player1, player2, started_at,"
	    " ended_at, result, reason, status, tournament_id, slot) VALUES"
	    " (1, 'nim', 'nim 3', 'a', 'b', 'T', 'T', 'first', 'x',"
	    " 'finished', 3, 0),"
	    " (2, 'nim', 'nim 3', 'b', 'a', 'T', 'T', 'second', 'x',"
	    " 'finished', 3, 1),"
	    " (5, 'nim', 'nim 9 1', 'b', 'a', 'T', NULL, NULL, NULL, 'live',"
	    " 9, 2),"
	    " (6, 'nim', 'nim 1', 'a', 'b', 'T', NULL, NULL, NULL, 'live',"
	    " NULL, NULL);");
	assert_int_equal(store_migrate_file(fx->path, store_migrations,
	    store_nmigrations, TOUR_V, err, sizeof err), 0);

	/* Ids, columns and links kept; new columns at their defaults. */
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM tournaments"
	    " WHERE id = 3 AND name = 'rr' AND format = 'roundrobin' AND"
	    " status = 'finished' AND game = 'nim 3' AND random = 0 AND"
	    " base_ms = 1000 AND inc_ms = 5 AND games_per_pair = 2 AND"
	    " seed = -7 AND players = 'a,b' AND"
	    " created_at = '2025-01-01T00:00:00.000Z' AND rounds = 0 AND"
	    " forfeit_s = 0 AND sprt_elo0 IS NULL AND sprt_verdict IS NULL"
	    " AND nstart = 0 AND withdrawn = ''"), 1);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM tournaments"
	    " WHERE id = 9 AND format = 'gauntlet' AND random = 1 AND"
	    " games_per_pair = 4 AND players = 'b,a'"), 1);
	raw_text(fx->path, "SELECT group_concat(id || ':' ||"
	    " COALESCE(tournament_id, '-') || ':' || COALESCE(slot, '-'))"
	    " FROM (SELECT * FROM games ORDER BY id)", err, sizeof err);
	assert_string_equal(err, "1:3:0,2:3:1,5:9:2,6:-:-");
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM"
	    " pragma_foreign_key_check"), 0);
	assert_int_equal(raw_int(fx->path, "SELECT COUNT(*) FROM sqlite_schema"
	    " WHERE name IN ('tournaments_new', 'tournament_links')"), 0);
	integrity_ok(fx->path);

	/* The new values and the CHECKs. */
	assert_int_equal(try_exec(fx->path, "INSERT INTO tournaments (name,"
	    " format, status, game, base_ms, inc_ms, games_per_pair, seed,"
	    " players, created_at, rounds, forfeit_s, sprt_elo0, sprt_elo1,"
	    " sprt_alpha, sprt_beta, nstart, withdrawn) VALUES ('s', 'swiss',"
	    " 'paused', 'nim 3', 0, 0, 2, 1, 'a,b,engine', 'T', 1, 30, 0, 10,"
	    " 0.05, 0.05, 2, 'engine:0,b:3')"), SQLITE_OK);
	assert_int_equal(try_exec(fx->path, "UPDATE tournaments SET"
	    " sprt_verdict = 'H1' WHERE name = 's'"), SQLITE_OK);
	assert_int_equal(try_exec(fx->path, "UPDATE tournaments SET"
	    " sprt_verdict = 'H2' WHERE name = 's'"), SQLITE_CONSTRAINT);
	assert_int_equal(try_exec(fx->path, "UPDATE tournaments SET"
	    " format = 'knockout' WHERE name = 's'"), SQLITE_CONSTRAINT);
	assert_int_equal(try_exec(fx->path, "UPDATE tournaments SET"
	    " sprt_beta = NULL WHERE name = 's'"), SQLITE_CONSTRAINT);
	assert_int_equal(try_exec(fx->path, "INSERT INTO games (family, game,"
	    " player1, player2, started_at, status, tournament_id) VALUES"
	    " ('nim', 'nim 1', 'a', 'b', 'T', 'live', 99)"),
	    SQLITE_CONSTRAINT);

	/* The league reads every format and state back. */
	store_close(open_ok(fx->path, NULL));
	lg = league_open(fx->path, &lim, err, sizeof err);
	assert_non_null(lg);
	assert_int_equal(league_tournaments(lg, 1, &v, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0].format, LEAGUE_ROUNDROBIN);
	assert_int_equal(v[0].status, LEAGUE_T_FINISHED);
	assert_int_equal(v[0].has_sprt, 0);
	assert_int_equal(v[1].format, LEAGUE_GAUNTLET);
	assert_int_equal(v[1].status, LEAGUE_T_RUNNING);
	assert_int_equal(v[2].format, LEAGUE_SWISS);
	assert_int_equal(v[2].status, LEAGUE_T_PAUSED);
	assert_int_equal(v[2].rounds, 1);
	assert_int_equal(v[2].forfeit_s, 30);
	assert_int_equal(v[2].has_sprt, 1);
	assert_true(v[2].sprt_elo1 == 10 && v[2].sprt_beta == 0.05);
	assert_int_equal(v[2].sprt_verdict, 2);
	assert_int_equal(v[2].nplayers, 3);
	assert_int_equal(v[2].nstart, 2);
	assert_int_equal(v[2].wround[0], 0);
	assert_int_equal(v[2].wround[1], 4);
	assert_int_equal(v[2].wround[2], 1);
	assert_int_equal(v[0].nstart, 2);	/* 0 stored: every player */
	assert_int_equal(v[0].wround[0] + v[0].wround[1], 0);
	league_tournaments_free(v, n);
	league_close(lg);
	tu_empty_dir(fx->dir);
}

TDB_STORE_MAIN(
    cmocka_unit_test(test_migrate_v6_tours))
