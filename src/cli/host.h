/*
 * host.h: `grundy host FILE`, which runs many submitted bots on one
 * machine (issue 27 §3): each a `grundy bot` process of its own (bot.c,
 * started through chan_spawn) connected to grundyd under its account,
 * held in a process tree (ptree.h) whose CPU time and peak memory it
 * reports, restarted with a bounded backoff when it crashes.  It needs
 * only the server's address, so it runs on any machine.  grundy(1)
 * describes the file.
 */
#ifndef HOST_H
#define HOST_H

int	 host_main(int, char **);

#endif /* HOST_H */
