/*
 * proto-addr.c: a node's address (proto-addr.h), checked before anyone
 * dials it or sends it: HOST:PORT with a host name or IPv4 address of at
 * most 253 bytes (letters, digits, '-', '.', '_'), or [IPV6]:PORT; PORT
 * decimal, 1 to 65535; at most 261 bytes in all.
 */
#include <stdio.h>
#include <string.h>

#include "proto/proto-addr.h"

/* Checks a decimal port of len bytes; returns NULL or why not. */
static const char *
proto_addr_port(const char *s, size_t len, char *out)
{
	unsigned long	 v = 0;
	size_t		 i;

	if (len == 0)
		return ("no port after ':'");
	if (len > 5)
		return ("port must be a number from 1 to 65535");
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return ("port must be a number from 1 to 65535");
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v < 1 || v > 65535 || s[0] == '0')
		return ("port must be a number from 1 to 65535");
	memcpy(out, s, len);
	out[len] = '\0';
	return (NULL);
}

/* Checks a bracketed IPv6 literal's inside; returns NULL or why not. */
static const char *
proto_addr_v6(const char *s, size_t len)
{
	size_t	 i, colons = 0;

	if (len == 0)
		return ("empty IPv6 address in []");
	for (i = 0; i < len; i++) {
		if (s[i] == ':')
			colons++;
		else if (strchr("0123456789abcdefABCDEF.", s[i]) == NULL ||
		    s[i] == '\0')
			return ("not an IPv6 address in []");
	}
	return (colons < 2 ? "not an IPv6 address in []" : NULL);
}

/* Checks a host name or IPv4 address; returns NULL or why not. */
static const char *
proto_addr_name(const char *s, size_t len)
{
	size_t	 i;

	if (len == 0)
		return ("no host before ':'");
	for (i = 0; i < len; i++) {
		if (s[i] == ':')
			return ("an IPv6 address needs brackets: [ADDR]:PORT");
		if (s[i] == '\0' || strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._", s[i]) == NULL)
			return ("a host has only letters, digits, '-', '.' "
			    "and '_'");
	}
	return (NULL);
}

/*
 * Parses the len bytes at s as HOST:PORT or [IPV6]:PORT into a.  Without a
 * port, dflt_port is taken when not NULL (`grundy bot` keeps its old
 * default); else it is an error.  Returns 0, or -1 with *why set (a
 * constant string).
 */
int
proto_addr_parse(const char *s, size_t len, const char *dflt_port,
    struct proto_addr *a, const char **why)
{
	const char	*end = s + len, *colon = NULL, *h = s, *p;
	size_t		 hlen;

	memset(a, 0, sizeof *a);
	*why = NULL;
	if (len == 0) {
		*why = "empty address";
		return (-1);
	}
	if (len > PROTO_ADDR_MAX) {
		*why = "longer than 261 bytes";
		return (-1);
	}
	if (s[0] == '[') {
		if ((p = memchr(s, ']', len)) == NULL) {
			*why = "no ']' after an IPv6 address";
			return (-1);
		}
		h = s + 1;
		hlen = (size_t)(p - h);
		if (p + 1 < end && p[1] != ':') {
			*why = "expected ':' after ']'";
			return (-1);
		}
		colon = p + 1 < end ? p + 1 : NULL;
		*why = proto_addr_v6(h, hlen);
		a->v6 = 1;
	} else {
		for (p = s; p < end; p++)
			if (*p == ':')
				colon = p;
		hlen = (colon != NULL ? colon : end) - s;
		*why = proto_addr_name(h, hlen);
	}
	if (*why == NULL && hlen > PROTO_HOST_MAX)
		*why = "host longer than 253 bytes";
	if (*why == NULL && colon == NULL && dflt_port == NULL)
		*why = "expected HOST:PORT";
	if (*why == NULL)
		*why = colon != NULL ? proto_addr_port(colon + 1,
		    (size_t)(end - colon - 1), a->port) :
		    proto_addr_port(dflt_port, strlen(dflt_port), a->port);
	if (*why != NULL)
		return (-1);
	memcpy(a->host, h, hlen);
	a->host[hlen] = '\0';
	return (0);
}

/* Prints a as HOST:PORT, or [IPV6]:PORT. */
void
proto_addr_print(const struct proto_addr *a, char *out, size_t len)
{
	snprintf(out, len, "%s%s%s:%s", a->v6 ? "[" : "", a->host,
	    a->v6 ? "]" : "", a->port);
}

/*
 * Parses a comma-separated list of at most max addresses (PORT may be
 * missing: 7559) into v, *n of them.  Returns 0, or -1 with err naming
 * the bad entry and why.
 */
int
proto_addr_list(const char *list, struct proto_addr *v, size_t max,
    size_t *n, char *err, size_t errlen)
{
	const char	*p = list, *comma, *why;
	size_t		 len;

	*n = 0;
	for (;;) {
		comma = strchr(p, ',');
		len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (*n == max) {
			snprintf(err, errlen, "entry %zu '%.*s': at most %zu "
			    "nodes", *n + 1, len > PROTO_ADDR_MAX ? 40 :
			    (int)len, p, max);
			return (-1);
		}
		if (proto_addr_parse(p, len, "7559", &v[*n], &why) != 0) {
			snprintf(err, errlen, "entry %zu '%.*s': %s", *n + 1,
			    len > PROTO_ADDR_MAX ? 40 : (int)len, p, why);
			return (-1);
		}
		(*n)++;
		if (comma == NULL)
			return (0);
		p = comma + 1;
	}
}
