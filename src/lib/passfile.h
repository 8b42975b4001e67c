/*
 * passfile.h: a password read from a file or standard input, never from
 * the command line (where ps shows it to every user).
 */
#ifndef PASSFILE_H
#define PASSFILE_H

#include <stddef.h>

int	 passfile_read(const char *, char *, size_t, char *, size_t);

#endif /* PASSFILE_H */
