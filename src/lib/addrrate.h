/*
 * addrrate.h: a per-address token bucket (account creation per address).
 */
#ifndef ADDRRATE_H
#define ADDRRATE_H

#include <stdint.h>

struct addrrate;

struct addrrate *addrrate_new(void);
void	 addrrate_free(struct addrrate *);
int	 addrrate_take(struct addrrate *, const char *, unsigned int,
	    uint64_t, unsigned int *);

#endif /* ADDRRATE_H */
