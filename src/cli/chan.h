/*
 * chan.h: closing one byte stream (struct bot_chan, bot-int.h) of grundy
 * bot (its server socket) and grundy match (an engine's pipes).
 */
#ifndef CHAN_H
#define CHAN_H

struct bot_chan;

/*
 * Closes the stream's descriptors (once when rfd == wfd, a socket), marks
 * them -1 and forgets what was read and what was to be written.
 */
void	 chan_close(struct bot_chan *);

#endif /* CHAN_H */
