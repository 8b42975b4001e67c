/*
 * cli-edit.h: line editing and history (libedit) for the terminal
 * programs, `grundy connect` and `grundy play`.  It is driven from a poll
 * loop one key at a time, so a program can print lines from elsewhere (a
 * server) above the prompt while the user types.  Only for a terminal:
 * with stdin not a terminal the programs read plain lines instead.
 */
#ifndef CLI_EDIT_H
#define CLI_EDIT_H

#include <stddef.h>

/* History: ~/.grundy_history, at most this many entries of this size. */
#define CLI_EDIT_HISTORY	1000
#define CLI_EDIT_HISTORY_LINE	4096

void	 cli_edit_open(void);
void	 cli_edit_prompt(const char *);
int	 cli_edit_feed(short, char **);
char	*cli_edit_line(const char *);
void	 cli_edit_print(const char *, size_t);
void	 cli_edit_close(void);

#endif /* CLI_EDIT_H */
