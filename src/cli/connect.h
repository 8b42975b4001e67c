/*
 * connect.h: `grundy connect`, a client for grundyd in the way of redis-cli.
 */
#ifndef CONNECT_H
#define CONNECT_H

#include <stddef.h>

int	 connect_main(int, char **);
int	 connect_dial_ms(const char *, const char *, int, char *, size_t);
/* connect-term.c: the interactive prompt on a terminal. */
int	 connect_term(int, const char *);

#endif /* CONNECT_H */
