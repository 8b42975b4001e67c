/*
 * util.h: small helpers with no dependency, a leaf every layer may include.
 */
#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>
#include <string.h>

#ifndef nitems
#define nitems(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/*
 * Returns names[value], or fallback when value is outside the n names or
 * has none: the text of an enum whose names are a const array indexed by
 * the enum with designated initialisers.
 */
static inline const char *
enum_name(const char *const *names, size_t n, int value, const char *fallback)
{
	if (value < 0 || (size_t)value >= n || names[value] == NULL)
		return (fallback);
	return (names[value]);
}

/*
 * Returns the index of text among the n names, or fallback when text is
 * NULL or none of them: the inverse of enum_name.
 */
static inline int
enum_value(const char *const *names, size_t n, const char *text,
    int fallback)
{
	size_t	 i;

	if (text == NULL)
		return (fallback);
	for (i = 0; i < n; i++)
		if (names[i] != NULL && strcmp(names[i], text) == 0)
			return ((int)i);
	return (fallback);
}

#define ENUM_NAME(names, value, fallback) \
	enum_name((names), nitems(names), (int)(value), (fallback))

/*
 * An enum and its names from one list, so that they cannot drift apart:
 * with #define FOO_LIST(X) X(FOO_A, "a") X(FOO_B, "b"), the enum is
 * enum foo { FOO_LIST(ENUM_X_ID) } and its names, for ENUM_NAME, are
 * { FOO_LIST(ENUM_X_NAME) }.
 */
#define ENUM_X_ID(id, name)	id,
#define ENUM_X_NAME(id, name)	[id] = name,

#endif /* UTIL_H */
