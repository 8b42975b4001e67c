/*
 * grundy.c: the command-line tool.  `grundy analyze GAME...` prints the
 * outcome, the Grundy value and the winning moves; `grundy play GAME...`
 * plays a person against the engine in the terminal; `grundy games` lists
 * the families.  No server is needed for these; `grundy connect` talks to
 * grundyd (connect.c).  `grundy engine` is grundyd's session as a player
 * program on stdin and stdout, and `grundy bot` connects such a program
 * to grundyd (bot.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cli/bot.h"
#include "cli/host.h"
#include "cli/cli-edit.h"
#include "cli/cli-engine.h"
#include "lib/log.h"
#include "proto/conf.h"
#include "cli/connect.h"
#include "solver/engine.h"
#include "solver/format.h"
#include "cli/match.h"
#include "proto/proto.h"
#include "session/session.h"
#include "record/verify.h"

/* Hard cap on one line of terminal input (a 1,000,000-digit move fits). */
#define GRUNDY_LINE_MAX	(1100 * 1000)

/* grundy --help; cli_usage prints it. */
static const char grundy_usage[] =
    "usage: grundy analyze [--limit N] [--max-digits N] GAME...\n"
    "       grundy play [--engine-first] [--seed N] [--max-digits N] "
    "GAME...\n"
    "       grundy connect [--pipe] [HOST:PORT]\n"
    "       grundy engine\n"
    "       grundy bot --server HOST:PORT --name NAME [OPTION...] "
    "-- PROGRAM [ARG...]\n"
    "           (its options: grundy bot --help)\n"
    "       grundy host [--server HOST:PORT] [OPTION...] FILE\n"
    "           (many bots from FILE: grundy host --help)\n"
    "       grundy match --engine cmd=PROG... --engine cmd=PROG... "
    "--game GAME [OPTION...]\n"
    "           (its options: grundy match --help)\n"
    "       grundy verify [--max-bytes N] [--max-line N] FILE\n"
    "       grundy games\n"
    "       grundy version\n"
    "       grundy [COMMAND] --help\n"
    "GAME is FAMILY [KEY=VALUE ...] POSITION, e.g. 'nim 3 4 5';\n"
    "see 'grundy games', grundy(1) and PROTOCOL.md.\n"
    "Defaults: --limit 0 (every winning move), --max-digits "
    "1000000,\n"
    "the human moves first, the engine picks its first best move "
    "unless --seed;\n"
    "connect: 127.0.0.1:7559, --pipe when stdin is not a terminal.\n"
    "On a terminal, connect shows server lines as they arrive and "
    "asks you for the\nmove of a genmove; play understands help, "
    "hint, analyze, undo and quit; both\nedit lines (libedit) and "
    "keep a history in ~/.grundy_history.\n"
    "'grundy engine' answers GTP commands (new, play, genmove, "
    "gameover, ...)\non stdin with perfect play; 'grundy bot' "
    "plays PROGRAM, a program that\nspeaks them, on grundyd "
    "(PROTOCOL.md section 13).\n";

/* Parses a non-negative size option value or exits. */
static size_t
grundy_size_arg(const char *opt, const char *s)
{
	char		*end;
	unsigned long	 v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (*s == '\0' || *s == '-' || *end != '\0' || errno != 0) {
		fprintf(stderr, "grundy: %s '%s': not a number\n", opt, s);
		exit(2);
	}
	return ((size_t)v);
}

/* Options common to the subcommands. */
struct grundy_opts {
	size_t		 limit;
	int		 engine_first;
	int		 seeded;
	unsigned long	 seed;
	struct game_limits lim;
};

/* Consumes leading --options from argv; returns the index of the game. */
static int
grundy_options(int argc, char **argv, struct grundy_opts *o)
{
	int	 a;

	for (a = 0; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
		if (strcmp(argv[a], "--") == 0)
			return (a + 1);
		if (strcmp(argv[a], "--help") == 0)
			cli_usage(0, grundy_usage);
		if (strcmp(argv[a], "--engine-first") == 0)
			o->engine_first = 1;
		else if (strcmp(argv[a], "--limit") != 0 &&
		    strcmp(argv[a], "--max-digits") != 0 &&
		    strcmp(argv[a], "--seed") != 0) {
			fprintf(stderr, "grundy: unknown option '%s'\n",
			    argv[a]);
			cli_usage(2, grundy_usage);
		} else if (a + 1 >= argc) {
			fprintf(stderr, "grundy: %s needs a value\n", argv[a]);
			cli_usage(2, grundy_usage);
		} else if (strcmp(argv[a], "--limit") == 0)
			o->limit = grundy_size_arg(argv[a], argv[a + 1]), a++;
		else if (strcmp(argv[a], "--max-digits") == 0)
			o->lim.max_digits = grundy_size_arg(argv[a],
			    argv[a + 1]), a++;
		else if (strcmp(argv[a], "--seed") == 0) {
			o->seed = grundy_size_arg(argv[a], argv[a + 1]);
			o->seeded = 1;
			a++;
		}
	}
	return (a);
}

/* Prints the analysis and winning moves of the game in argv. */
static int
grundy_analyze(int argc, char **argv, struct grundy_opts *o)
{
	struct game_error err;
	struct game	 g;
	struct buf	 out;

	if (game_parse(&g, argc, argv, &o->lim, &err) != 0) {
		fprintf(stderr, "grundy: %s\n", err.msg);
		return (1);
	}
	buf_init(&out);
	buf_puts(&out, "game ");
	game_print(&g, &out);
	buf_putc(&out, '\n');
	if (format_analysis(&g, &out, &err) != 0 ||
	    format_winning(&g, o->limit, &out, &err) != 0) {
		fprintf(stderr, "grundy: %s\n", err.msg);
		buf_free(&out);
		game_free(&g);
		return (1);
	}
	fwrite(out.data, 1, out.len, stdout);
	buf_free(&out);
	game_free(&g);
	return (0);
}

/*
 * Reads one line from stdin into b without its newline; 0 at EOF.  A line
 * longer than max is read to its end and *over set; b keeps its first
 * bytes.  An unterminated last line before EOF is a line (as in grundyd).
 */
static int
grundy_engine_line(struct buf *b, int *over, size_t max)
{
	int	 c, any = 0;

	buf_reset(b);
	*over = 0;
	while ((c = getchar()) != EOF) {
		any = 1;
		if (c == '\n')
			break;
		if (b->len < max)
			buf_putc(b, (char)c);
		else
			*over = 1;
	}
	buf_str(b);
	return (any);
}

/* Reads one line from stdin into b without its newline or a CR; 0 at EOF. */
static int
grundy_readline(struct buf *b)
{
	int	 over, any;

	any = grundy_engine_line(b, &over, GRUNDY_LINE_MAX);
	if (b->len > 0 && b->data[b->len - 1] == '\r')
		b->data[--b->len] = '\0';
	return (any);
}

/* Prints the position and whose turn it is. */
static void
grundy_show(const struct game *g, int human_to_move)
{
	struct buf	 b;

	buf_init(&b);
	game_print(g, &b);
	printf("position: %s\n%s to move\n", buf_str(&b),
	    human_to_move ? "you are" : "the engine is");
	buf_free(&b);
}

/* The engine's turn in grundy_play; returns -1 on error (printed). */
static int
grundy_engine_turn(struct cli_engine *e, struct buf *mv)
{
	if (!cli_engine_run(e, mv, "genmove")) {
		fprintf(stderr, "grundy: %s", buf_str(mv));
		return (-1);
	}
	printf("engine plays %s", buf_str(mv));
	return (0);
}

/*
 * Reads the player's line into b: with line editing and history on a
 * terminal (cli-edit.c), else plain.  Returns 0 at the end of input, -1
 * for a line over GRUNDY_LINE_MAX (refused), 1 for a line.
 */
static int
grundy_play_line(struct buf *b, int tty)
{
	char	*s;
	size_t	 n;

	if (!tty)
		return (grundy_readline(b));
	if ((s = cli_edit_line("your move> ")) == NULL)
		return (0);
	n = strlen(s);
	buf_reset(b);
	if (n <= GRUNDY_LINE_MAX)
		buf_add(b, s, n);
	buf_str(b);
	free(s);
	if (n <= GRUNDY_LINE_MAX)
		return (1);
	printf("line too long: at most %d bytes; try again\n",
	    GRUNDY_LINE_MAX);
	return (-1);
}

/*
 * Prints the reply of the engine's command cmd (analyze; hint: analyze
 * and winning 20), or "error: REASON".
 */
static void
grundy_analysis(struct cli_engine *e, const char *cmd, struct buf *out)
{
	struct buf	 more;

	buf_init(&more);
	if (!cli_engine_run(e, out, "analyze") ||
	    (strcmp(cmd, "hint") == 0 &&
	    !cli_engine_run(e, &more, "winning 20")))
		printf("error: %s", buf_str(more.len > 0 ? &more : out));
	else
		printf("%s%s", buf_str(out), buf_str(&more));
	buf_free(&more);
}

/*
 * undo in grundy_play: takes back the engine's reply and the player's move
 * before it (the engine's `undo`, twice), or nothing.
 */
static void
grundy_undo(struct cli_engine *e, struct buf *out)
{
	if (e->s.moveno < 2 || e->s.hist.n < 2) {
		printf("cannot undo: %s\n", e->s.moveno < 2 ?
		    "you have not moved yet" : "no more moves are kept");
		return;
	}
	(void)cli_engine_run(e, out, "undo");
	(void)cli_engine_run(e, out, "undo");
	printf("took back your last move and the engine's reply\n");
}

/* What grundy play understands besides moves. */
static const char grundy_play_help[] =
    "a move: INDEX=NEWVALUE (e.g. 2=1; 'grundy games' shows each game's "
    "moves)\n"
    "hint: the analysis and up to 20 winning moves\n"
    "analyze: the outcome, Grundy value and number of winning moves\n"
    "undo: takes back your last move and the engine's reply\n"
    "help: this list\n"
    "quit: gives up\n";

/*
 * The player's turn in grundy_play: reads a line and plays its move (on
 * the engine's session, which checks it).  Returns 0 once a move is
 * played, 1 to ask again, -1 when the player stops (quit or end of
 * input).
 */
static int
grundy_human_turn(struct cli_engine *e, int tty, struct buf *line,
    struct buf *mv)
{
	const char	*w;
	size_t		 n;
	int		 r;

	if ((r = grundy_play_line(line, tty)) <= 0) {
		if (r == 0)
			printf("\n");
		return (r == 0 ? -1 : 1);
	}
	w = line->data + strspn(line->data, " \t");
	if ((n = strcspn(w, " \t")) == 0)
		return (1);
	if (n == 4 && strncmp(w, "quit", 4) == 0) {
		printf("you resign: the engine wins\n");
		return (-1);
	}
	if ((n == 4 && strncmp(w, "hint", 4) == 0) ||
	    (n == 7 && strncmp(w, "analyze", 7) == 0)) {
		grundy_analysis(e, n == 4 ? "hint" : "analyze", mv);
		return (1);
	}
	if (n == 4 && strncmp(w, "help", 4) == 0) {
		fputs(grundy_play_help, stdout);
		return (1);
	}
	if (n == 4 && strncmp(w, "undo", 4) == 0)
		return (grundy_undo(e, mv), 1);
	if (!cli_engine_legal(e, w, mv)) {
		printf("illegal move: %s; try again\n", buf_str(mv));
		return (1);
	}
	(void)cli_engine_run(e, mv, "play %s", w);
	return (0);
}

/*
 * Sets up grundy play's session: the game of argv (checked and put in its
 * canonical form here, so errors read as before), the seed.  Returns 0,
 * or -1 with the error printed.
 */
static int
grundy_play_new(struct cli_engine *e, int argc, char **argv,
    const struct grundy_opts *o)
{
	struct game_error err;
	struct game	 g;
	struct buf	 b, out;
	int		 ok;

	if (game_parse(&g, argc, argv, &o->lim, &err) != 0) {
		fprintf(stderr, "grundy: %s\n", err.msg);
		return (-1);
	}
	buf_init(&b);
	buf_init(&out);
	game_print(&g, &b);
	game_free(&g);
	ok = cli_engine_run(e, &out, "new %s", buf_str(&b)) &&
	    (!o->seeded || cli_engine_run(e, &out, "seed %lu", o->seed));
	if (!ok)
		fprintf(stderr, "grundy: %s", buf_str(&out));
	buf_free(&b);
	buf_free(&out);
	return (ok ? 0 : -1);
}

/*
 * Plays a person (stdin) against the engine until the game ends, on the
 * engine's own session (`grundy engine`'s commands): moves are checked
 * and played, analysed and taken back there.
 */
static int
grundy_play(int argc, char **argv, struct grundy_opts *o)
{
	struct game_error err;
	struct cli_engine e;
	struct buf	 line, mv;
	int		 human, turn, rv = 0, tty = isatty(0);

	cli_engine_init(&e, &o->lim);
	if (grundy_play_new(&e, argc, argv, o) != 0) {
		cli_engine_free(&e);
		return (1);
	}
	buf_init(&line);
	buf_init(&mv);
	if (tty)
		cli_edit_open();
	human = !o->engine_first;
	printf("Moves are INDEX=NEWVALUE (e.g. 2=1); 'hint' shows the "
	    "winning moves, 'quit' gives up, 'help' lists the rest.\n");
	for (;;) {
		grundy_show(&e.s.game, human);
		if (game_terminal(&e.s.game)) {
			/* Normal play: the player to move lost, except misere. */
			int mover_wins = game_outcome(&e.s.game, &err) ==
			    GAME_N;
			int human_wins = human ? mover_wins : !mover_wins;

			printf("game over: %s\n", human_wins ? "you win" :
			    "the engine wins");
			break;
		}
		if (!human) {
			if (grundy_engine_turn(&e, &mv) != 0) {
				rv = 1;
				break;
			}
			human = 1;
			continue;
		}
		if ((turn = grundy_human_turn(&e, tty, &line, &mv)) < 0)
			break;
		if (turn == 0)
			human = 0;
	}
	if (tty)
		cli_edit_close();
	buf_free(&line);
	buf_free(&mv);
	cli_engine_free(&e);
	return (rv);
}

/*
 * Runs `grundy engine`: answers GTP commands from stdin on stdout with
 * grundyd's own session and default limits, so it plays perfectly; a
 * player program for `grundy bot`.  Lines are framed exactly as grundyd
 * frames them (proto_answer_feed): an answer block, which nothing here
 * awaits, gets the same error.  Exits 0 at EOF or after quit.
 */
static int
grundy_engine(void)
{
	struct conf	 c;
	struct session	 s;
	struct proto_answer ans;
	struct buf	 line, out;
	int		 over, quit = 0;

	conf_default(&c);
	session_init(&s, 0, &c.sc, cmd_engine_table);
	proto_answer_init(&ans, PROTO_ANSWER_MAX);
	buf_init(&line);
	buf_init(&out);
	while (!quit && grundy_engine_line(&line, &over, c.max_line)) {
		buf_reset(&out);
		switch (proto_answer_feed(&ans, line.data, line.len, over)) {
		case PROTO_IN_BLOCK:
			break;
		case PROTO_BLOCK_DONE:
			proto_answer_stray(&out);
			proto_answer_reset(&ans);
			break;
		case PROTO_NOT_ANSWER:
			if (over)
				proto_too_long(&out, line.data, c.max_line);
			else
				quit = session_execute(&s, line.data,
				    line.len, &out) == SESSION_CLOSE;
			break;
		}
		if (out.len > 0 && (fwrite(out.data, 1, out.len, stdout) !=
		    out.len || fflush(stdout) != 0))
			break;
	}
	proto_answer_free(&ans);
	buf_free(&line);
	buf_free(&out);
	session_free(&s);
	conf_free(&c);
	return (0);
}

int
main(int argc, char **argv)
{
	struct grundy_opts o;
	struct buf	 b;
	int		 a;

	memset(&o, 0, sizeof o);
	game_limits_default(&o.lim);
	if (argc < 2)
		cli_usage(2, grundy_usage);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0)
		cli_usage(0, grundy_usage);
	if (strcmp(argv[1], "connect") == 0)
		return (connect_main(argc - 2, argv + 2));
	if (strcmp(argv[1], "match") == 0)
		return (match_main(argc, argv));
	if (strcmp(argv[1], "verify") == 0)
		return (verify_main(argc - 1, argv + 1));
	if (strcmp(argv[1], "bot") == 0)
		return (bot_main(argc - 2, argv + 2));
	if (strcmp(argv[1], "host") == 0)
		return (host_main(argc - 2, argv + 2));
	if (strcmp(argv[1], "engine") == 0) {
		if (argc == 2)
			return (grundy_engine());
		if (strcmp(argv[2], "--help") == 0) {
			printf("usage: grundy engine\n"
			    "Answers GTP commands on stdin with grundyd's "
			    "session and default limits\n(perfect play), "
			    "until EOF or quit: a player program for "
			    "'grundy bot'.\nSee grundy(1).\n");
			return (0);
		}
		fprintf(stderr, "grundy engine: unknown argument '%s' "
		    "(it takes none)\n", argv[2]);
		return (2);
	}
	a = 2 + grundy_options(argc - 2, argv + 2, &o);
	if (strcmp(argv[1], "analyze") == 0 && a < argc)
		return (grundy_analyze(argc - a, argv + a, &o));
	if (strcmp(argv[1], "play") == 0 && a < argc)
		return (grundy_play(argc - a, argv + a, &o));
	if (strcmp(argv[1], "games") == 0) {
		buf_init(&b);
		format_games(&b);
		fputs(buf_str(&b), stdout);
		buf_free(&b);
		return (0);
	}
	if (strcmp(argv[1], "version") == 0 ||
	    strcmp(argv[1], "--version") == 0) {
		printf("grundy %s\n", PACKAGE_VERSION);
		return (0);
	}
	if (strcmp(argv[1], "analyze") != 0 && strcmp(argv[1], "play") != 0)
		fprintf(stderr, "grundy: unknown command '%s'\n", argv[1]);
	else
		fprintf(stderr, "grundy %s: missing GAME\n", argv[1]);
	cli_usage(2, grundy_usage);
}
