/*
 * store-notify.h: the writer's notifications to the other nodes
 * (store-notify.c).
 */
#ifndef STORE_NOTIFY_H
#define STORE_NOTIFY_H

struct store;
struct store_items;

int	 store_notify_batch(struct store *, struct store_items *);

#endif /* STORE_NOTIFY_H */
