/*
 * load_stats — what the load generator measures and prints: latency samples with their
 * percentiles, counts by name (error codes, why connections ended), and the memory and CPU
 * time of a process read from /proc.
 */
#ifndef LOAD_STATS_H
#define LOAD_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* Latencies in microseconds, every sample kept so the percentiles are exact. */
typedef struct load_latency {
    uint32_t *us;
    size_t n, cap;
    bool sorted;
} load_latency;

void load_latency_add(load_latency *lat, uint64_t ns);
/* Sorts the samples (once) and returns the p-th percentile (0..100) in milliseconds; 0 if none. */
double load_latency_percentile(load_latency *lat, double p);
double load_latency_mean_ms(const load_latency *lat);
void load_latency_free(load_latency *lat);

#define LOAD_MAX_NAMES 48

/* Counts by name; names are copied (error codes come from frames that are about to be freed). */
typedef struct load_counts {
    struct {
        char name[40];
        uint64_t count;
    } rows[LOAD_MAX_NAMES];
    int n;
    uint64_t other; /* counted when the table is full */
} load_counts;

void load_counts_add(load_counts *counts, const char *name, size_t name_len);
uint64_t load_counts_total(const load_counts *counts);
/* "code=3 other=1", or "none" when empty. */
void load_counts_print(const load_counts *counts, FILE *out);

/* VmRSS of the process in KiB, or -1 if it cannot be read. */
long load_rss_kib(pid_t pid);

/* User plus system CPU time of the process in seconds, or -1. */
double load_cpu_seconds(pid_t pid);

#endif
