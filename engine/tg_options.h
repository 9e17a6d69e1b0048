/*
 * tg_options — the rule options of a Tien Gow table (rules/tiengow.md §7-§8) and their defaults.
 * The ledger stake and the turn timer are table settings kept outside the engine.
 */
#ifndef TG_OPTIONS_H
#define TG_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

typedef enum { TG_ROTATION_FLY = 0, TG_ROTATION_TURN = 1 } tg_rotation;
typedef enum { TG_QUARTET_BONUS_WINNER = 0, TG_QUARTET_BONUS_APPEARANCE = 1 } tg_quartet_bonus;

typedef struct tg_options {
    bool wen_zun;                   /* the pair of 1-5 is 文尊 when led */
    uint8_t rotation;               /* tg_rotation */
    uint8_t qin_multiplier;         /* 4 or 2 */
    bool qin_pays_all;              /* the captured leader pays for all losers */
    uint8_t quartet_bonus;          /* tg_quartet_bonus */
    bool seven_civil, seven_military, eight_civil, eight_military, four_pairs; /* natural hands */
} tg_options;

/* All defaults: no 文尊, fly rotation, 擒 ×4 paid by the captured leader, 四大賀 to the winner. */
tg_options tg_options_default(void);

#endif
