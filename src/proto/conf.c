/*
 * conf.c: settings.  One table maps each key to its field and bounds; flags
 * (--key value) and the configuration file (key = value) both go through
 * conf_set(), so they accept exactly the same keys.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "proto/conf.h"
#include "proto/proto.h"
#include "proto/proto-addr.h"

/* Kinds of setting values. */
enum conf_kind {
	CONF_SIZE,	/* size_t */
	CONF_UINT,	/* unsigned int */
	CONF_ULONG,	/* unsigned long */
};

/* One numeric setting: key, field offset, bounds, and whether HUP reloads. */
struct conf_key {
	const char	*key;
	enum conf_kind	 kind;
	size_t		 off;
	unsigned long	 min, max;
	const char	*help;
};

#define SC(f)	(offsetof(struct conf, sc) + offsetof(struct session_conf, f))

static void	 conf_limits(const struct session_conf *, struct buf *);
#define LIM(f)	(SC(lim) + offsetof(struct game_limits, f))

/*
 * A class's budget (lib/budget.h, PROTOCOL.md §9): the settings
 * PREmax-output, PRErate, PREburst, PREmax-client-log-rate and
 * PREmax-lines-in-flight.
 */
#define BUD(c, f)	(SC(budget) + (c) * sizeof (struct budget_limits) + \
	offsetof(struct budget_limits, f))
#define BUDGET_KEYS(pre, c, who)					\
	{ pre "max-output", CONF_SIZE, BUD(c, output), 4096, 1UL << 30,	\
	    "bytes of unread replies before " who " is dropped" },	\
	{ pre "rate", CONF_UINT, BUD(c, rate), 1, 10000000,		\
	    "commands per second of " who },				\
	{ pre "burst", CONF_UINT, BUD(c, burst), 1, 10000000,		\
	    "commands " who " may send at once above the rate" },	\
	{ pre "max-client-log-rate", CONF_SIZE, BUD(c, log_rate), 4096,	\
	    1UL << 40, "bytes the games of " who " may log per minute "	\
	    "before its new games are refused" },			\
	{ pre "max-lines-in-flight", CONF_SIZE, BUD(c, lines), 4096,	\
	    1UL << 30, "bytes of request lines the address of " who	\
	    " may have on the workers before its connections wait" }

/* Every numeric key; all of them can change on SIGHUP. */
static const struct conf_key conf_keys[] = {
	{ "max-line", CONF_SIZE, offsetof(struct conf, max_line), 64,
	    64UL << 20, "bytes per request line" },
	{ "max-conns", CONF_SIZE, offsetof(struct conf, max_conns), 1,
	    1000000, "simultaneous connections" },
	{ "idle-timeout", CONF_UINT, offsetof(struct conf, idle_timeout), 1,
	    86400 * 7, "seconds a connection may stay silent" },
	{ "line-timeout", CONF_UINT, offsetof(struct conf, line_timeout), 1,
	    86400, "seconds a started request line may take to end" },
	BUDGET_KEYS("", BUDGET_TRUSTED, "a client on a trusted network"),
	{ "workers", CONF_UINT, offsetof(struct conf, workers), 1, 64,
	    "threads for heavy commands (not reloaded)" },
	{ "max-digits", CONF_SIZE, LIM(max_digits), 1, 10000000,
	    "decimal digits per number" },
	{ "max-piles", CONF_SIZE, LIM(max_piles), 1, 10000000,
	    "piles, steps or tokens per game" },
	{ "max-components", CONF_SIZE, LIM(max_components), 1, 100000,
	    "components of a sum" },
	{ "max-nodes", CONF_SIZE, LIM(max_nodes), 1, 10000000,
	    "graph nodes" },
	{ "max-edges", CONF_SIZE, LIM(max_edges), 0, 100000000,
	    "graph edges" },
	{ "max-set", CONF_SIZE, LIM(max_set), 1, 4096,
	    "elements of a subtraction set" },
	{ "max-set-value", CONF_ULONG, LIM(max_set_value), 1, 1000000,
	    "largest element of a subtraction set" },
	{ "max-table", CONF_SIZE, LIM(max_table), 16, 100000000,
	    "subtraction-game Grundy table entries" },
	{ "max-wythoff", CONF_ULONG, LIM(max_wythoff), 1, 1000,
	    "Wythoff Grundy table side (piles divided by K)" },
	{ "max-moves", CONF_SIZE, LIM(max_moves), 16, 10000000,
	    "entries in one winning-move set (K-L-Nim ranges)" },
	{ "max-reply", CONF_SIZE, LIM(max_reply), 1024, 1UL << 30,
	    "bytes of a table reply or stored table; larger new echoes "
	    "a digest" },
	{ "login-failures", CONF_UINT, SC(login_failures), 1, 1000,
	    "failed logins: a name is locked, a connection closed" },
	{ "login-lockout", CONF_UINT, offsetof(struct conf, login_lockout), 1,
	    86400, "seconds a name stays locked after failed logins" },
	{ "clock-grace", CONF_ULONG, offsetof(struct conf, clock_grace), 0,
	    10000, "ms of network latency forgiven on a game clock" },
	{ "max-seeks", CONF_SIZE, offsetof(struct conf, max_seeks), 1,
	    1000000, "open seeks (and challenges) server-wide" },
	{ "max-watchers", CONF_SIZE, offsetof(struct conf, max_watchers), 1,
	    100000, "spectators per game" },
	{ "max-plies", CONF_ULONG, SC(max_plies), 1,
	    100000000, "plies of a game before the solver adjudicates it" },
	{ "max-game-bytes", CONF_SIZE, SC(max_game_bytes),
	    4096, 1UL << 40, "bytes of moves and positions a game logs before "
	    "the solver adjudicates it" },
	{ "max-queue-bytes", CONF_SIZE, offsetof(struct conf, max_queue_bytes),
	    65536, 1UL << 40, "bytes of writes queued for the game log "
	    "(restart to change)" },
	{ "max-conns-per-ip", CONF_SIZE, offsetof(struct conf,
	    max_conns_per_ip), 1, 1000000, "connections from one address" },
	{ "login-address-failures", CONF_UINT, offsetof(struct conf,
	    login_addr_failures), 0, 1000000, "failed logins from one address "
	    "within login-lockout s before it is locked (0: no limit)" },
	{ "keepalive-idle", CONF_UINT, SC(keepalive_idle), 1, 7200,
	    "seconds of silence before a client socket is probed" },
	{ "keepalive-interval", CONF_UINT, SC(keepalive_interval), 1, 600,
	    "seconds between keepalive probes" },
	{ "keepalive-count", CONF_UINT, SC(keepalive_count), 1, 100,
	    "unanswered probes before a client is dropped" },
	{ "user-timeout", CONF_UINT, SC(user_timeout), 0, 3600000,
	    "ms sent data may stay unacknowledged before a client is dropped "
	    "(TCP_USER_TIMEOUT; 0: the kernel's)" },
	{ "max-tables", CONF_SIZE, SC(max_tables), 1,
	    100000000, "precomputed tables kept in the database" },
	{ "max-tables-bytes", CONF_SIZE, SC(max_tables_bytes), 4096,
	    1UL << 40,
	    "bytes of precomputed tables kept in the database" },
	{ "max-queued-per-ip", CONF_UINT, offsetof(struct conf,
	    max_queued_per_ip), 1, 1000000,
	    "heavy commands from one address running or waiting" },
	{ "register-rate", CONF_UINT, SC(register_rate), 0, 1000000,
	    "accounts created per hour per address (0: no limit)" },
	{ "max-undo", CONF_SIZE, SC(max_undo), 0, 1000000,
	    "positions kept for undo" },
	{ "max-undo-bytes", CONF_SIZE, SC(max_undo_bytes), 0, 1UL << 34,
	    "estimated bytes of the positions kept for undo (0: no cap)" },
	{ "max-winning", CONF_SIZE, SC(max_winning), 1, 10000000,
	    "lines of winning moves per reply" },
	{ "max-http-conns", CONF_SIZE, offsetof(struct conf, max_http_conns),
	    1, 1000000, "open HTTP connections" },
	{ "max-http-conns-per-ip", CONF_SIZE, offsetof(struct conf,
	    max_http_conns_per_ip), 1, 1000000, "open HTTP connections from "
	    "one address outside trusted-networks" },
	{ "max-http-request", CONF_SIZE, offsetof(struct conf,
	    max_http_request), 1024, 1 << 20,
	    "bytes of an HTTP request line and headers" },
	{ "http-timeout", CONF_UINT, offsetof(struct conf, http_timeout), 1,
	    3600, "seconds to send an HTTP request or take a reply" },
	{ "max-http-streams", CONF_SIZE, offsetof(struct conf,
	    max_http_streams), 1, 1000000, "open HTTP feeds" },
	{ "max-http-streams-per-ip", CONF_SIZE, offsetof(struct conf,
	    max_http_streams_per_ip), 1, 1000000,
	    "open HTTP feeds from one address (trusted-networks exempt)" },
	{ "max-http-output", CONF_SIZE, offsetof(struct conf, max_http_output),
	    4096, 1UL << 30, "bytes a feed's client has not read before it "
	    "is dropped" },
	{ "max-http-inflight", CONF_SIZE, offsetof(struct conf,
	    max_http_inflight), 65536, 1UL << 40, "bytes of replies "
	    "proportional to stored data (records, feeds' catch-ups) not yet "
	    "sent, server-wide" },
	{ "http-heartbeat", CONF_ULONG, offsetof(struct conf, http_heartbeat),
	    10, 3600000, "ms between the heartbeats of a feed" },
	BUDGET_KEYS("anonymous-", BUDGET_ANON, "an anonymous client"),
	BUDGET_KEYS("account-", BUDGET_ACCOUNT, "a logged-in client"),
	BUDGET_KEYS("admin-", BUDGET_ADMIN, "an admin"),
};

#define CONF_TRUSTED_DEFAULT	"127.0.0.0/8,::1/128"

/* Parses trusted-networks: comma-separated CIDRs, or "none"; -1 if bad. */
static int
conf_parse_nets(const char *value, struct conf_net **netsp, size_t *np)
{
	struct conf_net	*nets;
	char		*copy, *tok, *save, *slash, *end;
	size_t		 n = 0;
	unsigned long	 bits;
	int		 rc = 0;

	nets = xcalloc(CONF_MAX_NETS, sizeof *nets);
	copy = xstrdup(value);
	if (strcmp(value, "none") == 0)
		goto done;
	for (tok = strtok_r(copy, ", ", &save); tok != NULL;
	    tok = strtok_r(NULL, ", ", &save)) {
		if (n == CONF_MAX_NETS) {
			rc = -1;
			break;
		}
		if ((slash = strchr(tok, '/')) != NULL)
			*slash++ = '\0';
		if (inet_pton(AF_INET, tok, nets[n].addr) == 1) {
			nets[n].family = AF_INET;
			bits = 32;
		} else if (inet_pton(AF_INET6, tok, nets[n].addr) == 1) {
			nets[n].family = AF_INET6;
			bits = 128;
		} else {
			rc = -1;
			break;
		}
		if (slash != NULL) {
			errno = 0;
			if (!isdigit((unsigned char)*slash) ||
			    strtoul(slash, &end, 10) > bits || *end != '\0') {
				rc = -1;
				break;
			}
			bits = strtoul(slash, NULL, 10);
		}
		nets[n++].bits = (unsigned int)bits;
	}
done:
	free(copy);
	if (rc != 0) {
		free(nets);
		return (-1);
	}
	*netsp = nets;
	*np = n;
	return (0);
}

/* Returns 1 if the address is in one of the trusted networks. */
int
conf_trusted(const struct conf *c, const struct sockaddr *sa)
{
	const unsigned char *a;
	const struct conf_net *net;
	unsigned char	 v4[16];
	size_t		 i, alen;
	unsigned int	 b;
	int		 fam = sa->sa_family;

	if (fam == AF_INET) {
		a = (const unsigned char *)
		    &((const struct sockaddr_in *)sa)->sin_addr;
		alen = 4;
	} else if (fam == AF_INET6) {
		a = (const unsigned char *)
		    &((const struct sockaddr_in6 *)sa)->sin6_addr;
		alen = 16;
		/* An IPv4-mapped address counts as IPv4. */
		if (memcmp(a, "\0\0\0\0\0\0\0\0\0\0\377\377", 12) == 0) {
			memcpy(v4, a + 12, 4);
			a = v4;
			alen = 4;
			fam = AF_INET;
		}
	} else
		return (0);
	for (i = 0; i < c->nnets; i++) {
		net = &c->nets[i];
		if (net->family != fam)
			continue;
		for (b = 0; b < net->bits && b < alen * 8; b++)
			if (((a[b / 8] ^ net->addr[b / 8]) >> (7 - b % 8)) & 1)
				break;
		if (b == net->bits)
			return (1);
	}
	return (0);
}

/*
 * Each class's budget: a stranger's is small, an account's larger, a
 * trusted network's and an admin's the former per-connection limits.
 */
static void
conf_budget_default(struct budget_limits *b)
{
	static const struct budget_limits def[BUDGET_NCLASSES] = {
		[BUDGET_ANON] = { 768 * 1024, 200, 100, 4 << 20, 1 << 20 },
		[BUDGET_ACCOUNT] = { 1024 * 1024, 1000, 500, 16 << 20,
		    4 << 20 },
		[BUDGET_TRUSTED] = { 1024 * 1024, 5000, 1000, 64 << 20,
		    16 << 20 },
		[BUDGET_ADMIN] = { 1024 * 1024, 5000, 1000, 64 << 20,
		    16 << 20 },
	};
	size_t		 i;

	for (i = 0; i < BUDGET_NCLASSES; i++)
		b[i] = def[i];
}

/* Fills in the defaults: safe for a public server on 2 cores. */
void
conf_default(struct conf *c)
{
	memset(c, 0, sizeof *c);
	c->sc.limits = conf_limits;
	c->max_line = 256 * 1024;
	c->max_conns = 1024;
	c->idle_timeout = 600;
	c->line_timeout = 30;
	conf_budget_default(c->sc.budget);
	c->workers = 2;
	game_limits_default(&c->sc.lim);
	c->sc.lim.max_digits = 100000;
	c->sc.lim.max_piles = 10000;
	c->sc.lim.max_nodes = 100000;
	c->sc.lim.max_edges = 400000;
	c->sc.lim.max_set = 32;
	c->sc.lim.max_set_value = 1024;
	c->sc.lim.max_table = 1000000;
	c->sc.lim.max_wythoff = 200;
	c->sc.lim.max_reply = 512 * 1024;
	c->sc.max_undo = 1000;
	c->sc.max_undo_bytes = 16 << 20;
	c->sc.max_winning = 100000;
	c->sc.login_failures = 5;
	c->login_lockout = 30;
	c->clock_grace = 250;
	c->node_ttl = 10000;
	c->tc_base = 60000;
	c->tc_inc = 0;
	c->max_seeks = 1000;
	c->max_watchers = 256;
	c->sc.max_plies = 100000;
	c->sc.max_game_bytes = 64 << 20;
	c->max_queue_bytes = 64 << 20;
	c->max_conns_per_ip = 64;
	c->login_addr_failures = 50;
	c->sc.registration = SESSION_REG_OPEN;
	c->sc.keepalive_idle = 5;
	c->sc.keepalive_interval = 2;
	c->sc.keepalive_count = 3;
	c->sc.user_timeout = 10000;
	(void)conf_set(c, "trusted-networks", CONF_TRUSTED_DEFAULT, NULL, 0);
	c->max_queued_per_ip = 16;
	c->sc.register_rate = 20;
	c->sc.max_tables = 1000;
	c->sc.max_tables_bytes = 64 << 20;
	c->max_http_conns = 256;
	c->max_http_conns_per_ip = 32;
	c->max_http_request = 8192;
	c->http_timeout = 30;
	c->max_http_streams = 2000;
	c->max_http_streams_per_ip = 8;
	c->max_http_output = 256 * 1024;
	c->max_http_inflight = 128 << 20;
	c->http_heartbeat = 15000;
}

/* Replaces the text setting *p with a copy of value (NULL: none). */
static void
conf_str_set(char **p, const char *value)
{
	free(*p);
	*p = value != NULL ? xstrdup(value) : NULL;
}

/* Frees the strings a configuration owns. */
void
conf_free(struct conf *c)
{
	strv_clear(c->listen, (size_t)c->nlisten);
	c->nlisten = 0;
	strv_clear(c->http, (size_t)c->nhttp);
	c->nhttp = 0;
	conf_str_set(&c->config_file, NULL);
	conf_str_set(&c->port_file, NULL);
	conf_str_set(&c->db, NULL);
	conf_str_set(&c->node_addr, NULL);
	conf_str_set(&c->admins, NULL);
	conf_str_set(&c->trusted, NULL);
	free(c->nets);
	c->nets = NULL;
	c->nnets = 0;
	c->sc.admins = NULL;
	strv_clear(c->flag_key, (size_t)c->nflags);
	strv_clear(c->flag_val, (size_t)c->nflags);
	c->nflags = 0;
}

/* Records a command-line setting so that a reload keeps it; -1 if full. */
int
conf_remember_flag(struct conf *c, const char *key, const char *value)
{
	if (c->nflags == 64)
		return (-1);
	c->flag_key[c->nflags] = xstrdup(key);
	c->flag_val[c->nflags] = xstrdup(value);
	c->nflags++;
	return (0);
}

/* Applies src's remembered command-line settings to dst (flags win). */
int
conf_apply_flags(struct conf *dst, const struct conf *src, char *err,
    size_t errlen)
{
	int	 i;

	for (i = 0; i < src->nflags; i++) {
		if (strcmp(src->flag_key[i], "listen") == 0 ||
		    strcmp(src->flag_key[i], "http") == 0 ||
		    strcmp(src->flag_key[i], "port-file") == 0 ||
		    strcmp(src->flag_key[i], "db") == 0 ||
		    strcmp(src->flag_key[i], "node-addr") == 0 ||
		    strcmp(src->flag_key[i], "node-ttl") == 0)
			continue;
		if (conf_set(dst, src->flag_key[i], src->flag_val[i], err,
		    errlen) != 0)
			return (-1);
	}
	return (0);
}

/* Adds an address to a list of at most CONF_MAX_LISTEN (key names it). */
static int
conf_add_addr(char **v, int *n, const char *key, const char *value,
    char *err, size_t errlen)
{
	if (*n == CONF_MAX_LISTEN) {
		snprintf(err, errlen, "%s: at most %d addresses", key,
		    CONF_MAX_LISTEN);
		return (-1);
	}
	if (strrchr(value, ':') == NULL) {
		snprintf(err, errlen, "%s '%s': expected "
		    "ADDR:PORT or [V6ADDR]:PORT", key, value);
		return (-1);
	}
	v[(*n)++] = xstrdup(value);
	return (0);
}

/* Sets listen: one more address (checked when grundyd starts). */
static int
conf_set_listen(struct conf *c, const char *value, char *err, size_t errlen)
{
	return (conf_add_addr(c->listen, &c->nlisten, "listen", value, err,
	    errlen));
}

/* Sets http: one more HTTP address (checked when grundyd starts). */
static int
conf_set_http(struct conf *c, const char *value, char *err, size_t errlen)
{
	return (conf_add_addr(c->http, &c->nhttp, "http", value, err,
	    errlen));
}

/* Sets db. */
static int
conf_set_db(struct conf *c, const char *value, char *err, size_t errlen)
{
	conf_str_set(&c->db, value);
	return (0);
}

/* Sets node-addr: the HOST:PORT this node advertises for redirects. */
static int
conf_set_node_addr(struct conf *c, const char *value, char *err,
    size_t errlen)
{
	struct proto_addr a;
	const char	*why;

	/* 255 bytes: the node registry's column (node.h NODE_ADDR_MAX). */
	if (strlen(value) > 255 ||
	    proto_addr_parse(value, strlen(value), NULL, &a, &why) != 0) {
		snprintf(err, errlen, "node-addr '%.64s': expected HOST:PORT "
		    "of at most 255 bytes", value);
		return (-1);
	}
	conf_str_set(&c->node_addr, value);
	return (0);
}

/*
 * Parses value, a decimal integer from min to max, into *v; returns 0, or
 * -1 (*v unset).
 */
static int
conf_uint(const char *value, unsigned long long min, unsigned long long max,
    unsigned long long *v)
{
	unsigned long long n;
	char		*end;

	errno = 0;
	n = strtoull(value, &end, 10);
	if (!isdigit((unsigned char)value[0]) || *end != '\0' || errno != 0 ||
	    n < min || n > max)
		return (-1);
	*v = n;
	return (0);
}

/*
 * Sets node-ttl: ms, 300 to 3600000.  Not among conf_keys, whose list
 * `limits` prints: a single node (SQLite) answers as before.
 */
static int
conf_set_node_ttl(struct conf *c, const char *value, char *err,
    size_t errlen)
{
	unsigned long long v;

	if (conf_uint(value, 300, 3600000, &v) != 0) {
		snprintf(err, errlen, "node-ttl '%.64s': expected an integer "
		    "from 300 to 3600000", value);
		return (-1);
	}
	c->node_ttl = (unsigned long)v;
	return (0);
}

/* Sets port-file. */
static int
conf_set_port_file(struct conf *c, const char *value, char *err,
    size_t errlen)
{
	conf_str_set(&c->port_file, value);
	return (0);
}

/*
 * Returns 1 if name is in the comma-separated list of the admins setting,
 * in any case: the names reserved for the operator's admins (PROTOCOL.md
 * §13.1), which no client may register, nor a look-alike of.
 */
int
conf_admins_has(const char *admins, const char *name)
{
	size_t	 n = strlen(name);
	const char *p = admins;

	if (p == NULL || n == 0)
		return (0);
	while (*p != '\0') {
		while (*p == ',' || *p == ' ')
			p++;
		if (strncasecmp(p, name, n) == 0 &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return (1);
		while (*p != '\0' && *p != ',')
			p++;
	}
	return (0);
}

/* Sets admins: account names separated by commas. */
static int
conf_set_admins(struct conf *c, const char *value, char *err, size_t errlen)
{
	size_t	 i;

	for (i = 0; value[i] != '\0'; i++)
		if (!isalnum((unsigned char)value[i]) &&
		    strchr("_-.,", value[i]) == NULL) {
			snprintf(err, errlen, "admins '%s': expected "
			    "account names separated by commas", value);
			return (-1);
		}
	conf_str_set(&c->admins, value);
	c->sc.admins = c->admins;
	return (0);
}

/* Sets default-tc: BASE or BASE+INC in milliseconds. */
static int
conf_set_tc(struct conf *c, const char *value, char *err, size_t errlen)
{
	uint64_t	 b, n;

	if (proto_parse_tc(value, &b, &n) != 0) {
		snprintf(err, errlen, "default-tc '%s': expected BASE "
		    "or BASE+INC in milliseconds", value);
		return (-1);
	}
	c->tc_base = (unsigned long)b;
	c->tc_inc = (unsigned long)n;
	return (0);
}

/* Sets trusted-networks: ADDR[/BITS] separated by commas, or none. */
static int
conf_set_trusted(struct conf *c, const char *value, char *err,
    size_t errlen)
{
	struct conf_net	*nets;
	size_t		 n;

	if (conf_parse_nets(value, &nets, &n) != 0) {
		snprintf(err, errlen, "trusted-networks '%s': expected "
		    "up to %d ADDR[/BITS] separated by commas, or none",
		    value, CONF_MAX_NETS);
		return (-1);
	}
	free(c->nets);
	c->nets = nets;
	c->nnets = n;
	conf_str_set(&c->trusted, value);
	return (0);
}

/* Sets verbose: anything but 0 and no turns it on. */
static int
conf_set_verbose(struct conf *c, const char *value, char *err,
    size_t errlen)
{
	c->verbose = strcmp(value, "0") != 0 && strcmp(value, "no");
	return (0);
}

/* The settings whose value is not an integer, and their setters. */
static const struct {
	const char	*key;
	int		 (*set)(struct conf *, const char *, char *, size_t);
} conf_text_keys[] = {
	{ "listen", conf_set_listen },
	{ "http", conf_set_http },
	{ "db", conf_set_db },
	{ "node-addr", conf_set_node_addr },
	{ "node-ttl", conf_set_node_ttl },
	{ "port-file", conf_set_port_file },
	{ "admins", conf_set_admins },
	{ "default-tc", conf_set_tc },
	{ "trusted-networks", conf_set_trusted },
	{ "verbose", conf_set_verbose },
};

#define CONF_CHOICE_MAX	3

/*
 * The settings that take one of a few words, and the value each word
 * stores in the int at off (takeover and db-readers are read at the start only).
 */
static const struct conf_choice {
	const char	*key;
	size_t		 off;
	size_t		 n;
	const char	*words[CONF_CHOICE_MAX];
	int		 values[CONF_CHOICE_MAX];
} conf_choices[] = {
	{ "illegal-move", offsetof(struct conf, illegal_retry), 2,
	    { "lose", "retry" }, { 0, 1 } },
	{ "registration", offsetof(struct conf, sc.registration), 3,
	    { "open", "closed", "admin" },
	    { SESSION_REG_OPEN, SESSION_REG_CLOSED, SESSION_REG_ADMIN } },
	{ "takeover", offsetof(struct conf, takeover), 2, { "on", "off" },
	    { 1, 0 } },
	{ "db-readers", offsetof(struct conf, db_readers), 2, { "on", "off" },
	    { 1, 0 } },
};

/*
 * Sets choice setting ch to value, one of its words; else writes "KEY
 * 'VALUE': expected A, B or C" to err and returns -1.
 */
static int
conf_set_choice(struct conf *c, const struct conf_choice *ch,
    const char *value, char *err, size_t errlen)
{
	size_t	 i, len;

	for (i = 0; i < ch->n; i++)
		if (strcmp(value, ch->words[i]) == 0) {
			*(int *)((char *)c + ch->off) = ch->values[i];
			return (0);
		}
	snprintf(err, errlen, "%s '%s': expected ", ch->key, value);
	for (i = 0; i < ch->n; i++) {
		len = strlen(err);
		snprintf(err + len, errlen - len, "%s%s", i == 0 ? "" :
		    i + 1 == ch->n ? " or " : ", ", ch->words[i]);
	}
	return (-1);
}

/* Sets key to value; on error writes a message to err and returns -1. */
int
conf_set(struct conf *c, const char *key, const char *value, char *err,
    size_t errlen)
{
	const struct conf_key *k;
	unsigned long long v;
	size_t		 i;

	for (i = 0; i < sizeof conf_text_keys / sizeof conf_text_keys[0]; i++)
		if (strcmp(conf_text_keys[i].key, key) == 0)
			return (conf_text_keys[i].set(c, value, err, errlen));
	for (i = 0; i < sizeof conf_choices / sizeof conf_choices[0]; i++)
		if (strcmp(conf_choices[i].key, key) == 0)
			return (conf_set_choice(c, &conf_choices[i], value, err,
			    errlen));
	for (i = 0; i < sizeof conf_keys / sizeof conf_keys[0]; i++) {
		k = &conf_keys[i];
		if (strcmp(k->key, key) != 0)
			continue;
		if (conf_uint(value, k->min, k->max, &v) != 0) {
			snprintf(err, errlen, "%s '%s': expected an integer "
			    "from %lu to %lu", key, value, k->min, k->max);
			return (-1);
		}
		if (k->kind == CONF_SIZE)
			*(size_t *)((char *)c + k->off) = (size_t)v;
		else if (k->kind == CONF_UINT)
			*(unsigned int *)((char *)c + k->off) = (unsigned)v;
		else
			*(unsigned long *)((char *)c + k->off) =
			    (unsigned long)v;
		return (0);
	}
	snprintf(err, errlen, "unknown setting '%s'", key);
	return (-1);
}

/*
 * Reads a configuration file: one "key = value" per line, '#' comments,
 * blank lines ignored.  Errors name the file and line.
 */
int
conf_load(struct conf *c, const char *path, char *err, size_t errlen)
{
	FILE	*f;
	int	 rv;

	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return (-1);
	}
	rv = conf_read(c, f, path, err, errlen);
	fclose(f);
	return (rv);
}

/* Reads configuration lines from f (named path in errors); see conf_load. */
int
conf_read(struct conf *c, FILE *f, const char *path, char *err,
    size_t errlen)
{
	char	 line[1024], msg[256], *p, *key, *val, *e;
	int	 lineno = 0;

	while (fgets(line, sizeof line, f) != NULL) {
		lineno++;
		if ((p = strchr(line, '#')) != NULL)
			*p = '\0';
		for (p = line; isspace((unsigned char)*p); p++)
			;
		if (*p == '\0')
			continue;
		key = p;
		if ((e = strchr(p, '=')) == NULL) {
			snprintf(err, errlen, "%s:%d: expected key = value",
			    path, lineno);
			return (-1);
		}
		val = e + 1;
		while (e > key && isspace((unsigned char)e[-1]))
			e--;
		*e = '\0';
		while (isspace((unsigned char)*val))
			val++;
		for (e = val + strlen(val); e > val &&
		    isspace((unsigned char)e[-1]); e--)
			;
		*e = '\0';
		if (conf_set(c, key, val, msg, sizeof msg) != 0) {
			snprintf(err, errlen, "%s:%d: %s", path, lineno, msg);
			return (-1);
		}
	}
	return (0);
}

/* Copies the settings that may change at run time (SIGHUP) from src. */
void
conf_copy_runtime(struct conf *dst, const struct conf *src)
{
	const struct game_tables *tables;

	dst->max_line = src->max_line;
	dst->max_conns = src->max_conns;
	dst->idle_timeout = src->idle_timeout;
	dst->line_timeout = src->line_timeout;
	dst->verbose = src->verbose;
	dst->login_lockout = src->login_lockout;
	dst->clock_grace = src->clock_grace;
	dst->tc_base = src->tc_base;
	dst->tc_inc = src->tc_inc;
	dst->illegal_retry = src->illegal_retry;
	dst->max_seeks = src->max_seeks;
	dst->max_watchers = src->max_watchers;
	dst->max_conns_per_ip = src->max_conns_per_ip;
	dst->login_addr_failures = src->login_addr_failures;
	conf_str_set(&dst->trusted, src->trusted);
	free(dst->nets);
	dst->nnets = src->nnets;
	dst->nets = xcalloc(CONF_MAX_NETS, sizeof *dst->nets);
	if (src->nets != NULL)
		memcpy(dst->nets, src->nets, src->nnets * sizeof *dst->nets);
	dst->max_queued_per_ip = src->max_queued_per_ip;
	dst->max_http_conns = src->max_http_conns;
	dst->max_http_conns_per_ip = src->max_http_conns_per_ip;
	dst->max_http_request = src->max_http_request;
	dst->http_timeout = src->http_timeout;
	dst->max_http_streams = src->max_http_streams;
	dst->max_http_streams_per_ip = src->max_http_streams_per_ip;
	dst->max_http_output = src->max_http_output;
	dst->max_http_inflight = src->max_http_inflight;
	dst->http_heartbeat = src->http_heartbeat;
	conf_str_set(&dst->admins, src->admins);
	/* The table cache belongs to the running server: keep it. */
	tables = dst->sc.lim.tables;
	dst->sc = src->sc;
	dst->sc.lim.tables = tables;
	dst->sc.admins = dst->admins;
}

/* Formats the value of table key k in settings d into v. */
static const char *
conf_key_value(const struct conf *d, const struct conf_key *k, char *v,
    size_t len)
{
	const char	*f = (const char *)d + k->off;

	if (k->kind == CONF_SIZE)
		snprintf(v, len, "%zu", *(const size_t *)f);
	else if (k->kind == CONF_UINT)
		snprintf(v, len, "%u", *(const unsigned int *)f);
	else
		snprintf(v, len, "%lu", *(const unsigned long *)f);
	return (v);
}

/* Returns the default of table key k, as text in a static buffer. */
static const char *
conf_key_default(const struct conf *d, const struct conf_key *k)
{
	static char	 v[32];

	return (conf_key_value(d, k, v, sizeof v));
}

/*
 * Appends "KEY VALUE" for every numeric setting in force and for
 * registration: the `limits` command.  sc is the session part of a
 * struct conf (the server hands sessions &conf->sc).
 */
static void
conf_limits(const struct session_conf *sc, struct buf *out)
{
	const struct conf *c = (const struct conf *)(const void *)
	    ((const char *)sc - offsetof(struct conf, sc));
	char		 v[32];
	size_t		 i;

	for (i = 0; i < sizeof conf_keys / sizeof conf_keys[0]; i++)
		buf_printf(out, "%s %s\n", conf_keys[i].key,
		    conf_key_value(c, &conf_keys[i], v, sizeof v));
	buf_printf(out, "registration %s\n",
	    sc->registration == SESSION_REG_CLOSED ? "closed" :
	    sc->registration == SESSION_REG_ADMIN ? "admin" : "open");
}

/* Returns the default time control as BASE or BASE+INC. */
static const char *
conf_tc(const struct conf *d)
{
	static char	 v[48];

	if (d->tc_inc > 0)
		snprintf(v, sizeof v, "%lu+%lu", d->tc_base, d->tc_inc);
	else
		snprintf(v, sizeof v, "%lu", d->tc_base);
	return (v);
}

/*
 * The settings conf_set handles outside conf_keys: key, value shown as the
 * default (NULL: none), help.  The tests check that every key here and in
 * conf_keys is in the help, the example file and grundyd.conf(5).
 */
static const struct {
	const char	*key, *arg, *def, *help;
} conf_other[] = {
	{ "listen", "ADDR:PORT", "127.0.0.1:7559", "listen here, repeatable "
	    "([V6ADDR]:PORT for IPv6)" },
	{ "http", "ADDR:PORT", NULL, "serve the web pages, the JSON API and "
	    "/metrics here, repeatable (off by default)" },
	{ "db", "PATH|URL|off", NULL, "the game log: an SQLite file, a "
	    "postgresql:// URL, or off (default $STATE_DIRECTORY/grundy.db or "
	    "var/grundy.db)" },
	{ "port-file", "FILE", NULL, "write the first bound port to FILE" },
	{ "node-addr", "HOST:PORT", NULL, "the address this node advertises "
	    "for redirects (PostgreSQL; default the first listen address)" },
	{ "node-ttl", "MS", "10000", "ms a node's heartbeat and game leases "
	    "stay valid (PostgreSQL; 300 to 3600000)" },
	{ "admins", "A,B", NULL, "names reserved for admins (grundyd --add-admin grants the role)" },
	{ "default-tc", "B[+I]", NULL, "default time control, ms" },
	{ "illegal-move", "lose|retry", "lose", "an illegal move loses, or is "
	    "refused" },
	{ "verbose", "0|1", "0", "log every command" },
	{ "registration", "open|closed|admin", "open", "who may create "
	    "accounts (admin: only admins, with account create)" },
	{ "trusted-networks", "CIDR,...|none", CONF_TRUSTED_DEFAULT,
	    "addresses exempt from max-conns-per-ip and max-http-conns-per-ip" },
	{ "takeover", "on|off", "off", "at a start after a crash, restore the "
	    "live games of the log instead of abandoning them (restart)" },
	{ "db-readers", "on|off", "off", "let other processes read the SQLite "
	    "database while grundyd runs (its WAL index in the mapped -shm "
	    "file; off: in heap memory, the database grundyd's alone) "
	    "(restart)" },
};

/* Returns the help text listing every setting and its default. */
const char *
conf_usage(void)
{
	static char	 text[16384];
	struct conf	 d;
	char		 opt[64];
	const char	*def;
	size_t		 i, n = 0;

	if (text[0] != '\0')
		return (text);
	conf_default(&d);
	n += (size_t)snprintf(text + n, sizeof text - n,
	    "  --config FILE          read key = value settings from FILE\n"
	    "  --check-config         validate the settings and exit\n"
	    "  --example-config       print a configuration file with every "
	    "setting at its\n"
	    "                         default and exit\n"
	    "Settings (flags or configuration keys):\n");
	for (i = 0; i < sizeof conf_other / sizeof conf_other[0] &&
	    n < sizeof text; i++) {
		def = strcmp(conf_other[i].key, "default-tc") == 0 ?
		    conf_tc(&d) : conf_other[i].def;
		snprintf(opt, sizeof opt, "%s %s", conf_other[i].key,
		    conf_other[i].arg);
		n += (size_t)snprintf(text + n, sizeof text - n,
		    "  --%-21s %s%s%s%s\n", opt, conf_other[i].help,
		    def != NULL ? " (default " : "", def != NULL ? def : "",
		    def != NULL ? ")" : "");
	}
	for (i = 0; i < sizeof conf_keys / sizeof conf_keys[0] &&
	    n < sizeof text; i++) {
		snprintf(opt, sizeof opt, "%s N", conf_keys[i].key);
		n += (size_t)snprintf(text + n, sizeof text - n,
		    "  --%-21s %s (default %s; %lu to %lu)\n", opt,
		    conf_keys[i].help, conf_key_default(&d, &conf_keys[i]),
		    conf_keys[i].min, conf_keys[i].max);
	}
	conf_free(&d);
	return (text);
}

/*
 * Writes an example configuration file: every setting, commented out at
 * its default (or at an example value where there is no default), so that
 * it loads to exactly the defaults.
 */
void
conf_example(FILE *f)
{
	struct conf	 d;
	const char	*v;
	size_t		 i;

	conf_default(&d);
	fprintf(f, "# grundyd.conf: the settings of grundyd(8), described in "
	    "grundyd.conf(5).\n"
	    "# One \"key = value\" per line; '#' starts a comment.  Each "
	    "setting is shown\n"
	    "# commented out at its default: uncomment and change it to use "
	    "another\n"
	    "# value.  A flag (--key value) overrides the file; SIGHUP "
	    "rereads the file,\n"
	    "# except listen, http, db, port-file and workers, which need "
	    "a restart.\n"
	    "# Generated by grundyd --example-config.\n");
	for (i = 0; i < sizeof conf_other / sizeof conf_other[0]; i++) {
		fprintf(f, "\n# %s\n", conf_other[i].help);
		if (strcmp(conf_other[i].key, "default-tc") == 0)
			fprintf(f, "#default-tc = %s\n", conf_tc(&d));
		else if (strcmp(conf_other[i].key, "db") == 0)
			fprintf(f, "#db = /var/lib/grundyd/grundy.db\n");
		else if (strcmp(conf_other[i].key, "port-file") == 0)
			fprintf(f, "# (none by default)\n#port-file = "
			    "/run/grundyd/port\n");
		else if (strcmp(conf_other[i].key, "http") == 0)
			fprintf(f, "# (none by default)\n#http = "
			    "127.0.0.1:7560\n");
		else if (strcmp(conf_other[i].key, "admins") == 0)
			fprintf(f, "# (none by default)\n#admins = "
			    "alice,bob\n");
		else if (strcmp(conf_other[i].key, "node-addr") == 0)
			fprintf(f, "# (the first listen address by default)\n"
			    "#node-addr = node1.example.org:7559\n");
		else if ((v = conf_other[i].def) != NULL)
			fprintf(f, "#%s = %s\n", conf_other[i].key, v);
	}
	for (i = 0; i < sizeof conf_keys / sizeof conf_keys[0]; i++)
		fprintf(f, "\n# %s (%lu to %lu)\n#%s = %s\n",
		    conf_keys[i].help, conf_keys[i].min, conf_keys[i].max,
		    conf_keys[i].key, conf_key_default(&d, &conf_keys[i]));
	conf_free(&d);
}
