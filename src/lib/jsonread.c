/*
 * jsonread.c: a small JSON reader into a tree (jsonread.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"
#include "lib/jsonread.h"
#include "lib/util.h"

struct jsonr_in {
	const char	*s;
	size_t		 len, pos;
	char		*err;
	size_t		 errlen;
};

static int	 jsonr_value(struct jsonr_in *, struct jsonr *, int);

/* Sets the error (the first one wins) and returns -1. */
static int
jsonr_fail(struct jsonr_in *in, const char *what)
{
	if (in->err != NULL && in->errlen > 0 && in->err[0] == '\0')
		snprintf(in->err, in->errlen, "byte %zu: %s", in->pos, what);
	return (-1);
}

static void
jsonr_ws(struct jsonr_in *in)
{
	while (in->pos < in->len && strchr(" \t\r\n", in->s[in->pos]) != NULL &&
	    in->s[in->pos] != '\0')
		in->pos++;
}

static int
jsonr_lit(struct jsonr_in *in, const char *lit)
{
	size_t	 n = strlen(lit);

	if (in->len - in->pos < n || memcmp(in->s + in->pos, lit, n) != 0)
		return (jsonr_fail(in, "unexpected token"));
	in->pos += n;
	return (0);
}

/* Reads 4 hex digits. */
static int
jsonr_hex4(struct jsonr_in *in, unsigned long *c)
{
	char	 tmp[5], *end;

	if (in->len - in->pos < 4)
		return (jsonr_fail(in, "short \\u escape"));
	memcpy(tmp, in->s + in->pos, 4);
	tmp[4] = '\0';
	if (strspn(tmp, "0123456789abcdefABCDEF") != 4)
		return (jsonr_fail(in, "bad \\u escape"));
	*c = strtoul(tmp, &end, 16);
	in->pos += 4;
	return (0);
}

/* Reads one escape after the backslash into b. */
static int
jsonr_escape(struct jsonr_in *in, struct buf *b)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char	*p;
	unsigned long	 c, lo;
	char		 e;

	if (in->pos >= in->len)
		return (jsonr_fail(in, "unterminated string"));
	e = in->s[in->pos++];
	if (e != 'u') {
		if (e == '\0' || (p = strchr(from, e)) == NULL)
			return (jsonr_fail(in, "bad escape"));
		buf_putc(b, to[p - from]);
		return (0);
	}
	if (jsonr_hex4(in, &c) != 0)
		return (-1);
	if (c >= 0xd800 && c < 0xdc00) {
		if (in->len - in->pos < 2 || in->s[in->pos] != '\\' ||
		    in->s[in->pos + 1] != 'u')
			return (jsonr_fail(in, "lone surrogate"));
		in->pos += 2;
		if (jsonr_hex4(in, &lo) != 0)
			return (-1);
		if (lo < 0xdc00 || lo >= 0xe000)
			return (jsonr_fail(in, "lone surrogate"));
		c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
	} else if (c >= 0xdc00 && c < 0xe000)
		return (jsonr_fail(in, "lone surrogate"));
	buf_utf8(b, c);
	return (0);
}

/* Reads a string (at its opening quote) into *out (allocated). */
static int
jsonr_string(struct jsonr_in *in, char **out)
{
	struct buf	 b;
	unsigned char	 c;

	buf_init(&b);
	in->pos++;
	for (;;) {
		if (in->pos >= in->len) {
			buf_free(&b);
			return (jsonr_fail(in, "unterminated string"));
		}
		c = (unsigned char)in->s[in->pos++];
		if (c == '"')
			break;
		if (c < 0x20) {
			buf_free(&b);
			return (jsonr_fail(in, "control byte in a string"));
		}
		if (c != '\\')
			buf_putc(&b, (char)c);
		else if (jsonr_escape(in, &b) != 0) {
			buf_free(&b);
			return (-1);
		}
	}
	*out = xstrdup(buf_str(&b));
	buf_free(&b);
	return (0);
}

static int
jsonr_number(struct jsonr_in *in, struct jsonr *v)
{
	size_t	 start = in->pos, n;
	char	*end;

	while (in->pos < in->len && in->s[in->pos] != '\0' &&
	    strchr("+-0123456789.eE", in->s[in->pos]) != NULL)
		in->pos++;
	n = in->pos - start;
	if (n == 0)
		return (jsonr_fail(in, "unexpected token"));
	v->str = xmalloc(n + 1);
	memcpy(v->str, in->s + start, n);
	v->str[n] = '\0';
	v->num = strtod(v->str, &end);
	v->type = JSONR_NUM;
	if (*end != '\0')
		return (jsonr_fail(in, "bad number"));
	return (0);
}

/* Reads the members of an array or object (at its opening bracket). */
static int
jsonr_members(struct jsonr_in *in, struct jsonr *v, int depth, int obj)
{
	size_t	 cap = 0;
	char	 close = obj ? '}' : ']';

	v->type = obj ? JSONR_OBJ : JSONR_ARR;
	in->pos++;
	jsonr_ws(in);
	if (in->pos < in->len && in->s[in->pos] == close) {
		in->pos++;
		return (0);
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? 2 * cap : 4;
			v->items = xreallocarray(v->items, cap,
			    sizeof *v->items);
			if (obj)
				v->keys = xreallocarray(v->keys, cap,
				    sizeof *v->keys);
		}
		memset(&v->items[v->n], 0, sizeof v->items[v->n]);
		jsonr_ws(in);
		if (obj) {
			if (in->pos >= in->len || in->s[in->pos] != '"')
				return (jsonr_fail(in, "expected a key"));
			if (jsonr_string(in, &v->keys[v->n]) != 0)
				return (-1);
			jsonr_ws(in);
			if (in->pos >= in->len || in->s[in->pos] != ':') {
				free(v->keys[v->n]);
				return (jsonr_fail(in, "expected ':'"));
			}
			in->pos++;
		}
		v->n++;
		if (jsonr_value(in, &v->items[v->n - 1], depth + 1) != 0)
			return (-1);
		jsonr_ws(in);
		if (in->pos < in->len && in->s[in->pos] == ',') {
			in->pos++;
			continue;
		}
		if (in->pos < in->len && in->s[in->pos] == close) {
			in->pos++;
			return (0);
		}
		return (jsonr_fail(in, obj ? "expected ',' or '}'" :
		    "expected ',' or ']'"));
	}
}

static int
jsonr_value(struct jsonr_in *in, struct jsonr *v, int depth)
{
	if (depth > JSONR_DEPTH)
		return (jsonr_fail(in, "nested too deep"));
	jsonr_ws(in);
	if (in->pos >= in->len)
		return (jsonr_fail(in, "unexpected end"));
	switch (in->s[in->pos]) {
	case '{':
	case '[':
		return (jsonr_members(in, v, depth, in->s[in->pos] == '{'));
	case '"':
		v->type = JSONR_STR;
		return (jsonr_string(in, &v->str));
	case 't':
		v->type = JSONR_BOOL;
		v->b = 1;
		return (jsonr_lit(in, "true"));
	case 'f':
		v->type = JSONR_BOOL;
		return (jsonr_lit(in, "false"));
	case 'n':
		return (jsonr_lit(in, "null"));
	default:
		return (jsonr_number(in, v));
	}
}

/*
 * Parses len bytes of s into *v.  Returns 0, or -1 with a message in err
 * (and *v freed).
 */
int
jsonr_parse(const char *s, size_t len, struct jsonr *v, char *err,
    size_t errlen)
{
	struct jsonr_in	 in = { s, len, 0, err, errlen };

	if (errlen > 0)
		err[0] = '\0';
	memset(v, 0, sizeof *v);
	if (jsonr_value(&in, v, 0) == 0) {
		jsonr_ws(&in);
		if (in.pos == len)
			return (0);
		jsonr_fail(&in, "trailing bytes");
	}
	jsonr_free(v);
	return (-1);
}

void
jsonr_free(struct jsonr *v)
{
	size_t	 i;

	for (i = 0; i < v->n; i++) {
		jsonr_free(&v->items[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof *v);
}

/* Returns the member of an object with a key, or NULL. */
const struct jsonr *
jsonr_get(const struct jsonr *v, const char *key)
{
	size_t	 i;

	if (v == NULL || v->type != JSONR_OBJ)
		return (NULL);
	for (i = 0; i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0)
			return (&v->items[i]);
	return (NULL);
}

/* Returns the string member key of an object, or NULL. */
const char *
jsonr_str(const struct jsonr *v, const char *key)
{
	const struct jsonr *m = jsonr_get(v, key);

	return (m != NULL && m->type == JSONR_STR ? m->str : NULL);
}

/* Reads the member key as a whole number >= 0.  Returns 0, or -1. */
int
jsonr_uint(const struct jsonr *v, const char *key, unsigned long long *out)
{
	const struct jsonr *m = jsonr_get(v, key);
	char		*end;

	if (m == NULL || m->type != JSONR_NUM || m->str[0] == '-')
		return (-1);
	*out = strtoull(m->str, &end, 10);
	return (*end == '\0' ? 0 : -1);
}
