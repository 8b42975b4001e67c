/*
 * chan.c: closing a byte stream of grundy bot or grundy match (chan.h).
 */
#include <unistd.h>

#include "cli/bot-int.h"
#include "cli/chan.h"

void
chan_close(struct bot_chan *ch)
{
	if (ch->wfd != -1 && ch->wfd != ch->rfd)
		close(ch->wfd);
	if (ch->rfd != -1)
		close(ch->rfd);
	ch->rfd = ch->wfd = -1;
	buf_reset(&ch->in);
	buf_reset(&ch->out);
	ch->in_off = ch->out_off = 0;
	ch->skip = 0;
}
