/*
 * log.h: key=value log lines on stderr, OpenBSD-style API.
 */
#ifndef LOG_H
#define LOG_H

void	 log_init(int);
void	 log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
void	 fatal(const char *, ...) __attribute__((format(printf, 1, 2),
	    noreturn));
void	 fatalx(const char *, ...) __attribute__((format(printf, 1, 2),
	    noreturn));
int	 log_verbose(void);

#endif /* LOG_H */
