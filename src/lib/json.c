/*
 * json.c: the JSON writer of json.h.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/json.h"

void
json_init(struct json *j, struct buf *b)
{
	memset(j, 0, sizeof *j);
	j->b = b;
}

/* Writes the comma before a value, unless it follows its key. */
static void
json_sep(struct json *j)
{
	if (j->keyed) {
		j->keyed = 0;
		return;
	}
	if (j->depth < JSON_DEPTH) {
		if (j->more[j->depth])
			buf_putc(j->b, ',');
		j->more[j->depth] = 1;
	}
}

/* Opens an object or array. */
static void
json_open(struct json *j, char c)
{
	json_sep(j);
	buf_putc(j->b, c);
	j->depth++;
	if (j->depth < JSON_DEPTH)
		j->more[j->depth] = 0;
}

void
json_obj(struct json *j)
{
	json_open(j, '{');
}

void
json_arr(struct json *j)
{
	json_open(j, '[');
}

void
json_end_obj(struct json *j)
{
	j->depth--;
	buf_putc(j->b, '}');
}

void
json_end_arr(struct json *j)
{
	j->depth--;
	buf_putc(j->b, ']');
}

/* Writes an object member's key; its value comes next. */
void
json_key(struct json *j, const char *k)
{
	json_sep(j);
	json_quote(j->b, k);
	buf_putc(j->b, ':');
	j->keyed = 1;
}

void
json_str(struct json *j, const char *s)
{
	json_sep(j);
	json_quote(j->b, s);
}

void
json_int(struct json *j, int64_t v)
{
	json_sep(j);
	buf_printf(j->b, "%" PRId64, v);
}

void
json_uint(struct json *j, uint64_t v)
{
	json_sep(j);
	buf_printf(j->b, "%" PRIu64, v);
}

/* A boolean: true or false (for json_kbool). */
static void
json_bool(struct json *j, int v)
{
	json_sep(j);
	buf_puts(j->b, v ? "true" : "false");
}

void
json_null(struct json *j)
{
	json_sep(j);
	buf_puts(j->b, "null");
}

/* A number with prec decimals; NaN and infinities are null. */
static void
json_fmt(struct json *j, double v, int prec)
{
	json_sep(j);
	if (!isfinite(v))
		buf_puts(j->b, "null");
	else
		buf_printf(j->b, "%.*f", prec, v);
}

/* A number rounded to 0.1 (ratings). */
void
json_num1(struct json *j, double v)
{
	json_fmt(j, v, 1);
}

/* A number rounded to 0.0001 (rates). */
void
json_num4(struct json *j, double v)
{
	json_fmt(j, v, 4);
}

/* A value already in JSON (an object written by the same writer). */
void
json_raw(struct json *j, const char *s, size_t n)
{
	json_sep(j);
	buf_add(j->b, s, n);
}

/* The members: json_key, then the value. */
#define JSON_MEMBER(fn, type)						\
void									\
json_k##fn(struct json *j, const char *k, type v)			\
{									\
	json_key(j, k);							\
	json_##fn(j, v);						\
}
JSON_MEMBER(str, const char *)
JSON_MEMBER(int, int64_t)
JSON_MEMBER(uint, uint64_t)
JSON_MEMBER(bool, int)
JSON_MEMBER(num1, double)
JSON_MEMBER(num4, double)

/* The members that are null when absent: v if has, else null. */
#define JSON_MEMBER_IF(fn, type)					\
void									\
json_k##fn##_if(struct json *j, const char *k, int has, type v)	\
{									\
	json_key(j, k);							\
	if (has)							\
		json_##fn(j, v);					\
	else								\
		json_null(j);						\
}
JSON_MEMBER_IF(int, int64_t)
JSON_MEMBER_IF(uint, uint64_t)

void
json_knull(struct json *j, const char *k)
{
	json_key(j, k);
	json_null(j);
}

/*
 * Returns the length of the valid UTF-8 sequence at p (1 to 4), or 0 if
 * the bytes there are not one (overlong forms, surrogates and code points
 * above U+10FFFF are not valid).
 */
static size_t
json_utf8(const unsigned char *p)
{
	size_t		 n, i;
	uint32_t	 cp;

	if (p[0] < 0x80)
		return (1);
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		n = 2;
		cp = p[0] & 0x1f;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		n = 3;
		cp = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		n = 4;
		cp = p[0] & 0x07;
	} else
		return (0);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* the NUL ends it too */
			return (0);
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return (0);
	return (n);
}

/* The short escapes; other control bytes are \u00XX. */
static const char *const json_short[128] = {
	['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n", ['\r'] = "\\r",
	['\t'] = "\\t", ['\b'] = "\\b", ['\f'] = "\\f",
};

/* Appends the escape of one ASCII byte that needs one. */
static void
json_escape(struct buf *b, unsigned char c)
{
	if (c < 128 && json_short[c] != NULL)
		buf_puts(b, json_short[c]);
	else
		buf_printf(b, "\\u%04x", c);
}

/* Returns 1 if the byte at p is copied as it is (printable ASCII). */
static int
json_plain(const unsigned char *p, const unsigned char *start)
{
	return (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\' &&
	    (*p != '/' || p == start || p[-1] != '<'));
}

/* Appends s as an escaped JSON string (see json.h); NULL is null. */
void
json_quote(struct buf *b, const char *s)
{
	const unsigned char *start = (const unsigned char *)s, *p, *q;
	size_t		 n;

	if (s == NULL) {
		buf_puts(b, "null");
		return;
	}
	buf_putc(b, '"');
	for (p = start; *p != '\0'; ) {
		for (q = p; json_plain(q, start); q++)
			continue;
		buf_add(b, (const char *)p, (size_t)(q - p));
		if (*(p = q) == '\0')
			break;
		if (*p < 0x80 && *p != '/')
			json_escape(b, *p++);
		else if (*p == '/') {
			buf_puts(b, "\\/");
			p++;
		} else if ((n = json_utf8(p)) == 0) {
			buf_puts(b, "\\ufffd");
			p++;
		} else if (n == 3 && p[0] == 0xe2 && p[1] == 0x80 &&
		    (p[2] == 0xa8 || p[2] == 0xa9)) {
			buf_puts(b, p[2] == 0xa8 ? "\\u2028" : "\\u2029");
			p += 3;
		} else {
			buf_add(b, (const char *)p, n);
			p += n;
		}
	}
	buf_putc(b, '"');
}
