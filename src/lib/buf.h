/*
 * buf.h: a growable, NUL-terminated text buffer.  Allocation failure is
 * fatal (xmalloc policy), so callers never check.
 */
#ifndef BUF_H
#define BUF_H

#include <stdarg.h>
#include <stddef.h>

/* Text buffer: len bytes in data, always NUL-terminated once written. */
struct buf {
	char		*data;
	size_t		 len;
	size_t		 cap;
};

void	 buf_init(struct buf *);
void	 buf_free(struct buf *);
void	 buf_reset(struct buf *);
void	 buf_grow(struct buf *, size_t);
void	 buf_add(struct buf *, const char *, size_t);
void	 buf_puts(struct buf *, const char *);
void	 buf_putc(struct buf *, char);
void	 buf_putu(struct buf *, unsigned long long);
void	 buf_utf8(struct buf *, unsigned long);
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 buf_vprintf(struct buf *, const char *, va_list)
	    __attribute__((format(printf, 2, 0)));
const char *buf_str(struct buf *);

/* xmalloc.c */
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
void	 strv_clear(char **, size_t);
void	 strv_free(char **, size_t);
void	 namev_free(void *, size_t, size_t, size_t);

#endif /* BUF_H */
