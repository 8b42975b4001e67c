/*
 * sdnotify.h: readiness notification to systemd (Type=notify).
 */
#ifndef SDNOTIFY_H
#define SDNOTIFY_H

int	 sd_notify_send(const char *);

#endif /* SDNOTIFY_H */
