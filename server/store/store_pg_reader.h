/*
 * store_pg_reader — the admins' heavy reads (store_reader.h) on a PostgreSQL database, which
 * store_reader.c hands every call on a postgresql:// URI to; the same answers as on SQLite.
 */
#ifndef STORE_PG_READER_H
#define STORE_PG_READER_H

#include "store_reader.h"

typedef struct store_pg_reader store_pg_reader;

/* key_path: the ledger's key for store_pg_reader_verify_chain (NULL or "": the check is refused). */
store_pg_reader *store_pg_reader_open(const char *uri, const char *key_path, store_error *error);
void store_pg_reader_close(store_pg_reader *r);
void store_pg_reader_interrupt(store_pg_reader *r);
store_status store_pg_reader_players(store_pg_reader *r, const store_player_filter *f, json_t **out,
                                     store_error *error);
store_status store_pg_reader_player(store_pg_reader *r, int64_t id, json_t **out, store_error *error);
store_status store_pg_reader_tables(store_pg_reader *r, const store_table_filter *f, json_t **out, store_error *error);
store_status store_pg_reader_table(store_pg_reader *r, int64_t id, json_t **out, store_error *error);
store_status store_pg_reader_hand(store_pg_reader *r, int64_t id, json_t **out, store_error *error);
store_status store_pg_reader_counts(store_pg_reader *r, int64_t *hands, int64_t *rows, store_error *error);
store_status store_pg_reader_scan(store_pg_reader *r, store_scan_cb cb, void *ctx, store_error *error);
store_status store_pg_reader_verify_chain(store_pg_reader *r, store_ledger_check *check, store_error *error);

#endif
