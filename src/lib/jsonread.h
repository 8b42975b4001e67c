/*
 * jsonread.h: a small JSON reader (RFC 8259) into a tree, for the files
 * `grundy match` reads: its engines file and its own results file
 * (--resume).  Strings are decoded (\uXXXX to UTF-8, surrogate pairs
 * joined); numbers keep their text and a double.  Nesting is bounded by
 * JSONR_DEPTH.  No I/O, no globals.
 */
#ifndef JSONREAD_H
#define JSONREAD_H

#include <stddef.h>

#define JSONR_DEPTH	64

enum jsonr_type {
	JSONR_NULL = 0,
	JSONR_BOOL,
	JSONR_NUM,
	JSONR_STR,
	JSONR_ARR,
	JSONR_OBJ,
};

struct jsonr {
	enum jsonr_type	 type;
	int		 b;		/* JSONR_BOOL */
	double		 num;		/* JSONR_NUM */
	char		*str;		/* JSONR_STR (decoded), JSONR_NUM text */
	size_t		 n;		/* JSONR_ARR, JSONR_OBJ: members */
	char		**keys;		/* JSONR_OBJ: n keys */
	struct jsonr	*items;		/* JSONR_ARR, JSONR_OBJ: n values */
};

int	 jsonr_parse(const char *, size_t, struct jsonr *, char *, size_t);
void	 jsonr_free(struct jsonr *);
const struct jsonr *jsonr_get(const struct jsonr *, const char *);
const char *jsonr_str(const struct jsonr *, const char *);
int	 jsonr_uint(const struct jsonr *, const char *, unsigned long long *);

#endif /* JSONREAD_H */
