/*
 * host.c: `grundy host [--server HOST:PORT] [--status-every S]
 * [--restarts N] [--backoff-ms MS] FILE` (host.h): reads the bots file (a
 * JSON object, grundy(1)), starts every bot as `grundy bot` (this very
 * program, so the bot's code is bot.c's, not a copy) through chan_spawn in
 * a process group and a process tree of its own (ptree.h: its program,
 * whatever it forks, is in it, and the file's limits hold it), and then
 * watches them on one poll loop: a bot that exits 0 has played its games;
 * one that crashes is started again after a backoff that doubles (first
 * --backoff-ms, at most HOST_BACKOFF_MAX_MS), at most --restarts times in
 * a row (a run of HOST_STABLE_MS or more starts the count again); past
 * that it has failed.  A status line per bot (its CPU time and peak
 * memory over all its runs) goes to stdout on SIGUSR1, every
 * --status-every seconds and at the end; SIGTERM or SIGINT stops every
 * bot (SIGTERM to its group, then the whole tree killed after
 * HOST_STOP_MS).  Signals reach the loop through a pipe.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/chan.h"
#include "cli/host.h"
#include "cli/match.h"
#include "cli/ptree.h"
#include "cli/sandbox.h"
#include "lib/buf.h"
#include "lib/clock.h"
#include "lib/jsonread.h"
#include "lib/log.h"
#include "lib/util.h"

#define HOST_BOTS_MAX		256	/* bots in one file */
#define HOST_RESTARTS		10	/* crashes in a row before failed */
#define HOST_BACKOFF_MS		1000	/* the first wait before a restart */
#define HOST_BACKOFF_MAX_MS	60000	/* the longest */
#define HOST_STABLE_MS		60000	/* a run this long resets the count */
#define HOST_STOP_MS		5000	/* SIGTERM, then the tree is killed */
#define HOST_STATUS_S		60	/* default --status-every */

static const char host_usage[] =
    "usage: grundy host [--server HOST:PORT[,...]] [--status-every S] "
    "[--restarts N]\n"
    "           [--backoff-ms MS] FILE\n"
    "Runs every bot of FILE (JSON: {\"server\": ..., \"bots\": [{\"name\","
    " \"account\",\n\"password_file\", \"cmd\", \"args\", \"dir\", "
    "\"sandbox\", \"sandbox_limits\", \"limits\",\n\"ponder\", "
    "\"register\", "
    "\"seek\", \"accept\", \"games\"}, ...]}) as a grundy bot;\n"
    "restarts a crashed one.\n"
    "Defaults: --status-every 60 (0: only on SIGUSR1 and at the end), "
    "--restarts 10,\n--backoff-ms 1000.  See grundy(1).\n";

/* A hosted bot's life cycle: changed only in hb_set, which logs it. */
#define HB_STATES(X)							\
	/* waiting to be started (again) */				\
	X(HB_WAIT, "waiting")						\
	/* its grundy bot runs */					\
	X(HB_UP, "up")							\
	/* exited 0: its games are played */				\
	X(HB_DONE, "done")						\
	/* crashed more than --restarts times in a row */		\
	X(HB_FAILED, "failed")						\
	/* stopped by grundy host (SIGTERM, SIGINT) */			\
	X(HB_STOPPED, "stopped")
enum hb_state { HB_STATES(ENUM_X_ID) };
static const char *const hb_names[] = { HB_STATES(ENUM_X_NAME) };

/* One bot of the file, and its runs. */
struct hbot {
	char		*name;		/* the file's label */
	char		**argv;		/* grundy bot's, NULL-ended */
	size_t		 argc;
	char		*dir;		/* its working directory, or NULL */
	struct ptree_limits lim;
	enum hb_state	 state;
	struct chan	 ch;		/* grundy bot's pipes and pid */
	struct ptree	*tree;		/* this run's tree, or NULL */
	unsigned	 runs, fails;	/* runs started; crashes in a row */
	uint64_t	 started_ms, next_ms;
	uint64_t	 cpu_past_ns;	/* the runs that ended */
	uint64_t	 cpu_ns;	/* this run's, as last read */
	uint64_t	 peak;		/* bytes: the most of any run */
	char		 last[64];	/* how the last run ended */
};

struct host {
	struct hbot	*bot;
	size_t		 nbot;
	unsigned	 restarts;
	uint64_t	 backoff_ms;
	uint64_t	 status_ms;	/* 0: none by time */
	char		 self[PATH_MAX];	/* this program */
};

static int	 host_sigpipe[2] = { -1, -1 };

#define host_die(...)	cli_die("grundy host: ", __VA_ARGS__)

/* Writes the signal's number to the pipe the loop polls. */
static void
host_on_signal(int sig)
{
	unsigned char	 c = (unsigned char)sig;
	int		 saved = errno;

	(void)write(host_sigpipe[1], &c, 1);
	errno = saved;
}

/* Changes a bot's state: the one place that does; logs old -> new. */
static void
hb_set(struct hbot *b, enum hb_state st, const char *why)
{
	fprintf(stderr, "grundy host: %s: %s -> %s%s%s\n", b->name,
	    ENUM_NAME(hb_names, b->state, "?"), ENUM_NAME(hb_names, st, "?"),
	    why != NULL ? ": " : "", why != NULL ? why : "");
	b->state = st;
}

/* Appends s to a NULL-ended vector of n entries. */
static void
host_vec_add(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 2, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

/* A path of the file resolved against base (the file's directory). */
static char *
host_path(const char *base, const char *p)
{
	struct buf	 b;
	char		*s;

	if (p[0] == '/')
		return (xstrdup(p));
	buf_init(&b);
	buf_printf(&b, "%s/%s", base, p);
	s = xstrdup(buf_str(&b));
	buf_free(&b);
	return (s);
}

/* A string member, or NULL; exits if it is there and not a string. */
static const char *
host_str(const struct jsonr *o, const char *key, const char *bot,
    int required)
{
	const struct jsonr *v = jsonr_get(o, key);

	if (v == NULL && !required)
		return (NULL);
	if (v == NULL || v->type != JSONR_STR || v->str[0] == '\0')
		host_die("bot %s: \"%s\" must be a non-empty string", bot, key);
	return (v->str);
}

/* A boolean member (false when absent), or exits. */
static int
host_bool(const struct jsonr *o, const char *key, const char *bot)
{
	const struct jsonr *v = jsonr_get(o, key);

	if (v == NULL)
		return (0);
	if (v->type != JSONR_BOOL)
		host_die("bot %s: \"%s\" must be true or false", bot, key);
	return (v->b);
}

/* A whole-number member (0 when absent) up to max, or exits. */
static uint64_t
host_num(const struct jsonr *o, const char *key, const char *bot,
    uint64_t max)
{
	unsigned long long v;

	if (jsonr_get(o, key) == NULL)
		return (0);
	if (jsonr_uint(o, key, &v) != 0 || v > max)
		host_die("bot %s: \"%s\" must be a whole number up to %llu",
		    bot, key, (unsigned long long)max);
	return (v);
}

/* The limits of a bot's tree: memory_mb, processes, files, file_size_mb. */
static void
host_limits(struct hbot *b, const struct jsonr *o)
{
	const struct jsonr *l = jsonr_get(o, "limits");
	size_t		 i;

	if (l == NULL)
		return;
	if (l->type != JSONR_OBJ)
		host_die("bot %s: \"limits\" must be an object", b->name);
	for (i = 0; i < l->n; i++)
		if (strcmp(l->keys[i], "memory_mb") != 0 &&
		    strcmp(l->keys[i], "processes") != 0 &&
		    strcmp(l->keys[i], "files") != 0 &&
		    strcmp(l->keys[i], "file_size_mb") != 0)
			host_die("bot %s: limit \"%s\": not memory_mb, "
			    "processes, files or file_size_mb", b->name,
			    l->keys[i]);
	b->lim.mem_bytes = host_num(l, "memory_mb", b->name, 1 << 20) << 20;
	b->lim.procs = (unsigned)host_num(l, "processes", b->name, 1 << 20);
	b->lim.files = (unsigned)host_num(l, "files", b->name, 1 << 20);
	b->lim.fsize_bytes = host_num(l, "file_size_mb", b->name, 1 << 20) <<
	    20;
}

/*
 * One bot of the file: its grundy bot command line, from the file's keys
 * (paths relative to the file's directory base, the program's to dir).
 */
static void
host_bot(struct host *h, struct hbot *b, const struct jsonr *o,
    const char *server, const char *base)
{
	const struct jsonr *args = jsonr_get(o, "args");
	struct sandbox_opts sb;
	const char	*pw, *dir, *seek, *sl, *cmd;
	char		*path, num[32], why[256];
	uint64_t	 games;
	size_t		 i;

	if (o->type != JSONR_OBJ)
		host_die("every bot must be an object");
	b->name = xstrdup(host_str(o, "name", "?", 1));
	host_vec_add(&b->argv, &b->argc, h->self);
	host_vec_add(&b->argv, &b->argc, "bot");
	host_vec_add(&b->argv, &b->argc, "--server");
	host_vec_add(&b->argv, &b->argc, server);
	host_vec_add(&b->argv, &b->argc, "--name");
	host_vec_add(&b->argv, &b->argc, host_str(o, "account", b->name, 1));
	pw = host_str(o, "password_file", b->name, 1);
	path = host_path(base, pw);
	if (access(path, R_OK) != 0)
		host_die("bot %s: password_file %s: %s", b->name, path,
		    strerror(errno));
	host_vec_add(&b->argv, &b->argc, "--password-file");
	host_vec_add(&b->argv, &b->argc, path);
	free(path);
	if (host_bool(o, "register", b->name))
		host_vec_add(&b->argv, &b->argc, "--register");
	if (host_bool(o, "accept", b->name))
		host_vec_add(&b->argv, &b->argc, "--accept");
	if ((seek = host_str(o, "seek", b->name, 0)) != NULL) {
		host_vec_add(&b->argv, &b->argc, "--seek");
		host_vec_add(&b->argv, &b->argc, seek);
	}
	if ((games = host_num(o, "games", b->name, 1000000000)) > 0) {
		snprintf(num, sizeof num, "%llu", (unsigned long long)games);
		host_vec_add(&b->argv, &b->argc, "--games");
		host_vec_add(&b->argv, &b->argc, num);
	}
	if (host_bool(o, "sandbox", b->name))
		host_vec_add(&b->argv, &b->argc, "--sandbox");
	if (host_bool(o, "ponder", b->name))
		host_vec_add(&b->argv, &b->argc, "--ponder");
	if ((sl = host_str(o, "sandbox_limits", b->name, 0)) != NULL) {
		sandbox_defaults(&sb);
		if (sandbox_parse(sl, &sb, why, sizeof why) != 0)
			host_die("bot %s: sandbox_limits: %s", b->name, why);
		host_vec_add(&b->argv, &b->argc, "--sandbox-limits");
		host_vec_add(&b->argv, &b->argc, sl);
	}
	host_limits(b, o);
	if ((dir = host_str(o, "dir", b->name, 0)) != NULL)
		b->dir = host_path(base, dir);
	/* A relative path of the program's is its dir's (else the file's). */
	cmd = host_str(o, "cmd", b->name, 1);
	path = strchr(cmd, '/') != NULL ? host_path(b->dir != NULL ? b->dir :
	    base, cmd) : xstrdup(cmd);
	host_vec_add(&b->argv, &b->argc, "--");
	host_vec_add(&b->argv, &b->argc, path);
	free(path);
	if (args != NULL && args->type != JSONR_ARR)
		host_die("bot %s: \"args\" must be an array of strings",
		    b->name);
	for (i = 0; args != NULL && i < args->n; i++) {
		if (args->items[i].type != JSONR_STR)
			host_die("bot %s: \"args\" must be an array of strings",
			    b->name);
		host_vec_add(&b->argv, &b->argc, args->items[i].str);
	}
	chan_init(&b->ch);
	b->state = HB_WAIT;
}

/* Reads the bots file into h; --server (or NULL) overrides its server. */
static void
host_load(struct host *h, const char *file, const char *server)
{
	struct jsonr	 root;
	const struct jsonr *bots;
	struct buf	 text;
	char		 why[256], *base, *slash;
	size_t		 i, j;

	buf_init(&text);
	if (match_read_file(file, &text, why, sizeof why) != 0 ||
	    jsonr_parse(text.data != NULL ? text.data : "", text.len, &root,
	    why, sizeof why) != 0)
		host_die("%s: %s", file, why);
	buf_free(&text);
	if (root.type != JSONR_OBJ)
		host_die("%s: not a JSON object", file);
	if (server == NULL && (server = jsonr_str(&root, "server")) == NULL)
		host_die("%s: no \"server\" (or give --server)", file);
	bots = jsonr_get(&root, "bots");
	if (bots == NULL || bots->type != JSONR_ARR || bots->n == 0 ||
	    bots->n > HOST_BOTS_MAX)
		host_die("%s: \"bots\" must be an array of 1 to %d bots", file,
		    HOST_BOTS_MAX);
	base = xstrdup(file);
	if ((slash = strrchr(base, '/')) != NULL)
		*slash = '\0';
	else
		strcpy(base, ".");
	h->bot = xcalloc(bots->n, sizeof *h->bot);
	h->nbot = bots->n;
	for (i = 0; i < bots->n; i++) {
		host_bot(h, &h->bot[i], &bots->items[i], server, base);
		for (j = 0; j < i; j++)
			if (strcmp(h->bot[j].name, h->bot[i].name) == 0)
				host_die("%s: two bots are named %s", file,
				    h->bot[i].name);
	}
	free(base);
	jsonr_free(&root);
}

/* Reads a running bot's CPU time and peak memory into its totals. */
static void
hb_measure(struct hbot *b)
{
	uint64_t	 v;

	if (b->tree == NULL)
		return;
	if (ptree_cpu_ns(b->tree, &v) == 0)
		b->cpu_ns = v;
	if (ptree_peak_bytes(b->tree, &v) == 0 && v > b->peak)
		b->peak = v;
}

/* Starts a bot's grundy bot in a process group and a tree of its own. */
static void
hb_start(struct hbot *b)
{
	struct chan_prog o = {
		.argv = b->argv,
		.dir = b->dir,
		.group = 1,
		.who = "grundy host",
	};
	const char	*step;
	char		 why[128];

	b->runs++;
	b->cpu_ns = 0;
	if (chan_spawn(&b->ch, &o, &step) != 0) {
		snprintf(why, sizeof why, "%s: %s", step, strerror(errno));
		snprintf(b->last, sizeof b->last, "not started");
		hb_set(b, HB_FAILED, why);
		return;
	}
	if ((b->tree = ptree_new(b->name, &b->lim)) != NULL &&
	    ptree_enter(b->tree, b->ch.pid) != 0) {
		ptree_free(b->tree);
		b->tree = NULL;
	}
	b->started_ms = clock_mono_ms();
	snprintf(why, sizeof why, "run %u, pid %ld", b->runs,
	    (long)b->ch.pid);
	hb_set(b, HB_UP, why);
}

/* Ends a run: whatever is left of its tree killed, its CPU kept. */
static void
hb_reap(struct hbot *b)
{
	hb_measure(b);
	b->cpu_past_ns += b->cpu_ns;
	b->cpu_ns = 0;
	if (b->tree != NULL) {
		ptree_kill(b->tree);
		ptree_free(b->tree);
		b->tree = NULL;
	}
	chan_close(&b->ch);
}

/* A run ended with status: done, a restart after the backoff, or failed. */
static void
hb_ended(struct host *h, struct hbot *b, int status)
{
	uint64_t	 now = clock_mono_ms(), wait;
	char		 why[128];
	const char	*viol = b->tree != NULL ? ptree_violation(b->tree) :
			    NULL;

	if (WIFEXITED(status))
		snprintf(b->last, sizeof b->last, "exited with status %d",
		    WEXITSTATUS(status));
	else
		snprintf(b->last, sizeof b->last, "killed by signal %d%s%s",
		    WIFSIGNALED(status) ? WTERMSIG(status) : 0,
		    viol != NULL ? ", " : "", viol != NULL ? viol : "");
	hb_reap(b);
	if (b->state == HB_STOPPED)
		return;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		hb_set(b, HB_DONE, b->last);
		return;
	}
	if (now - b->started_ms >= HOST_STABLE_MS)
		b->fails = 0;
	if (b->fails >= h->restarts) {
		snprintf(why, sizeof why, "%s; %u restarts in a row", b->last,
		    b->fails);
		hb_set(b, HB_FAILED, why);
		return;
	}
	wait = h->backoff_ms << (b->fails < 16 ? b->fails : 16);
	if (wait > HOST_BACKOFF_MAX_MS || wait < h->backoff_ms)
		wait = HOST_BACKOFF_MAX_MS;
	b->fails++;
	b->next_ms = now + wait;
	snprintf(why, sizeof why, "%s; restart %u of %u in %llu ms", b->last,
	    b->fails, h->restarts, (unsigned long long)wait);
	hb_set(b, HB_WAIT, why);
}

/* Prints one status line per bot on stdout. */
static void
host_status(struct host *h, const char *when)
{
	struct hbot	*b;
	size_t		 i;

	for (i = 0; i < h->nbot; i++) {
		b = &h->bot[i];
		if (b->state == HB_UP)
			hb_measure(b);
		printf("host %s: %s state=%s runs=%u restarts=%u cpu=%.3fs "
		    "peak=%.1fMiB last=\"%s\"\n", when, b->name,
		    ENUM_NAME(hb_names, b->state, "?"), b->runs,
		    b->runs > 0 ? b->runs - 1 : 0,
		    (double)(b->cpu_past_ns + b->cpu_ns) / 1e9,
		    (double)b->peak / 1048576, b->last);
	}
	fflush(stdout);
}

/* Reaps every bot whose grundy bot has exited. */
static void
host_reap(struct host *h)
{
	struct hbot	*b;
	size_t		 i;
	int		 status;

	for (i = 0; i < h->nbot; i++) {
		b = &h->bot[i];
		if (b->ch.pid <= 0 || (b->state != HB_UP &&
		    b->state != HB_STOPPED))
			continue;
		/* Its tree is read while it is a zombie, before the reap. */
		hb_measure(b);
		if (chan_wait(&b->ch, 0, &status) == 1)
			hb_ended(h, b, status);
	}
}

/*
 * Stops every running bot: SIGTERM to its group (grundy bot stops its
 * program), up to HOST_STOP_MS for all to leave, then the trees killed.
 */
static void
host_stop(struct host *h)
{
	uint64_t	 end = clock_mono_ms() + HOST_STOP_MS;
	size_t		 i, left;
	int		 status;

	for (i = 0; i < h->nbot; i++)
		if (h->bot[i].state == HB_UP) {
			hb_measure(&h->bot[i]);
			hb_set(&h->bot[i], HB_STOPPED, NULL);
			kill(-h->bot[i].ch.pid, SIGTERM);
		} else if (h->bot[i].state == HB_WAIT)
			hb_set(&h->bot[i], HB_STOPPED, NULL);
	do {
		left = 0;
		for (i = 0; i < h->nbot; i++) {
			if (h->bot[i].ch.pid <= 0)
				continue;
			if (chan_wait(&h->bot[i].ch, 0, &status) == 1)
				hb_ended(h, &h->bot[i], status);
			else
				left++;
		}
		if (left > 0)
			poll(NULL, 0, 20);
	} while (left > 0 && clock_mono_ms() < end);
	for (i = 0; i < h->nbot; i++)
		if (h->bot[i].ch.pid > 0) {
			hb_reap(&h->bot[i]);
			chan_kill(&h->bot[i].ch, SIGKILL);
		}
}

/* Reads and drops what a bot's grundy bot writes on stdout. */
static void
hb_drain(struct hbot *b)
{
	if (chan_read(&b->ch) != 0) {
		close(b->ch.rfd);	/* EOF: its exit comes by SIGCHLD */
		b->ch.rfd = -1;
	}
	buf_reset(&b->ch.in);
	b->ch.in_off = 0;
}

/* Parses the options; returns the index of FILE. */
static int
host_options(struct host *h, int argc, char **argv, const char **server)
{
	unsigned long long v;
	char		*end;
	int		 a;

	for (a = 0; a < argc && strncmp(argv[a], "--", 2) == 0; a += 2) {
		if (strcmp(argv[a], "--help") == 0)
			cli_usage(0, host_usage);
		if (a + 1 >= argc)
			host_die("%s: a value is needed", argv[a]);
		if (strcmp(argv[a], "--server") == 0) {
			*server = argv[a + 1];
			continue;
		}
		errno = 0;
		v = strtoull(argv[a + 1], &end, 10);
		if (argv[a + 1][0] < '0' || argv[a + 1][0] > '9' ||
		    *end != '\0' || errno != 0 || v > 86400000)
			host_die("%s '%s': not a whole number", argv[a],
			    argv[a + 1]);
		if (strcmp(argv[a], "--status-every") == 0)
			h->status_ms = v * 1000;
		else if (strcmp(argv[a], "--restarts") == 0)
			h->restarts = (unsigned)v;
		else if (strcmp(argv[a], "--backoff-ms") == 0 && v > 0)
			h->backoff_ms = v;
		else
			host_die("unknown option %s (grundy host --help)",
			    argv[a]);
	}
	if (a != argc - 1)
		cli_usage(2, host_usage);
	return (a);
}

/* One turn of the loop: signals, output, exits, restarts, status. */
static int
host_turn(struct host *h, uint64_t *next_status)
{
	struct pollfd	 pfd[1 + HOST_BOTS_MAX];
	size_t		 i, n = 1, who[1 + HOST_BOTS_MAX];
	uint64_t	 now = clock_mono_ms(), next = now + 60000;
	unsigned char	 sig[16];
	ssize_t		 k, j;
	int		 stop = 0;

	pfd[0].fd = host_sigpipe[0];
	pfd[0].events = POLLIN;
	for (i = 0; i < h->nbot; i++) {
		if (h->bot[i].state == HB_WAIT && h->bot[i].next_ms < next)
			next = h->bot[i].next_ms;
		if (h->bot[i].state == HB_UP && h->bot[i].ch.rfd != -1) {
			pfd[n].fd = h->bot[i].ch.rfd;
			pfd[n].events = POLLIN;
			who[n++] = i;
		}
	}
	if (*next_status != 0 && *next_status < next)
		next = *next_status;
	if (poll(pfd, n, next <= now ? 0 : (int)(next - now)) < 0 &&
	    errno != EINTR)
		return (-1);
	for (i = 1; i < n; i++)
		if (pfd[i].revents != 0)
			hb_drain(&h->bot[who[i]]);
	if (pfd[0].revents != 0 && (k = read(host_sigpipe[0], sig,
	    sizeof sig)) > 0)
		for (j = 0; j < k; j++) {
			if (sig[j] == SIGUSR1)
				host_status(h, "status");
			else if (sig[j] == SIGTERM || sig[j] == SIGINT)
				stop = 1;
		}
	host_reap(h);
	if (stop)
		return (1);
	now = clock_mono_ms();
	for (i = 0; i < h->nbot; i++)
		if (h->bot[i].state == HB_WAIT && h->bot[i].next_ms <= now)
			hb_start(&h->bot[i]);
	if (*next_status != 0 && now >= *next_status) {
		host_status(h, "status");
		*next_status = now + h->status_ms;
	}
	for (i = 0; i < h->nbot; i++)
		if (h->bot[i].state == HB_WAIT || h->bot[i].state == HB_UP)
			return (0);
	return (1);	/* every bot done or failed */
}

/*
 * grundy host: exits 0 when every bot is done or was stopped, 1 if one
 * failed, 2 on bad usage or a bad file.
 */
int
host_main(int argc, char **argv)
{
	struct host	 h;
	struct sigaction sa;
	const char	*server = NULL;
	uint64_t	 next_status;
	ssize_t		 n;
	size_t		 i;
	int		 a, failed = 0;

	memset(&h, 0, sizeof h);
	h.restarts = HOST_RESTARTS;
	h.backoff_ms = HOST_BACKOFF_MS;
	h.status_ms = HOST_STATUS_S * 1000;
	a = host_options(&h, argc, argv, &server);
	if ((n = readlink("/proc/self/exe", h.self, sizeof h.self - 1)) <= 0)
		host_die("/proc/self/exe: %s", strerror(errno));
	h.self[n] = '\0';
	host_load(&h, argv[a], server);
	if (pipe2(host_sigpipe, O_CLOEXEC | O_NONBLOCK) != 0)
		host_die("pipe: %s", strerror(errno));
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = host_on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < h.nbot; i++)
		hb_start(&h.bot[i]);
	next_status = h.status_ms != 0 ? clock_mono_ms() + h.status_ms : 0;
	while (host_turn(&h, &next_status) == 0)
		;
	host_stop(&h);
	host_status(&h, "end");
	for (i = 0; i < h.nbot; i++) {
		failed |= h.bot[i].state == HB_FAILED;
		strv_free(h.bot[i].argv, h.bot[i].argc);
		free(h.bot[i].name);
		free(h.bot[i].dir);
		chan_free(&h.bot[i].ch);
	}
	free(h.bot);
	return (failed);
}
