/*
 * bot.h: `grundy bot`, which plays a player program on grundyd.
 */
#ifndef BOT_H
#define BOT_H

int	 bot_main(int, char **);

#endif /* BOT_H */
