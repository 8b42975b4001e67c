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
#include "session/session.h"
#include "lib/util.h"

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

/* A session on a table with the default limits: a test's fixture. */
struct sfx {
	struct session_conf conf;	/* outlives the session */
	struct session	 s;
};

/* Sets *state to a fixture on table. */
static int
sfx_new(void **state, const struct cmd_entry *const *table)
{
	struct sfx	*f;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return (-1);
	game_limits_default(&f->conf.lim);
	f->conf.max_undo = 10;
	f->conf.max_winning = 100;
	session_init(&f->s, 1, &f->conf, table);
	*state = f;
	return (0);
}

/* Set-ups: a session on the server's table, or on grundy engine's. */
static int
sfx_server(void **state)
{
	return (sfx_new(state, cmd_table));
}

static int
sfx_engine(void **state)
{
	return (sfx_new(state, cmd_engine_table));
}

/* Tear-down: frees the session (test_login's stand-in league first). */
static int
sfx_free(void **state)
{
	struct sfx	*f = *state;

	f->s.league = NULL;
	session_free(&f->s);
	free(f);
	return (0);
}

/* The fixture's session. */
static struct session *
sfx_session(void **state)
{
	return (&((struct sfx *)*state)->s);
}

/* Without accounts (--db off). */
static void
test_no_league(void **state)
{
	struct session	*s = sfx_session(state);

	expect(s, "register ann secret12", "? accounts need the game log "
	    "(--db)\n\n");
	expect(s, "3 login ann secret12", "?3 accounts need the game log "
	    "(--db)\n\n");
	/* The accounts before the login. */
	expect(s, "passwd old12345 new12345", "? accounts need the game log "
	    "(--db)\n\n");
	/* The admin role first, then the accounts. */
	expect(s, "account enable ann", "? permission denied: account "
	    "needs the admin role\n\n");
	s->admin = 1;
	expect(s, "account enable ann", "? accounts need the game log "
	    "(--db)\n\n");
	/* Arity before any precondition. */
	expect(s, "account enable", "? usage: account create NAME PASSWORD "
	    "| disable NAME REASON... | enable NAME | reset NAME PASSWORD\n\n");
	expect(s, "whoami", "= account -\n\n");
}

/* Without a lobby (stdio, tests): no networked play. */
static void
test_no_lobby(void **state)
{
	struct session	*s = sfx_session(state);

	expect(s, "games live", "? networked play is not available here\n\n");
	expect(s, "games dead", "? usage: games [live]\n\n");
	expect(s, "resign 5", "? networked play is not available here\n\n");
	expect(s, "resign", "? no match in progress\n\n");
}

/* With accounts but no login: passwd needs one. */
static void
test_login(void **state)
{
	struct session	*s = sfx_session(state);

	s->league = (struct league *)(void *)&test_league;
	expect(s, "passwd old12345 new12345", "? passwd needs a login\n\n");
	expect(s, "7 passwd a", "?7 usage: passwd OLD NEW\n\n");
}

/* grundy engine's table: the standard, game and table commands only. */
static void
test_engine_table(void **state)
{
	struct session	*s = sfx_session(state);

	expect(s, "list_commands", "= protocol_version\nname\nversion\n"
	    "known_command\nlist_commands\nquit\ngames\nlimits\nnew\nshow\n"
	    "play\ngenmove\ngameover\nanalyze\nwinning\nlegal\nundo\nseed\n"
	    "match\nresign\ntable\n\n");
	expect(s, "known_command login", "= false\n\n");
	expect(s, "known_command table", "= true\n\n");
	expect(s, "login ann secret12", "? unknown command\n\n");
	expect(s, "games live", "? networked play is not available here\n\n");
	expect(s, "new nim 1", "= nim 1\n\n");
	expect(s, "match engine first", "=\n\n");
	expect(s, "play 1=0", "= result first no-legal-move\n\n");
	expect(s, "table subtraction S=1,2 count=3", "= preperiod 0\n"
	    "period 3\n0 0\n1 1\n2 2\n\n");
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
    cmocka_unit_test_setup_teardown(test_no_league, sfx_server, sfx_free),
    cmocka_unit_test_setup_teardown(test_no_lobby, sfx_server, sfx_free),
    cmocka_unit_test_setup_teardown(test_login, sfx_server, sfx_free),
    cmocka_unit_test_setup_teardown(test_engine_table, sfx_engine,
	sfx_free),
    cmocka_unit_test(test_tables),
    cmocka_unit_test(test_enum_names))
