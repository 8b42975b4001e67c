/*
 * dblock.h: one daemon per database: an exclusive flock on the database
 * file itself, so any path to the same file meets it.
 */
#ifndef DBLOCK_H
#define DBLOCK_H

#include <stddef.h>

int	 dblock_take(const char *, char *, size_t);

#endif /* DBLOCK_H */
