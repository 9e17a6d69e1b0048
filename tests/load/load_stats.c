/*
 * load_stats — latency percentiles, counts by name, /proc readings. See load_stats.h.
 */
#include "load_stats.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void load_latency_add(load_latency *lat, uint64_t ns)
{
    if (lat->n == lat->cap) {
        size_t cap = lat->cap ? lat->cap * 2 : 4096;
        uint32_t *grown = realloc(lat->us, cap * sizeof *grown);
        if (grown == NULL)
            return; /* a lost sample is better than a lost run */
        lat->us = grown;
        lat->cap = cap;
    }
    uint64_t us = ns / 1000;
    lat->us[lat->n++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
    lat->sorted = false;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

double load_latency_percentile(load_latency *lat, double p)
{
    if (lat->n == 0)
        return 0;
    if (!lat->sorted)
        qsort(lat->us, lat->n, sizeof *lat->us, compare_u32);
    lat->sorted = true;
    /* nearest rank: the smallest sample with at least p% of the samples at or below it */
    size_t rank = (size_t)(p / 100.0 * (double)lat->n + 0.999999);
    if (rank < 1)
        rank = 1;
    if (rank > lat->n)
        rank = lat->n;
    return lat->us[rank - 1] / 1000.0;
}

double load_latency_mean_ms(const load_latency *lat)
{
    if (lat->n == 0)
        return 0;
    double sum = 0;
    for (size_t i = 0; i < lat->n; i++)
        sum += lat->us[i];
    return sum / (double)lat->n / 1000.0;
}

void load_latency_free(load_latency *lat)
{
    free(lat->us);
    memset(lat, 0, sizeof *lat);
}

void load_counts_add(load_counts *counts, const char *name, size_t name_len)
{
    if (name_len >= sizeof counts->rows[0].name)
        name_len = sizeof counts->rows[0].name - 1;
    for (int i = 0; i < counts->n; i++)
        if (strncmp(counts->rows[i].name, name, name_len) == 0 &&
            counts->rows[i].name[name_len] == '\0') {
            counts->rows[i].count++;
            return;
        }
    if (counts->n == LOAD_MAX_NAMES) {
        counts->other++;
        return;
    }
    memcpy(counts->rows[counts->n].name, name, name_len);
    counts->rows[counts->n].name[name_len] = '\0';
    counts->rows[counts->n].count = 1;
    counts->n++;
}

uint64_t load_counts_total(const load_counts *counts)
{
    uint64_t total = counts->other;
    for (int i = 0; i < counts->n; i++)
        total += counts->rows[i].count;
    return total;
}

void load_counts_print(const load_counts *counts, FILE *out)
{
    if (counts->n == 0 && counts->other == 0) {
        fputs("none", out);
        return;
    }
    for (int i = 0; i < counts->n; i++)
        fprintf(out, "%s%s=%llu", i ? " " : "", counts->rows[i].name,
                (unsigned long long)counts->rows[i].count);
    if (counts->other)
        fprintf(out, " other=%llu", (unsigned long long)counts->other);
}

long load_rss_kib(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    long kib = -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kib;
}

double load_cpu_seconds(pid_t pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* The command name may hold spaces: fields are counted from its closing parenthesis. */
    const char *p = strrchr(text, ')');
    if (p == NULL)
        return -1;
    unsigned long long utime = 0, stime = 0;
    /* after ")": state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
     * utime(14) stime(15) */
    if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
               &stime) != 2)
        return -1;
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}
