/*
 * connect.h: `grundy connect`, a client for grundyd in the way of redis-cli.
 */
#ifndef CONNECT_H
#define CONNECT_H

int	 connect_main(int, char **);

#endif /* CONNECT_H */
