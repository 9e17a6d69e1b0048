#include "mj_options.h"

mj_options mj_options_default(void)
{
    mj_options o = {
        .gua_da_feng = false,
        .wild_discard_penalty = false,
        .gold_kong_fan = 8,
        .chan = false,
        .must_sit = false,
        .max_pulls = 1,
        .no_replacement = MJ_NO_REPLACEMENT_DRAW,
        .base = 1,
    };
    return o;
}

bool mj_options_valid(const mj_options *o)
{
    bool gold_ok = o->gold_kong_fan == 8 || o->gold_kong_fan == 4 || o->gold_kong_fan == 0;
    bool pulls_ok = o->max_pulls == 1 || o->max_pulls == 2;
    bool replacement_ok = o->no_replacement == MJ_NO_REPLACEMENT_DRAW ||
                          o->no_replacement == MJ_NO_REPLACEMENT_SKIP_INDICATOR;
    return gold_ok && pulls_ok && replacement_ok && o->base >= 1 && o->base <= MJ_BASE_MAX;
}
