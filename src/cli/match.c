/*
 * match.c: `grundy match` (match.h): its options, the engines file
 * (--engines, as cutechess's engines.json), and the run from start to the
 * final table.
 */
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/log.h"
#include "lib/clock.h"
#include "proto/conf.h"
#include "lib/jsonread.h"
#include "cli/match.h"
#include "record/record.h"
#include "stats/swiss.h"
#include "lib/util.h"

#define MATCH_NAME_MAX	64		/* bytes of an engine's name */
#define MATCH_DEF_TC	"10000+100"
#define MATCH_START_MS	10000
#define MATCH_REPORT_EVERY 10		/* pairs between progress lines */
#define MATCH_WALL_FACTOR 10		/* clock=cpu: the wall bound's factor */
#define MATCH_WALL_MARGIN 5000		/* and its margin (ms) */
#define MATCH_STR1(x)	#x
#define MATCH_STR(x)	MATCH_STR1(x)

/* grundy match --help; cli_usage prints it. */
static const char match_usage[] =
    "usage: grundy match --engine KEY=VALUE... --engine KEY=VALUE... "
    "[--engine ...]\n"
    "           --game GAME [--random-starts] [--seed N] "
    "[--games N]\n"
    "           [--concurrency N] [--tc 'BASE[+INC][ clock=cpu]'] "
    "[--ponder]\n"
    "           [--wall-factor N] [--wall-margin MS] [--grace MS] "
    "[--start-timeout MS]\n"
    "           [--adjudicate PLIES] [--sprt elo0=E0,elo1=E1"
    "[,alpha=A,beta=B,model=M]]\n"
    "           [--engines FILE] [--out FILE [--resume]] [--records DIR]"
    "\n"
    "           [--report-every PAIRS] [--quiet]\n"
    "           [--sandbox] [--sandbox-limits mem=M,procs=N,files=N,"
    "fsize=M,scratch=M,stderr=M]\n"
    "--engine keys: conf=NAME (from --engines), cmd=PROGRAM, "
    "name=NAME, arg=ARG\n"
    "(repeatable), option.NAME=VALUE (the program's environment), "
    "dir=DIR, sandbox=yes|no.\n"
    "Defaults: --games 2, --concurrency 1, --tc " MATCH_DEF_TC
    ", --grace 250,\n"
    "--start-timeout 10000, --report-every 10 (0: only at the end), "
    "--wall-factor " MATCH_STR(MATCH_WALL_FACTOR) ",\n"
    "--wall-margin " MATCH_STR(MATCH_WALL_MARGIN) ", a random --seed; "
    "SPRT alpha=0.05, beta=0.05, model=normalized; sandbox off,\n"
    "its limits mem=512M,procs=64,files=64,fsize=16M,scratch=16M,"
    "stderr=1M.  See grundy(1).\n";

static void	 match_engine_free(struct match_engine *);

#define match_die(...)	cli_die("grundy match: ", __VA_ARGS__)

/* Parses a whole number in 0..max or exits. */
static uint64_t
match_num(const char *opt, const char *s, uint64_t max)
{
	char			*end;
	unsigned long long	 v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0 || v > max)
		match_die("%s '%s': not a whole number from 0 to %llu", opt, s,
		    (unsigned long long)max);
	return (v);
}

/* Appends a string to a NULL-ended vector of n entries. */
static void
match_vec_add(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 2, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

/* Sets option NAME to VALUE in an engine's environment (replacing). */
static void
match_env_set(struct match_engine *e, const char *name, const char *value)
{
	size_t	 i, n = strlen(name);
	char	*kv;

	if (n == 0 || strchr(name, '=') != NULL)
		match_die("engine option '%s': not a name", name);
	kv = xmalloc(n + strlen(value) + 2);
	sprintf(kv, "%s=%s", name, value);
	for (i = 0; i < e->nenv; i++)
		if (strncmp(e->env[i], kv, n + 1) == 0) {
			free(e->env[i]);
			e->env[i] = kv;
			return;
		}
	match_vec_add(&e->env, &e->nenv, kv);
	free(kv);
}

/* Copies an engine definition (from the engines file). */
static void
match_engine_copy(struct match_engine *dst, const struct match_engine *src)
{
	size_t	 i;

	memset(dst, 0, sizeof *dst);
	dst->name = xstrdup(src->name);
	for (i = 0; i < src->argc; i++)
		match_vec_add(&dst->argv, &dst->argc, src->argv[i]);
	for (i = 0; i < src->nenv; i++)
		match_vec_add(&dst->env, &dst->nenv, src->env[i]);
	dst->dir = src->dir != NULL ? xstrdup(src->dir) : NULL;
	dst->sandbox = src->sandbox;
}

/* Reads one engine of the engines file. */
static void
match_file_engine(const char *path, const struct jsonr *o,
    struct match_engine *e)
{
	const struct jsonr *args = jsonr_get(o, "args");
	const struct jsonr *opts = jsonr_get(o, "options"), *it;
	const char	*name = jsonr_str(o, "name"), *cmd = jsonr_str(o, "cmd");
	const char	*dir = jsonr_str(o, "dir");
	char		*copy, *tok, *save;
	size_t		 i;

	memset(e, 0, sizeof *e);
	if (name == NULL)
		match_die("%s: every engine needs a \"name\" (a string)", path);
	if (cmd != NULL)
		match_vec_add(&e->argv, &e->argc, cmd);
	else if (jsonr_str(o, "command") != NULL) {
		/* cutechess's "command": the program and its words. */
		copy = xstrdup(jsonr_str(o, "command"));
		for (tok = strtok_r(copy, " \t", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t", &save))
			match_vec_add(&e->argv, &e->argc, tok);
		free(copy);
	}
	if (e->argc == 0)
		match_die("%s: engine %s needs a \"cmd\" (or cutechess's "
		    "\"command\"): a string", path, name);
	e->name = xstrdup(name);
	if (dir == NULL)
		dir = jsonr_str(o, "workingDirectory");
	if (dir != NULL)
		e->dir = xstrdup(dir);
	if ((it = jsonr_get(o, "sandbox")) != NULL) {
		if (it->type != JSONR_BOOL)
			match_die("%s: engine %s: \"sandbox\" must be true or "
			    "false", path, name);
		e->sandbox = it->b;
	}
	if (args != NULL && args->type != JSONR_ARR)
		match_die("%s: engine %s: \"args\" must be an array of "
		    "strings", path, name);
	for (i = 0; args != NULL && i < args->n; i++) {
		if (args->items[i].type != JSONR_STR)
			match_die("%s: engine %s: \"args\" must be an array "
			    "of strings", path, name);
		match_vec_add(&e->argv, &e->argc, args->items[i].str);
	}
	if (opts != NULL && opts->type != JSONR_OBJ && opts->type != JSONR_ARR)
		match_die("%s: engine %s: \"options\" must be an object or an "
		    "array of {\"name\", \"value\"}", path, name);
	for (i = 0; opts != NULL && i < opts->n; i++) {
		it = &opts->items[i];
		if (opts->type == JSONR_OBJ && it->type == JSONR_STR)
			match_env_set(e, opts->keys[i], it->str);
		else if (opts->type == JSONR_OBJ && it->type == JSONR_NUM)
			match_env_set(e, opts->keys[i], it->str);
		else if (opts->type == JSONR_ARR && jsonr_str(it, "name") !=
		    NULL && jsonr_get(it, "value") != NULL &&
		    jsonr_get(it, "value")->str != NULL)
			match_env_set(e, jsonr_str(it, "name"),
			    jsonr_get(it, "value")->str);
		else
			match_die("%s: engine %s: option %zu: a string or "
			    "number value is needed", path, name, i + 1);
	}
}

/* Reads the engines file: a JSON array of engines. */
static struct match_engine *
match_engines_file(const char *path, size_t *n)
{
	struct match_engine *v;
	struct jsonr	 root;
	struct buf	 b;
	char		 why[160];
	size_t		 i;

	buf_init(&b);
	if (match_read_file(path, &b, why, sizeof why) != 0 ||
	    jsonr_parse(b.data != NULL ? b.data : "", b.len, &root, why,
	    sizeof why) != 0)
		match_die("--engines %s: %s", path, why);
	buf_free(&b);
	if (root.type != JSONR_ARR || root.n > MATCH_ENGINES_MAX * 16)
		match_die("--engines %s: not a JSON array of at most %d "
		    "engines", path, MATCH_ENGINES_MAX * 16);
	v = xcalloc(root.n + 1, sizeof *v);
	for (i = 0; i < root.n; i++)
		match_file_engine(path, &root.items[i], &v[i]);
	*n = root.n;
	jsonr_free(&root);
	return (v);
}

/*
 * Parses the KEY=VALUE words of one --engine (argv[*i] onwards, up to the
 * next option) into e.
 */
static void
match_engine_arg(int argc, char **argv, int *i, struct match_engine *e,
    const struct match_engine *conf, size_t nconf)
{
	const char	*w, *cmd = NULL;
	size_t		 k;
	int		 from_conf = 0;

	memset(e, 0, sizeof *e);
	for (; *i < argc && strncmp(argv[*i], "--", 2) != 0; (*i)++) {
		w = argv[*i];
		if (strncmp(w, "conf=", 5) == 0) {
			for (k = 0; k < nconf &&
			    strcmp(conf[k].name, w + 5) != 0; k++)
				;
			if (k == nconf)
				match_die("--engine %s: no such engine in the "
				    "engines file (--engines, given first)", w);
			match_engine_copy(e, &conf[k]);
			from_conf = 1;
		} else if (strncmp(w, "cmd=", 4) == 0)
			cmd = w + 4;
		else if (strncmp(w, "name=", 5) == 0) {
			free(e->name);
			e->name = xstrdup(w + 5);
		} else if (strncmp(w, "arg=", 4) == 0)
			match_vec_add(&e->argv, &e->argc, w + 4);
		else if (strncmp(w, "dir=", 4) == 0) {
			free(e->dir);
			e->dir = xstrdup(w + 4);
		} else if (strcmp(w, "sandbox=yes") == 0)
			e->sandbox = 1;
		else if (strcmp(w, "sandbox=no") == 0)
			e->sandbox = 0;
		else if (strncmp(w, "option.", 7) == 0 &&
		    strchr(w, '=') != NULL) {
			char *k2 = xstrdup(w + 7), *eq = strchr(k2, '=');

			*eq = '\0';
			match_env_set(e, k2, eq + 1);
			free(k2);
		} else
			match_die("--engine: '%s': not conf=, cmd=, name=, "
			    "arg=, dir=, sandbox=yes|no or option.NAME=", w);
	}
	if (cmd != NULL && from_conf) {
		free(e->argv[0]);
		e->argv[0] = xstrdup(cmd);
	} else if (cmd != NULL) {
		/* cmd= goes first, before any arg= given before it. */
		e->argv = xreallocarray(e->argv, e->argc + 2,
		    sizeof *e->argv);
		e->argv[e->argc] = NULL;
		memmove(&e->argv[1], &e->argv[0], (e->argc + 1) *
		    sizeof *e->argv);
		e->argv[0] = xstrdup(cmd);
		e->argc++;
	}
	if (e->argc == 0)
		match_die("--engine: no cmd= (or conf=)");
	if (e->name == NULL)
		e->name = xstrdup(e->argv[0]);
	if (e->name[0] == '\0' || strlen(e->name) > MATCH_NAME_MAX ||
	    strpbrk(e->name, " \t\r\n\"\\") != NULL ||
	    strcmp(e->name, RECORD_ENGINE) == 0)
		match_die("--engine: name '%s': 1 to %d bytes, no blank or "
		    "quote, not \"%s\" (the records' name of grundyd's "
		    "engine)", e->name, MATCH_NAME_MAX, RECORD_ENGINE);
}

/* Parses --sprt elo0=E0,elo1=E1[,alpha=A][,beta=B][,model=M]. */
static void
match_sprt_arg(struct match *m, const char *arg)
{
	char		*copy = xstrdup(arg), *tok, *save, *end;
	double		 elo0 = NAN, elo1 = NAN, alpha = 0.05, beta = 0.05, *d;
	enum sprt_model	 model = SPRT_NORMALIZED;
	enum sprt_err	 e;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		d = strncmp(tok, "elo0=", 5) == 0 ? &elo0 :
		    strncmp(tok, "elo1=", 5) == 0 ? &elo1 :
		    strncmp(tok, "alpha=", 6) == 0 ? &alpha :
		    strncmp(tok, "beta=", 5) == 0 ? &beta : NULL;
		if (strcmp(tok, "model=logistic") == 0)
			model = SPRT_LOGISTIC;
		else if (strcmp(tok, "model=normalized") == 0)
			model = SPRT_NORMALIZED;
		else if (d == NULL)
			match_die("--sprt: '%s': not elo0=, elo1=, alpha=, "
			    "beta= or model=logistic|normalized", tok);
		else {
			errno = 0;
			*d = strtod(strchr(tok, '=') + 1, &end);
			if (*end != '\0' || end == strchr(tok, '=') + 1 ||
			    errno != 0 || !isfinite(*d))
				match_die("--sprt: '%s': not a number", tok);
		}
	}
	free(copy);
	if (isnan(elo0) || isnan(elo1))
		match_die("--sprt: elo0= and elo1= are needed");
	if ((e = sprt_init(&m->sprt, model, elo0, elo1, alpha, beta)) !=
	    SPRT_OK)
		match_die("--sprt: %s", sprt_strerror(e));
	m->has_sprt = 1;
}

/* Parses one option at argv[*i] (not --engine); *i moves past it. */
static void
match_option(struct match *m, int argc, char **argv, int *i,
    const char **tc, int *seeded, int *sandbox_all)
{
	const char	*o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	char		 why[160];
	int		 flag = 1;

	if (strcmp(o, "--random-starts") == 0)
		m->random_starts = 1;
	else if (strcmp(o, "--resume") == 0)
		m->resume = 1;
	else if (strcmp(o, "--quiet") == 0)
		m->quiet = 1;
	else if (strcmp(o, "--ponder") == 0)
		m->ponder = 1;
	else if (strcmp(o, "--sandbox") == 0)
		*sandbox_all = 1;
	else if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0)
		cli_usage(0, match_usage);
	else
		flag = 0;
	if (flag) {
		(*i)++;
		return;
	}
	if (v == NULL)
		match_die("%s: a value is needed (grundy match --help)", o);
	if (strcmp(o, "--game") == 0)
		m->game_spec = xstrdup(v);
	else if (strcmp(o, "--seed") == 0) {
		m->seed = match_num(o, v, UINT64_MAX);
		*seeded = 1;
	} else if (strcmp(o, "--games") == 0)
		m->ngames = match_num(o, v, MATCH_GAMES_MAX);
	else if (strcmp(o, "--concurrency") == 0)
		m->conc = match_num(o, v, MATCH_CONC_MAX);
	else if (strcmp(o, "--tc") == 0)
		*tc = v;
	else if (strcmp(o, "--grace") == 0)
		m->grace_ms = match_num(o, v, PROTO_TC_MAX);
	else if (strcmp(o, "--wall-factor") == 0)
		m->wall_factor = match_num(o, v, 1000);
	else if (strcmp(o, "--wall-margin") == 0)
		m->wall_margin_ms = match_num(o, v, PROTO_TC_MAX);
	else if (strcmp(o, "--start-timeout") == 0)
		m->start_ms = match_num(o, v, PROTO_TC_MAX);
	else if (strcmp(o, "--adjudicate") == 0)
		m->adjudicate = (long)match_num(o, v, 1000000000);
	else if (strcmp(o, "--sprt") == 0)
		match_sprt_arg(m, v);
	else if (strcmp(o, "--records") == 0)
		m->records = v;
	else if (strcmp(o, "--report-every") == 0)
		m->report_every = match_num(o, v, MATCH_GAMES_MAX);
	else if (strcmp(o, "--out") == 0)
		m->out = v;
	else if (strcmp(o, "--sandbox-limits") == 0) {
		if (sandbox_parse(v, &m->sandbox, why, sizeof why) != 0)
			match_die("--sandbox-limits: %s", why);
	} else
		match_die("unknown option %s (grundy match --help)", o);
	*i += 2;
}

/*
 * Returns 1 if an engine's program can be run: a path (relative to its
 * dir= if it has one) that is executable, or a name found on PATH.
 */
static int
match_runnable(const struct match_engine *e)
{
	const char	*cmd = e->argv[0], *path = getenv("PATH");
	struct buf	 b;
	char		*copy, *dir, *save;
	int		 ok = 0;

	buf_init(&b);
	if (strchr(cmd, '/') != NULL) {
		if (cmd[0] != '/' && e->dir != NULL)
			buf_printf(&b, "%s/", e->dir);
		buf_puts(&b, cmd);
		ok = access(buf_str(&b), X_OK) == 0;
		buf_free(&b);
		return (ok);
	}
	copy = xstrdup(path != NULL ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir != NULL && !ok;
	    dir = strtok_r(NULL, ":", &save)) {
		buf_reset(&b);
		buf_printf(&b, "%s/%s", dir, cmd);
		ok = access(buf_str(&b), X_OK) == 0;
	}
	free(copy);
	buf_free(&b);
	return (ok);
}

/*
 * Parses --tc BASE[+INC][ clock=cpu|wall] (the time control of the
 * record's tc header) into m, or exits.
 */
static void
match_tc(struct match *m, const char *tc)
{
	const char	*sp = strchr(tc, ' ');
	char		*base = xstrdup(tc);

	if (sp != NULL) {
		base[sp - tc] = '\0';
		if (strcmp(sp + 1, RECORD_CLOCK_CPU) == 0)
			m->cpu_clock = 1;
		else if (strcmp(sp + 1, "clock=wall") != 0)
			match_die("--tc '%s': '%s' is not clock=cpu or "
			    "clock=wall", tc, sp + 1);
	}
	if (proto_parse_tc(base, &m->base_ms, &m->inc_ms) != 0)
		match_die("--tc '%s': not BASE or BASE+INC in milliseconds "
		    "(BASE from 1, both at most %llu), then clock=cpu or "
		    "clock=wall if given", tc, PROTO_TC_MAX);
	free(base);
	if (m->wall_factor == 0)
		match_die("--wall-factor: at least 1");
}

/* Parses the command line into m. */
static void
match_args(struct match *m, int argc, char **argv)
{
	struct match_engine *conf = NULL;
	const char	*tc = MATCH_DEF_TC;
	size_t		 nconf = 0, k, j;
	int		 i, seeded = 0, sandbox_all = 0, boxed = 0;
	struct buf	 why;
	const char	*mode = NULL;

	/* The engines file first: --engine conf=NAME may come before it. */
	for (i = 2; i + 1 < argc; i++)
		if (strcmp(argv[i], "--engines") == 0 && conf == NULL)
			conf = match_engines_file(argv[i + 1], &nconf);
	for (i = 2; i < argc;) {
		if (strcmp(argv[i], "--engines") == 0 && i + 1 < argc) {
			i += 2;
			continue;
		}
		if (strcmp(argv[i], "--engine") != 0) {
			match_option(m, argc, argv, &i, &tc, &seeded,
			    &sandbox_all);
			continue;
		}
		if (m->neng == MATCH_ENGINES_MAX)
			match_die("at most %d engines", MATCH_ENGINES_MAX);
		i++;
		m->eng = xreallocarray(m->eng, m->neng + 1, sizeof *m->eng);
		match_engine_arg(argc, argv, &i, &m->eng[m->neng], conf,
		    nconf);
		m->neng++;
	}
	if (m->neng < 2)
		match_die("two engines or more are needed (--engine)");
	for (k = 0; k < m->neng; k++) {
		if (sandbox_all)
			m->eng[k].sandbox = 1;
		boxed |= m->eng[k].sandbox;
	}
	/* A sandbox that cannot work here is said now, not as crashes. */
	buf_init(&why);
	if (boxed && chan_sandbox_check(&m->sandbox, &why, &mode) != 0)
		match_die("--sandbox: the sandbox (bwrap) cannot run here: %s",
		    buf_str(&why));
	if (boxed)
		fprintf(stderr, "match: sandbox: bwrap and seccomp, limits by "
		    "%s\n", mode);
	buf_free(&why);
	for (k = 0; k < m->neng; k++)
		if (!match_runnable(&m->eng[k]))
			match_die("engine %s: %s: not an executable program",
			    m->eng[k].name, m->eng[k].argv[0]);
	for (k = 0; k < m->neng; k++)
		for (j = k + 1; j < m->neng; j++)
			if (strcmp(m->eng[k].name, m->eng[j].name) == 0)
				match_die("two engines are named %s: give "
				    "name=", m->eng[k].name);
	if (m->game_spec == NULL)
		match_die("--game is needed");
	if (m->ngames == 0 || m->conc == 0)
		match_die("--games and --concurrency must be at least 1");
	if (m->has_sprt && m->neng != 2)
		match_die("--sprt needs exactly two engines");
	if (m->resume && m->out == NULL)
		match_die("--resume needs --out");
	match_tc(m, tc);
	if (!seeded && getrandom(&m->seed, sizeof m->seed, 0) !=
	    sizeof m->seed)
		m->seed = clock_wall_ms();
	m->seed_given = seeded;
	for (k = 0; k < nconf; k++)
		match_engine_free(&conf[k]);
	free(conf);
}

/* Frees an engine definition. */
static void
match_engine_free(struct match_engine *e)
{
	strv_free(e->argv, e->argc);
	strv_free(e->env, e->nenv);
	free(e->name);
	free(e->dir);
}

/* Checks the game and makes the slots. */
static void
match_setup(struct match *m)
{
	struct game_error err;
	struct game	 g;
	struct mproc	*p;
	size_t		 s, k;

	if (game_parse_line(&m->tmpl, m->game_spec, &m->lim, &err) != 0)
		match_die("--game '%s': %s", m->game_spec, err.msg);
	m->npairings = rr_pairing(0, m->neng, 0, 0, NULL, NULL);
	if (m->random_starts) {
		if (match_start(m, 0, &g, &err) != 0)
			match_die("--game '%s' --random-starts: %s",
			    m->game_spec, err.msg);
		game_free(&g);
	}
	m->res = xcalloc(m->ngames, sizeof *m->res);
	m->tally = xcalloc(m->npairings, sizeof *m->tally);
	if (m->conc > m->ngames)
		m->conc = m->ngames;
	m->slots = xcalloc(m->conc, sizeof *m->slots);
	for (s = 0; s < m->conc; s++) {
		m->slots[s].m = m;
		game_move_init(&m->slots[s].answer);
		for (k = 0; k < 2; k++) {
			p = &m->slots[s].proc[k];
			chan_init(&p->ch);
			proto_answer_init(&p->ans, PROTO_ANSWER_MAX);
		}
	}
}

/* Frees what the run holds. */
static void
match_cleanup(struct match *m)
{
	size_t	 i, k;

	for (i = 0; i < m->conc; i++) {
		match_record_clear(&m->slots[i]);
		free(m->slots[i].mv);
		game_move_clear(&m->slots[i].answer);
		buf_free(&m->slots[i].line);
		buf_free(&m->slots[i].text);
		buf_free(&m->slots[i].pos);
		for (k = 0; k < 2; k++) {
			chan_free(&m->slots[i].proc[k].ch);
			proto_answer_free(&m->slots[i].proc[k].ans);
		}
	}
	for (i = 0; i < m->ngames; i++) {
		free(m->res[i].start);
		free(m->res[i].detail);
	}
	for (i = 0; i < m->neng; i++)
		match_engine_free(&m->eng[i]);
	free(m->eng);
	free(m->slots);
	free(m->res);
	free(m->tally);
	buf_free(&m->gjson);
	free(m->game_spec);
	game_free(&m->tmpl);
	game_free(&m->start);
}

/*
 * grundy match: runs the games, prints the table.  Exits 0 when every
 * game was played or the SPRT decided, 130 when interrupted (SIGINT or
 * SIGTERM: the results so far are printed and written), 1 when the run
 * could not go on (an engine could not be started), 2 on bad usage.
 */
int
match_main(int argc, char **argv)
{
	struct match	 m;
	struct conf	 c;
	struct rusage	 ru;
	int		 rv;

	memset(&m, 0, sizeof m);
	conf_default(&c);
	m.grace_ms = c.clock_grace;
	conf_free(&c);
	m.ngames = 2;
	m.conc = 1;
	m.start_ms = MATCH_START_MS;
	m.wall_factor = MATCH_WALL_FACTOR;
	m.wall_margin_ms = MATCH_WALL_MARGIN;
	m.adjudicate = -1;
	m.report_every = MATCH_REPORT_EVERY;
	game_limits_default(&m.lim);
	sandbox_defaults(&m.sandbox);
	match_args(&m, argc, argv);
	match_setup(&m);
	if (m.resume && match_load(&m) != 0)
		exit(2);
	if (m.records != NULL && mkdir(m.records, 0755) != 0 &&
	    errno != EEXIST)
		match_die("--records %s: %s", m.records, strerror(errno));
	if (match_writer_start(&m) != 0)
		match_die("cannot start the writer thread: %s",
		    strerror(errno));
	m.t0 = clock_mono_ns();
	rv = match_run(&m);
	mp_stop_all(&m);
	if (m.out != NULL && match_write_out(&m, 1) != 0) {
		fprintf(stderr, "grundy match: %s: %s\n", m.out,
		    strerror(errno));
		if (rv == 0)
			rv = -1;
	}
	match_writer_stop(&m);
	match_progress(&m, 1);
	match_table(&m, rv == 1);
	/* Even with --quiet (no progress lines): the run's cost. */
	getrusage(RUSAGE_SELF, &ru);
	fprintf(stderr, "match: %zu games in %.3f s, %.3f s of CPU in grundy "
	    "match itself\n", m.ndone, (double)(clock_mono_ns() - m.t0) / 1e9,
	    (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
	match_cleanup(&m);
	return (rv == 1 ? 130 : rv < 0 ? 1 : 0);
}
