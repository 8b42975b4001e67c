/*
 * dblock.h: one daemon per database: an exclusive lock on PATH.lock, which
 * holds the holder's pid.
 */
#ifndef DBLOCK_H
#define DBLOCK_H

#include <stddef.h>

int	 dblock_take(const char *, char *, size_t);

#endif /* DBLOCK_H */
