#include "tg_options.h"

tg_options tg_options_default(void)
{
    tg_options o = {
        .wen_zun = false,
        .rotation = TG_ROTATION_FLY,
        .qin_multiplier = 4,
        .qin_pays_all = true,
        .quartet_bonus = TG_QUARTET_BONUS_WINNER,
    };
    return o;
}
