/*
 * json.h: a small JSON writer into a struct buf.  Every string is escaped
 * as RFC 8259 requires and more: '"', '\\' and every control byte
 * (\n, \t, ..., \u00XX), DEL as \u007f, U+2028 and U+2029 as \u2028 and
 * \u2029 (so the text is also a safe JavaScript literal), and a byte that
 * is not part of valid UTF-8 as \ufffd; "</" is written "<\/" so that JSON
 * inside an HTML page cannot close a script element.  The writer inserts
 * the commas: call json_key before each member of an object, and the
 * values in order.  No I/O, no globals.
 */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>
#include <stdint.h>

#include "lib/buf.h"

#define JSON_DEPTH	16		/* nesting the writer tracks */

struct json {
	struct buf	*b;
	int		 depth;
	int		 more[JSON_DEPTH];	/* a value was written at depth */
	int		 keyed;			/* a key waits for its value */
};

void	 json_init(struct json *, struct buf *);
void	 json_obj(struct json *);
void	 json_arr(struct json *);
void	 json_end_obj(struct json *);
void	 json_end_arr(struct json *);
void	 json_key(struct json *, const char *);
void	 json_str(struct json *, const char *);
void	 json_int(struct json *, int64_t);
void	 json_uint(struct json *, uint64_t);
void	 json_null(struct json *);
void	 json_num1(struct json *, double);
void	 json_num4(struct json *, double);
void	 json_raw(struct json *, const char *, size_t);
/* A member: json_key, then the value. */
void	 json_kstr(struct json *, const char *, const char *);
void	 json_kint(struct json *, const char *, int64_t);
void	 json_kuint(struct json *, const char *, uint64_t);
void	 json_kbool(struct json *, const char *, int);
void	 json_knull(struct json *, const char *);
void	 json_knum1(struct json *, const char *, double);
void	 json_knum4(struct json *, const char *, double);
/* A member whose value is v if has (not 0), else null. */
void	 json_kint_if(struct json *, const char *, int, int64_t);
void	 json_kuint_if(struct json *, const char *, int, uint64_t);

/* Appends s (NULL: null) as an escaped JSON string to b. */
void	 json_quote(struct buf *, const char *);

#endif /* JSON_H */
