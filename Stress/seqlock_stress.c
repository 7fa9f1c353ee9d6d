/*
 * seqlock_stress.c — the token table's sequence lock (ctk.h, ctk_seqlock_…)
 * compiled with optimization and run by threads that share four slots.
 *
 * Writers publish entries whose every word is derived from their key; readers
 * copy slots and check that each copy they keep is one whole entry. A copy
 * mixing two writes (a torn entry) fails the run. The Swift test of the token
 * table checks the same through the Swift code, but `make test` builds it
 * without optimization, where the compiler neither splits nor reorders the
 * copies; here the primitives run as release builds compile them (clang -O2).
 * The run also requires that reads met writes: enough copies refused for a
 * write in progress, or the check proved nothing.
 *
 * Exit status: 0 no torn copy; 1 a torn copy, or too little contention.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctk.h"

enum { WORDS = 6, KEY_WORD = 1, SLOTS = 4, KEYS = 8, WRITERS = 2, READERS = 2 };

typedef struct { _Alignas(64) uint64_t word[WORDS]; } slot_t;

static slot_t slots[SLOTS];
static atomic_bool stop;
static atomic_ulong kept, refused, interrupted, torn;

/* Word w of the entry of `key` (word 0: its data bits, above the sequence). */
static uint64_t word_of(uint64_t key, size_t w) {
    uint64_t v = (key + 1) * 0x9E3779B97F4A7C15ull * (w + 3);
    return w == 0 ? v & ~CTK_SEQLOCK_SEQUENCE : w == KEY_WORD ? key : v;
}

static uint64_t next(uint64_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static void *writer(void *arg) {
    uint64_t state = (uint64_t)(uintptr_t)arg * 0x2545F4914F6CDD1Dull + 1;
    uint64_t entry[WORDS];
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        uint64_t key = 1 + next(&state) % KEYS;
        for (size_t w = 0; w < WORDS; w++) entry[w] = word_of(key, w);
        slot_t *slot = &slots[next(&state) % SLOTS];
        uint64_t claimed;
        if (ctk_seqlock_claim(slot->word, &claimed)) ctk_seqlock_publish(slot->word, claimed, entry, WORDS);
    }
    return NULL;
}

static void *reader(void *arg) {
    uint64_t state = (uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15ull + 7;
    uint64_t copy[WORDS];
    unsigned long k = 0, r = 0, i = 0, t = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        slot_t *slot = &slots[next(&state) % SLOTS];
        uint64_t key = 1 + next(&state) % KEYS;
        bool keyed = next(&state) & 1;
        bool ok = keyed ? ctk_seqlock_read_key(slot->word, KEY_WORD, key, copy, WORDS)
                        : ctk_seqlock_read(slot->word, copy, WORDS);
        if (!ok) {
            /* A keyless read fails only for a write in progress or in between. */
            if (keyed) r++; else i++;
            continue;
        }
        uint64_t found = copy[KEY_WORD];
        if (found == 0) { k++; continue; } /* a slot never written */
        bool whole = (copy[0] & ~CTK_SEQLOCK_SEQUENCE) == word_of(found, 0);
        for (size_t w = 2; w < WORDS; w++) whole = whole && copy[w] == word_of(found, w);
        if (whole) k++; else t++;
    }
    atomic_fetch_add(&kept, k);
    atomic_fetch_add(&refused, r);
    atomic_fetch_add(&interrupted, i);
    atomic_fetch_add(&torn, t);
    return NULL;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    pthread_t threads[WRITERS + READERS];
    for (uintptr_t i = 0; i < WRITERS; i++) pthread_create(&threads[i], NULL, writer, (void *)(i + 1));
    for (uintptr_t i = 0; i < READERS; i++) pthread_create(&threads[WRITERS + i], NULL, reader, (void *)(i + 1));
    struct timespec pause = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
    nanosleep(&pause, NULL);
    atomic_store(&stop, true);
    for (size_t i = 0; i < WRITERS + READERS; i++) pthread_join(threads[i], NULL);

    unsigned long k = atomic_load(&kept), r = atomic_load(&refused), i = atomic_load(&interrupted), t = atomic_load(&torn);
    printf("seqlock stress: %lu copies kept, %lu refused for another key or a write, %lu interrupted by a write, %lu torn\n",
           k, r, i, t);
    if (t > 0) {
        fprintf(stderr, "seqlock stress: FAILED: %lu copies mixed two writes\n", t);
        return 1;
    }
    if (k < 10000 || i < 1000) {
        fprintf(stderr, "seqlock stress: FAILED: too little contention to tell (kept %lu, interrupted %lu)\n", k, i);
        return 1;
    }
    return 0;
}
