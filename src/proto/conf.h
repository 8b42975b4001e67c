/*
 * conf.h: grundyd's settings, from command-line flags and an optional
 * configuration file with the same keys ("key = value" lines).
 */
#ifndef CONF_H
#define CONF_H

#include <stdio.h>

#include "session/session-conf.h"

#define CONF_MAX_LISTEN	16
#define CONF_MAX_NETS	64	/* entries of trusted-networks */

/* A network of trusted-networks: family, address and prefix length. */
struct conf_net {
	int		 family;	/* AF_INET or AF_INET6 */
	unsigned char	 addr[16];
	unsigned int	 bits;
};

struct conf {
	char		*listen[CONF_MAX_LISTEN];	/* ADDR:PORT */
	int		 nlisten;
	char		*config_file;
	char		*port_file;	/* write the first bound port here */
	char		*db;		/* game log path, "off", or NULL */
	char		*node_addr;	/* node-addr: HOST:PORT, or NULL */
	unsigned long	 node_ttl;	/* node-ttl: ms */
	size_t		 max_line;	/* bytes per request line */
	size_t		 max_conns;
	unsigned int	 idle_timeout;	/* seconds */
	unsigned int	 line_timeout;	/* seconds to complete a line */
	unsigned int	 workers;	/* threads for heavy commands */
	int		 verbose;
	/* Networked play (PROTOCOL.md §13). */
	char		*admins;	/* "alice,bob" */
	unsigned int	 login_lockout;	/* seconds */
	unsigned long	 clock_grace;	/* ms */
	unsigned long	 tc_base;	/* default-tc, ms */
	unsigned long	 tc_inc;
	int		 illegal_retry;	/* illegal-move = retry */
	int		 takeover;	/* restore live games at a start */
	int		 db_readers;	/* SQLite: -shm shared with others */
	size_t		 max_seeks;
	size_t		 max_watchers;
	size_t		 max_queue_bytes;	/* the log's queue (at start) */
	size_t		 max_conns_per_ip;
	unsigned int	 login_addr_failures;	/* per address, then locked */
	char		*trusted;	/* trusted-networks text */
	struct conf_net	*nets;		/* parsed, exempt from the above */
	size_t		 nnets;
	unsigned int	 max_queued_per_ip; /* heavy commands waiting */
	/* HTTP (PROTOCOL.md §14). */
	char		*http[CONF_MAX_LISTEN];	/* ADDR:PORT */
	int		 nhttp;
	size_t		 max_http_conns;
	size_t		 max_http_conns_per_ip;	/* untrusted address */
	size_t		 max_http_request;	/* bytes of line and headers */
	unsigned int	 http_timeout;		/* seconds */
	size_t		 max_http_streams;
	size_t		 max_http_streams_per_ip;
	size_t		 max_http_output;	/* bytes unread by a feed */
	size_t		 max_http_inflight;	/* big replies unsent, in all */
	unsigned long	 http_heartbeat;	/* ms */
	struct session_conf sc;
	/* Command-line settings, re-applied over the file on SIGHUP. */
	char		*flag_key[64];
	char		*flag_val[64];
	int		 nflags;
};

void	 conf_default(struct conf *);
void	 conf_free(struct conf *);
int	 conf_set(struct conf *, const char *, const char *, char *, size_t);
int	 conf_load(struct conf *, const char *, char *, size_t);
int	 conf_read(struct conf *, FILE *, const char *, char *, size_t);
void	 conf_copy_runtime(struct conf *, const struct conf *);
int	 conf_remember_flag(struct conf *, const char *, const char *);
int	 conf_apply_flags(struct conf *, const struct conf *, char *, size_t);
const char *conf_usage(void);
void	 conf_example(FILE *);
struct sockaddr_storage;
int	 conf_parse_addr(const char *, struct sockaddr_storage *, int *);
int	 conf_admins_has(const char *, const char *);
struct sockaddr;
int	 conf_trusted(const struct conf *, const struct sockaddr *);

#endif /* CONF_H */
