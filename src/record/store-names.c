/*
 * store-names.c: the words of the game log's enums (marks, results,
 * statuses), apart from the SQLite code so that what renders records
 * without a database (record.c, grundy match) links without SQLite.
 */
#include "store/store.h"
#include "lib/util.h"

/* The names, by enum value (store-int.h declares them for the reads). */
extern const char *const store_mark_names[STORE_NO_WIN + 1];
extern const char *const store_result_names[STORE_RESULT_SECOND + 1];
extern const char *const store_status_names[STORE_ABANDONED + 1];

const char *const store_mark_names[STORE_NO_WIN + 1] = {
	[STORE_KEPT_WIN] = "kept-win",
	[STORE_THREW_WIN] = "threw-win",
	[STORE_NO_WIN] = "no-win",
};

/* Returns the text form of a move mark, or NULL. */
const char *
store_mark_name(enum store_mark m)
{
	return (ENUM_NAME(store_mark_names, m, NULL));
}

const char *const store_result_names[STORE_RESULT_SECOND + 1] = {
	[STORE_RESULT_FIRST] = "first",
	[STORE_RESULT_SECOND] = "second",
};

/* Returns the text form of a result, or NULL for none. */
const char *
store_result_name(enum store_result r)
{
	return (ENUM_NAME(store_result_names, r, NULL));
}

const char *const store_status_names[STORE_ABANDONED + 1] = {
	STORE_STATUSES(ENUM_X_NAME)
};

/* Returns the text form of a status, or NULL. */
const char *
store_status_name(enum store_status s)
{
	return (ENUM_NAME(store_status_names, s, NULL));
}
