/*
 * admin_live — GET live: the tables open now and the server's health, as the server's owner
 * (main.c) gathers them from the lobby, the network and the store (admin_config.live).
 */
#include "admin_internal.h"

void admin_live(admin_req *r)
{
    json_t *live = r->a->config.live ? r->a->config.live(r->a->config.live_ctx) : NULL;
    if (live == NULL)
        live = json_pack("{s:[], s:{}}", "tables", "health");
    admin_finish_json(r, 200, live);
}
