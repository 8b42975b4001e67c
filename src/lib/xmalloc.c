/*
 * xmalloc.c: allocation wrappers.  Running out of memory is fatal, as it is
 * for GMP, so callers never check for NULL.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"

/* Reports allocation failure and aborts. */
static void
xmalloc_fail(size_t n)
{
	fprintf(stderr, "fatal: out of memory allocating %zu bytes\n", n);
	abort();
}

/* Allocates n bytes or dies. */
void *
xmalloc(size_t n)
{
	void	*p;

	if ((p = malloc(n == 0 ? 1 : n)) == NULL)
		xmalloc_fail(n);
	return (p);
}

/* Allocates a zeroed array or dies. */
void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if ((p = calloc(nmemb == 0 ? 1 : nmemb, size == 0 ? 1 : size)) == NULL)
		xmalloc_fail(nmemb * size);
	return (p);
}

/* Resizes an array, checking the multiplication for overflow. */
void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	void	*q;

	if (size != 0 && nmemb > SIZE_MAX / size)
		xmalloc_fail(SIZE_MAX);
	if ((q = realloc(p, nmemb * size == 0 ? 1 : nmemb * size)) == NULL)
		xmalloc_fail(nmemb * size);
	return (q);
}

/* Duplicates a string or dies. */
char *
xstrdup(const char *s)
{
	size_t	 n = strlen(s) + 1;

	return (memcpy(xmalloc(n), s, n));
}

/* Frees the n strings of v (not v itself). */
void
strv_clear(char **v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i]);
}

/* Frees the n strings of v, then v. */
void
strv_free(char **v, size_t n)
{
	strv_clear(v, n);
	free(v);
}

/*
 * Frees an array v of n structs of size bytes that each own the string
 * whose pointer is at byte offset off (offsetof): the strings, then v.
 */
void
namev_free(void *v, size_t n, size_t size, size_t off)
{
	char	*name;
	size_t	 i;

	for (i = 0; i < n; i++) {
		memcpy(&name, (char *)v + i * size + off, sizeof name);
		free(name);
	}
	free(v);
}
