/*
 * testdaemon.h: what the daemon test programs share: a grundyd started on
 * an ephemeral loopback port, clients of it, and refereed matches against
 * its engine checked by the local solver.
 */
#ifndef TESTDAEMON_H
#define TESTDAEMON_H

#include <sys/types.h>

#include <stddef.h>

#include "lib/buf.h"

/* A running daemon. */
struct daemon {
	pid_t		 pid;
	int		 port;
	char		 portfile[64];
	char		 logfile[64];
	char		 dbfile[64];
};

const char	*srcpath(const char *);
long long	 now_ms(void);		/* testdb.c */
void		 daemon_child(const char *, pid_t);
void		 daemon_start(struct daemon *, const char *const *);
int		 daemon_stop(struct daemon *);
int		 client_open(const struct daemon *);
void		 client_send(int, const char *, size_t);
int		 client_recv(int, struct buf *, int, int);
char		*client_req(int, const char *);
int		 client_open_served(const struct daemon *);
char		*slurp(const char *, size_t *);
int		 play_match(int, const char *, int, unsigned long, char *,
		    size_t, long long *, int *);

#endif /* TESTDAEMON_H */
