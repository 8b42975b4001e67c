/*
 * test-session.c: the command tables and the preconditions session_execute
 * checks centrally from an entry's flags (CMD_F_ADMIN, CMD_F_LOBBY,
 * CMD_F_LEAGUE, CMD_F_LOGIN): each refusal's exact text, their order, and
 * `grundy engine`'s table, which has no accounts, lobby or game log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "session.h"
#include "util.h"

/* Stands in for the accounts: the checks only look at the pointer. */
static char	 test_league;

/* Runs one line through s and asserts its reply is want. */
static void
expect(struct session *s, const char *line, const char *want)
{
	struct buf	 out;
	char		*copy = strdup(line);

	buf_init(&out);
	session_execute(s, copy, strlen(copy), &out);
	assert_string_equal(buf_str(&out), want);
	buf_free(&out);
	free(copy);
}

/* A session on table with the default limits (conf must outlive it). */
static void
start(struct session *s, struct session_conf *conf,
    const struct cmd_entry *const *table)
{
	memset(conf, 0, sizeof *conf);
	game_limits_default(&conf->lim);
	conf->max_undo = 10;
	conf->max_winning = 100;
	session_init(s, 1, conf, table);
}

/* Without accounts (--db off) and without a lobby (stdio, tests). */
static void
test_no_league(void **state)
{
	struct session_conf conf;
	struct session	 s;

	(void)state;
	start(&s, &conf, cmd_table);
	expect(&s, "register ann secret12", "? accounts need the game log "
	    "(--db)\n\n");
	expect(&s, "3 login ann secret12", "?3 accounts need the game log "
	    "(--db)\n\n");
	/* The accounts before the login. */
	expect(&s, "passwd old12345 new12345", "? accounts need the game log "
	    "(--db)\n\n");
	/* The admin role first, then the accounts. */
	expect(&s, "account enable ann", "? permission denied: account "
	    "needs the admin role\n\n");
	s.admin = 1;
	expect(&s, "account enable ann", "? accounts need the game log "
	    "(--db)\n\n");
	/* Arity before any precondition. */
	expect(&s, "account enable", "? usage: account create NAME PASSWORD "
	    "| disable NAME REASON... | enable NAME | reset NAME PASSWORD\n\n");
	expect(&s, "whoami", "= account -\n\n");
	expect(&s, "games live", "? networked play is not available here\n\n");
	expect(&s, "games dead", "? usage: games [live]\n\n");
	expect(&s, "resign 5", "? networked play is not available here\n\n");
	expect(&s, "resign", "? no match in progress\n\n");
	session_free(&s);
}

/* With accounts but no login: passwd needs one. */
static void
test_login(void **state)
{
	struct session_conf conf;
	struct session	 s;

	(void)state;
	start(&s, &conf, cmd_table);
	s.league = (struct league *)(void *)&test_league;
	expect(&s, "passwd old12345 new12345", "? passwd needs a login\n\n");
	expect(&s, "7 passwd a", "?7 usage: passwd OLD NEW\n\n");
	s.league = NULL;
	session_free(&s);
}

/* grundy engine's table: the standard, game and table commands only. */
static void
test_engine_table(void **state)
{
	struct session_conf conf;
	struct session	 s;

	(void)state;
	start(&s, &conf, cmd_engine_table);
	expect(&s, "list_commands", "= protocol_version\nname\nversion\n"
	    "known_command\nlist_commands\nquit\ngames\nlimits\nnew\nshow\n"
	    "play\ngenmove\ngameover\nanalyze\nwinning\nlegal\nundo\nseed\n"
	    "match\nresign\ntable\n\n");
	expect(&s, "known_command login", "= false\n\n");
	expect(&s, "known_command table", "= true\n\n");
	expect(&s, "login ann secret12", "? unknown command\n\n");
	expect(&s, "games live", "? networked play is not available here\n\n");
	expect(&s, "new nim 1", "= nim 1\n\n");
	expect(&s, "match engine first", "=\n\n");
	expect(&s, "play 1=0", "= result first no-legal-move\n\n");
	expect(&s, "table subtraction S=1,2 count=3", "= preperiod 0\n"
	    "period 3\n0 0\n1 1\n2 2\n\n");
	session_free(&s);
}

/* The server's table names every engine command, in the same order. */
static void
test_tables(void **state)
{
	size_t	 i, j = 0;

	(void)state;
	for (i = 0; cmd_engine_table[i] != NULL; i++) {
		while (cmd_table[j] != NULL &&
		    strcmp(cmd_table[j]->name, cmd_engine_table[i]->name) != 0)
			j++;
		assert_non_null(cmd_table[j]);
	}
	assert_int_equal(i, 21);
	for (i = 0; cmd_table[i] != NULL; i++)
		for (j = i + 1; cmd_table[j] != NULL; j++)
			assert_string_not_equal(cmd_table[i]->name,
			    cmd_table[j]->name);
}

/* Enum texts: the names by value, and the fallback outside them. */
static void
test_enum_names(void **state)
{
	static const char *const names[] = { [0] = "zero", [2] = "two" };

	(void)state;
	assert_string_equal(ENUM_NAME(names, 0, "none"), "zero");
	assert_string_equal(ENUM_NAME(names, 1, "none"), "none");
	assert_string_equal(ENUM_NAME(names, 2, "none"), "two");
	assert_string_equal(ENUM_NAME(names, 3, "none"), "none");
	assert_string_equal(ENUM_NAME(names, -1, "none"), "none");
	assert_null(ENUM_NAME(names, 1, NULL));
	assert_int_equal(enum_value(names, nitems(names), "two", -1), 2);
	assert_int_equal(enum_value(names, nitems(names), "zero", -1), 0);
	assert_int_equal(enum_value(names, nitems(names), "one", -1), -1);
	assert_int_equal(enum_value(names, nitems(names), NULL, 7), 7);
	assert_string_equal(session_strstate(SESSION_IDLE), "idle");
	assert_string_equal(session_strstate(SESSION_CLOSING), "closing");
	assert_string_equal(session_strstate((enum session_state)99),
	    "unknown");
}

TU_MAIN("session",
    cmocka_unit_test(test_no_league),
    cmocka_unit_test(test_login),
    cmocka_unit_test(test_engine_table),
    cmocka_unit_test(test_tables),
    cmocka_unit_test(test_enum_names))
