/*
 * buf.c: growable text buffers, used by every formatter.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/buf.h"

/* Initialises an empty buffer. */
void
buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

/* Frees the buffer's storage. */
void
buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

/* Empties the buffer, keeping its storage. */
void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

/* Makes room for n more bytes plus the terminating NUL. */
void
buf_grow(struct buf *b, size_t n)
{
	size_t	 need = b->len + n + 1;

	if (need <= b->cap)
		return;
	if (b->cap == 0)
		b->cap = 64;
	while (b->cap < need)
		b->cap *= 2;
	b->data = xreallocarray(b->data, b->cap, 1);
}

/* Appends n bytes. */
void
buf_add(struct buf *b, const char *s, size_t n)
{
	buf_grow(b, n);
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

/* Appends a string. */
void
buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* Appends one character. */
void
buf_putc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

/* Appends v in decimal (as "%llu", without printf's machinery). */
void
buf_putu(struct buf *b, unsigned long long v)
{
	char	 d[20], *p = d + sizeof d;

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	buf_add(b, p, (size_t)(d + sizeof d - p));
}

/* Appends printf-formatted text. */
void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* Appends formatted text from a va_list. */
void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list	 ap2;
	char	 tmp[256];
	int	 n;

	va_copy(ap2, ap);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	if (n <= 0) {
		va_end(ap2);
		return;
	}
	if ((size_t)n < sizeof tmp) {
		buf_add(b, tmp, (size_t)n);
		va_end(ap2);
		return;
	}
	buf_grow(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	b->len += (size_t)n;
}

/* Returns the contents as a C string ("" when empty). */
const char *
buf_str(struct buf *b)
{
	if (b->data == NULL)
		buf_grow(b, 0), b->data[0] = '\0';
	return (b->data);
}

/* Appends code point c (at most 0x10ffff) as UTF-8. */
void
buf_utf8(struct buf *b, unsigned long c)
{
	if (c < 0x80)
		buf_putc(b, (char)c);
	else if (c < 0x800) {
		buf_putc(b, (char)(0xc0 | (c >> 6)));
		buf_putc(b, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		buf_putc(b, (char)(0xe0 | (c >> 12)));
		buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		buf_putc(b, (char)(0x80 | (c & 0x3f)));
	} else {
		buf_putc(b, (char)(0xf0 | (c >> 18)));
		buf_putc(b, (char)(0x80 | ((c >> 12) & 0x3f)));
		buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3f)));
		buf_putc(b, (char)(0x80 | (c & 0x3f)));
	}
}
