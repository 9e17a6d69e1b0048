/*
 * mj_tiles — names and neighbours of the 34 kinds, one row each.
 */
#include "mj_tiles.h"

#include <string.h>

static const struct {
    const char *name;
    const char *zh;
    uint8_t next; /* §2's next kind */
    uint8_t prev;
} KINDS[MJ_KINDS] = {
    {"1m", "一万", 1, 8},    {"2m", "二万", 2, 0},    {"3m", "三万", 3, 1},   {"4m", "四万", 4, 2},
    {"5m", "五万", 5, 3},    {"6m", "六万", 6, 4},    {"7m", "七万", 7, 5},   {"8m", "八万", 8, 6},
    {"9m", "九万", 0, 7},    {"1p", "一筒", 10, 17},  {"2p", "二筒", 11, 9},  {"3p", "三筒", 12, 10},
    {"4p", "四筒", 13, 11},  {"5p", "五筒", 14, 12},  {"6p", "六筒", 15, 13}, {"7p", "七筒", 16, 14},
    {"8p", "八筒", 17, 15},  {"9p", "九筒", 9, 16},   {"1s", "一条", 19, 26}, {"2s", "二条", 20, 18},
    {"3s", "三条", 21, 19},  {"4s", "四条", 22, 20},  {"5s", "五条", 23, 21}, {"6s", "六条", 24, 22},
    {"7s", "七条", 25, 23},  {"8s", "八条", 26, 24},  {"9s", "九条", 18, 25}, {"E", "东", 28, 30},
    {"S", "南", 29, 27},     {"W", "西", 30, 28},     {"N", "北", 27, 29},    {"C", "中", 32, 33},
    {"F", "发", 33, 31},     {"P", "白", 31, 32},
};

int mj_next_kind(int kind) { return KINDS[kind].next; }
int mj_prev_kind(int kind) { return KINDS[kind].prev; }

const char *mj_kind_name(int kind) { return kind >= 0 && kind < MJ_KINDS ? KINDS[kind].name : ""; }
const char *mj_kind_zh(int kind) { return kind >= 0 && kind < MJ_KINDS ? KINDS[kind].zh : ""; }

int mj_kind_parse(const char *text)
{
    for (int k = 0; k < MJ_KINDS; k++)
        if (strcmp(text, KINDS[k].name) == 0)
            return k;
    return -1;
}

int mj_counts_total(const mj_counts *counts)
{
    int total = 0;
    for (int k = 0; k < MJ_KINDS; k++)
        total += counts->n[k];
    return total;
}
