/*
 * cli-edit.c: line editing and history for `grundy connect` and `grundy
 * play` on a terminal, with libedit's readline interface in its callback
 * form: the program polls stdin with its other descriptors and hands each
 * key to cli_edit_feed, so a line that arrives from a server is printed
 * above the prompt (cli_edit_print) and the line being typed is drawn
 * again under it.  readline's state is global, so this one is too (one
 * terminal per process).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "lib/buf.h"
#include "cli/cli-edit.h"

static struct {
	int	 open;		/* cli_edit_open was called */
	int	 shown;		/* a prompt is on screen: the handler is in */
	int	 got;		/* the handler ran since the last key */
	char	*line;		/* its line; NULL at the end of input */
	char	*prompt;	/* the prompt shown */
	char	 path[4096];	/* the history file, or "" */
} ce;

/* readline's line handler: keeps the line for cli_edit_feed. */
static void
cli_edit_handler(char *line)
{
	ce.got = 1;
	ce.line = line;
}

/*
 * Starts line editing on the terminal and loads the history from
 * ~/.grundy_history (none without HOME).
 */
void
cli_edit_open(void)
{
	const char	*home = getenv("HOME");

	rl_readline_name = "grundy";
	using_history();
	stifle_history(CLI_EDIT_HISTORY);
	ce.path[0] = '\0';
	if (home != NULL && home[0] != '\0' &&
	    (size_t)snprintf(ce.path, sizeof ce.path, "%s/.grundy_history",
	    home) >= sizeof ce.path)
		ce.path[0] = '\0';
	if (ce.path[0] != '\0')
		(void)read_history(ce.path);
	ce.open = 1;
}

/*
 * Whether a line holds a password (login, register, passwd, account): it
 * never goes into the history.
 */
static int
cli_edit_secret(const char *line)
{
	static const char *const words[] = { "login", "register", "passwd",
	    "account", NULL };
	size_t		 n;
	int		 i;

	line += strspn(line, " \t");
	if (line[0] >= '0' && line[0] <= '9')	/* an id first */
		line += strspn(line, "0123456789 \t");
	n = strcspn(line, " \t");
	for (i = 0; words[i] != NULL; i++)
		if (n == strlen(words[i]) && strncmp(line, words[i], n) == 0)
			return (1);
	return (0);
}

/* Adds a line to the history unless it is blank, long, secret or a repeat. */
static void
cli_edit_remember(const char *line)
{
	HIST_ENTRY	*last;

	if (line[strspn(line, " \t")] == '\0' ||
	    strlen(line) > CLI_EDIT_HISTORY_LINE || cli_edit_secret(line))
		return;
	if (history_length > 0 &&
	    (last = history_get(history_base + history_length - 1)) != NULL &&
	    strcmp(last->line, line) == 0)
		return;
	add_history(line);
}

/*
 * Erases the prompt and the line being typed, which may have wrapped
 * onto further rows of the screen: the cursor goes up to the prompt's
 * row, and everything from there down is cleared.
 */
static void
cli_edit_erase(void)
{
	size_t	 at;
	int	 rows, cols;

	rl_get_screen_size(&rows, &cols);
	at = strlen(ce.prompt) + (size_t)(rl_point > 0 ? rl_point : 0);
	if (cols > 0 && at / (size_t)cols > 0)
		printf("\033[%zuA", at / (size_t)cols);
	fputs("\r\033[J", stdout);
}

/*
 * Shows prompt and waits for keys (the first call after a line has been
 * read draws it on a new line); a different prompt while one is shown
 * replaces it, keeping what was typed.
 */
void
cli_edit_prompt(const char *prompt)
{
	if (ce.shown && strcmp(prompt, ce.prompt) == 0)
		return;
	if (ce.shown)
		cli_edit_erase();	/* the old prompt's rows */
	free(ce.prompt);
	ce.prompt = xstrdup(prompt);
	if (ce.shown) {
		rl_set_prompt(ce.prompt);
		rl_forced_update_display();
		fflush(stdout);
		return;
	}
	rl_callback_handler_install(ce.prompt, cli_edit_handler);
	ce.shown = 1;
	fflush(stdout);
}

/*
 * Reads the key waiting on stdin, which poll reported with revents.
 * Returns 1 with a complete line in *line (the caller frees it), 0 when
 * the line is not complete yet, -1 at the end of input (^D on an empty
 * line, or the terminal hung up: libedit would not say so, and a loop
 * would spin on it).  After a line, the terminal is back in its normal
 * mode until the next cli_edit_prompt.
 */
int
cli_edit_feed(short revents, char **line)
{
	if (revents & (POLLHUP | POLLERR | POLLNVAL))
		return (-1);
	ce.got = 0;
	rl_callback_read_char();
	if (!ce.got)
		return (0);
	ce.shown = 0;
	if (ce.line == NULL)
		return (-1);
	cli_edit_remember(ce.line);
	*line = ce.line;
	ce.line = NULL;
	return (1);
}

/* Reads a whole line with prompt; NULL at the end of input. */
char *
cli_edit_line(const char *prompt)
{
	struct pollfd	 pfd;
	char		*line;
	int		 r;

	for (;;) {
		cli_edit_prompt(prompt);
		pfd.fd = 0;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return (NULL);
		}
		if ((r = cli_edit_feed(pfd.revents, &line)) != 0)
			return (r > 0 ? line : NULL);
	}
}

/*
 * Prints len bytes of text (whole lines) above the prompt, then draws the
 * prompt and the line being typed again.
 */
void
cli_edit_print(const char *text, size_t len)
{
	if (ce.shown)
		cli_edit_erase();
	fwrite(text, 1, len, stdout);
	if (ce.shown)
		rl_forced_update_display();
	fflush(stdout);
}

/*
 * Gives the terminal back in its normal mode and saves the history
 * (at most CLI_EDIT_HISTORY lines; the file is private: mode 0600).
 */
void
cli_edit_close(void)
{
	int	 fd;

	if (!ce.open)
		return;
	rl_callback_handler_remove();
	ce.shown = 0;
	if (ce.path[0] != '\0' && history_length > 0) {
		if ((fd = open(ce.path, O_WRONLY | O_CREAT | O_CLOEXEC,
		    0600)) >= 0)
			close(fd);
		(void)write_history(ce.path);
	}
	free(ce.prompt);
	ce.prompt = NULL;
	ce.open = 0;
}
