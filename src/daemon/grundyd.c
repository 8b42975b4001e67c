/*
 * grundyd.c: the daemon's entry point: settings from flags and an optional
 * configuration file, --check-config, --precompute, then the server.
 */
#include <sys/socket.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "proto/conf.h"
#include "lib/log.h"
#include "lib/passfile.h"
#include "server/server.h"
#include "store/store.h"
#include "session/tables.h"

/* Prints usage: to stdout and exit 0 for --help, else to stderr, exit 2. */
static void __attribute__((noreturn))
grundyd_usage(int status)
{
	if (status != 0) {
		fprintf(stderr, "usage: grundyd [--config FILE] "
		    "[--check-config] [--SETTING VALUE ...]\n"
		    "'grundyd --help' lists every setting and its default.\n");
		exit(status);
	}
	fprintf(stdout,
	    "usage: grundyd [--config FILE] [--check-config] [--SETTING VALUE "
	    "...]\n"
	    "       grundyd [--db PATH] [--SETTING VALUE ...] --precompute "
	    "'GAME [count=N]' ...\n"
	    "       grundyd [--db PATH] --add-admin NAME [--password-file FILE]\n"
	    "       grundyd [--db PATH] --revoke-admin NAME\n"
	    "       grundyd --example-config | --help | --version\n%s"
	    "  --precompute SPEC      fill the precomputed table of game SPEC "
	    "in the database\n"
	    "                         (count=N entries, default 20, at most "
	    "%d; wythoff also\n"
	    "                         builds its Grundy table up to the "
	    "position), print one\n"
	    "                         line and exit without serving; "
	    "repeatable\n"
	    "See grundyd(8) and grundyd.conf(5).\n", conf_usage(),
	    TABLES_MAX);
	exit(status);
}

/* Checks settings that conf_set cannot check alone; returns 0 if sound. */
static int
grundyd_validate(const struct conf *c, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	const char	*a;
	int	 i, len;

	for (i = 0; i < c->nlisten + c->nhttp; i++) {
		a = i < c->nlisten ? c->listen[i] : c->http[i - c->nlisten];
		if (conf_parse_addr(a, &ss, &len) != 0) {
			snprintf(err, errlen, "%s '%s': not a numeric "
			    "ADDR:PORT or [V6ADDR]:PORT", i < c->nlisten ?
			    "listen" : "http", a);
			return (-1);
		}
	}
	if (c->max_line < 1024) {
		snprintf(err, errlen, "max-line %zu: at least 1024 bytes",
		    c->max_line);
		return (-1);
	}
	return (0);
}

/*
 * Fills the tables of the games specs[0..n-1] ("GAME [count=N]") in store
 * st (NULL: --db off) under the limits of conf, and prints one line for
 * each.
 * Closes st.  Returns the exit status.
 */
static int
grundyd_precompute(const struct conf *conf, struct store *st, char **specs,
    int n)
{
	struct game_tables tables;
	struct game_limits lim;
	struct buf	 out, errb;
	char		*copy, *p, *sp, **av;
	size_t		 lines, j;
	int		 i, ac, rv = 0;

	if (st == NULL) {
		fprintf(stderr, "grundyd: --precompute needs a database, not "
		    "--db off\n");
		return (1);
	}
	tables_store_cache(&tables, st);
	lim = conf->sc.lim;
	lim.tables = &tables;
	buf_init(&out);
	buf_init(&errb);
	for (i = 0; i < n && rv == 0; i++) {
		copy = xstrdup(specs[i]);
		av = xreallocarray(NULL, strlen(copy) / 2 + 2, sizeof *av);
		ac = 0;
		for (p = strtok_r(copy, " \t", &sp); p != NULL;
		    p = strtok_r(NULL, " \t", &sp))
			av[ac++] = p;
		buf_reset(&out);
		buf_reset(&errb);
		if (tables_list(&lim, ac, av, &out, &errb) != 0) {
			fprintf(stderr, "grundyd: --precompute '%s': %s\n",
			    specs[i], buf_str(&errb));
			rv = 1;
		}
		if (rv == 0) {
			for (lines = 0, j = 0; j < out.len; j++)
				lines += out.data[j] == '\n';
			printf("grundyd: precomputed %s: %zu lines\n",
			    specs[i], lines);
		}
		free(av);
		free(copy);
	}
	buf_free(&out);
	buf_free(&errb);
	store_close(st);
	return (rv);
}

/*
 * --add-admin NAME (admin 1) or --revoke-admin NAME (admin 0): the
 * operator's step (PROTOCOL.md §13.1).  The password of a new admin comes
 * from pwfile, else $GRUNDY_PASSWORD, else standard input; never from the
 * command line, where ps shows it.  Returns the exit status.
 */
static int
grundyd_grant(const struct conf *conf, const char *name, int admin,
    const char *pwfile)
{
	char		 pass[160], err[1024];
	const char	*env;
	int		 r;

	pass[0] = '\0';
	if (!admin)
		;
	else if (pwfile == NULL && (env = getenv("GRUNDY_PASSWORD")) != NULL)
		snprintf(pass, sizeof pass, "%s", env);
	else if (passfile_read(pwfile != NULL ? pwfile : "-", pass,
	    sizeof pass, err, sizeof err) != 0) {
		fprintf(stderr, "grundyd: --add-admin %s: password: %s\n",
		    name, err);
		return (1);
	}
	r = server_grant(conf, name, admin ? pass : NULL, admin, err,
	    sizeof err);
	explicit_bzero(pass, sizeof pass);
	if (r < 0) {
		fprintf(stderr, "grundyd: --%s-admin %s: %s\n", admin ? "add" :
		    "revoke", name, err);
		return (1);
	}
	if (!admin)
		printf("grundyd: %s is a player again\n", name);
	else
		printf("grundyd: %s is an admin (%s)\n", name, r == 1 ?
		    "a new account" : "an existing account: its password set");
	return (0);
}

/*
 * Loads the configuration file of --config FILE, before the flags, so
 * that flags override it.  Returns 0, or 1 (printed) on error.
 */
static int
grundyd_config_file(struct conf *conf, int argc, char **argv)
{
	char	 err[512] = "";
	int	 a;

	for (a = 1; a < argc; a++)
		if (strcmp(argv[a], "--config") == 0 && a + 1 < argc) {
			conf->config_file = xstrdup(argv[a + 1]);
			if (conf_load(conf, conf->config_file, err,
			    sizeof err) != 0) {
				fprintf(stderr, "grundyd: %s\n", err);
				return (1);
			}
		}
	return (0);
}

/* Applies one --SETTING VALUE flag; returns 0, or 1 (printed) on error. */
static int
grundyd_setting(struct conf *conf, const char *flag, const char *value)
{
	char	 err[512] = "";

	if (conf_set(conf, flag + 2, value, err, sizeof err) == 0 &&
	    conf_remember_flag(conf, flag + 2, value) == 0)
		return (0);
	if (strncmp(err, "unknown setting", 15) == 0)
		fprintf(stderr, "grundyd: unknown option '%s'\n", flag);
	else
		fprintf(stderr, "grundyd: %s\n", err[0] ? err :
		    "too many command-line settings");
	return (1);
}

int
main(int argc, char **argv)
{
	struct conf	 conf;
	char		 err[512] = "", *pre[64];
	const char	*grant = NULL, *pwfile = NULL;
	int		 a, check = 0, npre = 0, admin = 0;

	conf_default(&conf);
	if (grundyd_config_file(&conf, argc, argv) != 0)
		return (1);
	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0)
			grundyd_usage(0);
		if (strcmp(argv[a], "--version") == 0) {
			printf("grundyd %s\n", PACKAGE_VERSION);
			conf_free(&conf);
			return (0);
		}
		if (strcmp(argv[a], "--check-config") == 0) {
			check = 1;
			continue;
		}
		if (strcmp(argv[a], "--example-config") == 0) {
			conf_example(stdout);
			conf_free(&conf);
			return (fflush(stdout) == 0 ? 0 : 1);
		}
		if (strncmp(argv[a], "--", 2) != 0) {
			fprintf(stderr, "grundyd: unexpected argument '%s'\n",
			    argv[a]);
			grundyd_usage(2);
		}
		if (a + 1 >= argc) {
			fprintf(stderr, "grundyd: %s needs a value\n", argv[a]);
			grundyd_usage(2);
		}
		if (strcmp(argv[a], "--precompute") == 0) {
			if (npre == (int)(sizeof pre / sizeof pre[0])) {
				fprintf(stderr, "grundyd: too many --precompute\n");
				return (1);
			}
			pre[npre++] = argv[++a];
			continue;
		}
		if (strcmp(argv[a], "--config") == 0) {
			a++;
			continue;
		}
		if (strcmp(argv[a], "--add-admin") == 0 ||
		    strcmp(argv[a], "--revoke-admin") == 0) {
			if (grant != NULL) {
				fprintf(stderr, "grundyd: one --add-admin or "
				    "--revoke-admin at a time\n");
				return (2);
			}
			admin = strcmp(argv[a], "--add-admin") == 0;
			grant = argv[++a];
			continue;
		}
		if (strcmp(argv[a], "--password-file") == 0) {
			pwfile = argv[++a];
			continue;
		}
		if (grundyd_setting(&conf, argv[a], argv[a + 1]) != 0)
			return (1);
		a++;
	}
	if (grundyd_validate(&conf, err, sizeof err) != 0) {
		fprintf(stderr, "grundyd: %s\n", err);
		return (1);
	}
	if (check) {
		printf("grundyd: configuration ok\n");
		conf_free(&conf);
		return (0);
	}
	if (pwfile != NULL && (grant == NULL || !admin)) {
		fprintf(stderr, "grundyd: --password-file goes with "
		    "--add-admin\n");
		return (2);
	}
	log_init(conf.verbose);
	if (grant != NULL)
		a = grundyd_grant(&conf, grant, admin, pwfile);
	else if (npre > 0)
		a = grundyd_precompute(&conf, server_store_open(&conf, 1),
		    pre, npre);
	else
		a = server_run(&conf);
	conf_free(&conf);
	return (a);
}
