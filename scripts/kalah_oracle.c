/* An independent Kalah(m, n) solver, written apart from nimmax to check its proven values.
 *
 * Standard rules: sow counter-clockwise, skipping the opponent's store; a last seed in one's own
 * store moves again; a last seed in one's own empty pit opposite a non-empty pit captures both;
 * when either side's pits are empty the game ends and each side keeps the seeds on its own side.
 * The value of a position is the mover's future gain over the opponent's (seeds still in the pits
 * only), so the table is keyed by the pits alone, seen from the mover. Alpha-beta (negamax) with a
 * table of lower and upper bounds, MTD(f) at the root.
 *
 *   cc -O2 -o kalah_oracle kalah_oracle.c && ./kalah_oracle PITS SEEDS [TABLE_BITS]
 *
 * Prints South's margin with perfect play and each first move's exact value (scripts/verify_kalah.py
 * compares them with `nimmax solve`). Never part of nimmax: a check that shares no code with it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 8
static int M;                      /* pits a side */
typedef struct { uint64_t k1, k2; int16_t lo, hi; int8_t best; } Entry;
static Entry *table;
static uint64_t mask, nodes;

/* pits[0..M-1]: the mover's, pits[M..2M-1]: the opponent's, both from their own left. */
static void key_of(const int8_t *p, uint64_t *k1, uint64_t *k2) {
    uint64_t a = 0, b = 0;
    for (int i = 0; i < M; i++) a = a * 64 + (uint64_t)p[i];
    for (int i = M; i < 2 * M; i++) b = b * 64 + (uint64_t)p[i];
    *k1 = a; *k2 = b;
}

/* Plays pit i (0-based, the mover's); writes the child in the child's mover view to c, returns
 * the mover's gain, sets *again when the mover moves again and *over when the game ended (the
 * sweep counted in the gain). */
static int play(const int8_t *p, int i, int8_t *c, int *again, int *over) {
    int8_t b[2 * MAXP + 2];          /* sowing order: mine 0..M-1, my store M, theirs M+1..2M */
    int lap = 2 * M + 1, gain = 0;
    for (int j = 0; j < M; j++) { b[j] = p[j]; b[M + 1 + j] = p[M + j]; }
    b[M] = 0;
    int seeds = b[i], pos = i;
    b[i] = 0;
    while (seeds--) { pos = (pos + 1) % lap; b[pos]++; }
    *again = pos == M;
    if (pos < M && b[pos] == 1 && b[2 * M - pos] > 0) {
        b[M] += b[pos] + b[2 * M - pos];
        b[pos] = b[2 * M - pos] = 0;
    }
    gain = b[M];
    int mine = 0, theirs = 0;
    for (int j = 0; j < M; j++) { mine += b[j]; theirs += b[M + 1 + j]; }
    *over = mine == 0 || theirs == 0;
    if (*over) { gain += mine - theirs; memset(c, 0, 2 * M); return gain; }
    if (*again) { for (int j = 0; j < M; j++) { c[j] = b[j]; c[M + j] = b[M + 1 + j]; } }
    else { for (int j = 0; j < M; j++) { c[j] = b[M + 1 + j]; c[M + j] = b[j]; } }
    return gain;
}

static int search(const int8_t *p, int alpha, int beta) {
    nodes++;
    uint64_t k1, k2;
    key_of(p, &k1, &k2);
    Entry *e = &table[(k1 * 0x9E3779B97F4A7C15ULL ^ k2 * 0xC2B2AE3D27D4EB4FULL) >> 7 & mask];
    int hint = -1;
    if (e->k1 == k1 && e->k2 == k2) {
        if (e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
        if (e->lo == e->hi) return e->lo;
        hint = e->best;
    }
    int a0 = alpha, b0 = beta, best = -1000, bestmove = -1;
    int order[MAXP], n = 0;
    if (hint >= 0) order[n++] = hint;
    for (int pass = 0; pass < 2; pass++)          /* extra turns first, then the rest */
        for (int i = M - 1; i >= 0; i--) {
            if (!p[i] || i == hint) continue;
            int againmove = (p[i] % (2 * M + 1)) == M - i;
            if ((pass == 0) == againmove) order[n++] = i;
        }
    for (int o = 0; o < n; o++) {
        int i = order[o], again, over;
        int8_t c[2 * MAXP];
        int gain = play(p, i, c, &again, &over), v;
        if (over) v = gain;
        else if (again) v = gain + search(c, alpha - gain, beta - gain);
        else v = gain - search(c, gain - beta, gain - alpha);
        if (v > best) { best = v; bestmove = i; }
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
    }
    if (e->k1 != k1 || e->k2 != k2) { e->k1 = k1; e->k2 = k2; e->lo = -1000; e->hi = 1000; }
    if (best <= a0) e->hi = best;
    else if (best >= b0) e->lo = best;
    else e->lo = e->hi = best;
    e->best = bestmove;
    return best;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s PITS SEEDS [TABLE_BITS]\n", argv[0]); return 2; }
    M = atoi(argv[1]);
    int n = atoi(argv[2]), bits = argc > 3 ? atoi(argv[3]) : 24;
    if (M < 1 || M > MAXP || n < 1 || n * 2 * M > 63) { fprintf(stderr, "pits 1..%d, seeds so that a pit holds < 64\n", MAXP); return 2; }
    mask = (1ULL << bits) - 1;
    table = calloc(mask + 1, sizeof(Entry));
    for (uint64_t j = 0; j <= mask; j++) { table[j].k1 = ~0ULL; }
    int8_t start[2 * MAXP];
    for (int j = 0; j < 2 * M; j++) start[j] = n;
    /* MTD(f): null windows from a guess until the bounds meet */
    int lo = -2 * M * n, hi = 2 * M * n, guess = 0;
    while (lo < hi) {
        int beta = guess == lo ? guess + 1 : guess;
        int v = search(start, beta - 1, beta);
        if (v < beta) hi = v; else lo = v;
        guess = v;
        fprintf(stderr, "  window %d: %d  [%d, %d]  %llu nodes\n", beta, v, lo, hi, (unsigned long long)nodes);
    }
    /* the best first move, and each first move's value */
    printf("Kalah(%d,%d): South wins by %d (%llu nodes)\n", M, n, lo, (unsigned long long)nodes);
    for (int i = 0; i < M; i++) {
        if (!start[i]) continue;
        int again, over, v;
        int8_t c[2 * MAXP];
        int gain = play(start, i, c, &again, &over);
        if (over) v = gain;
        else if (again) v = gain + search(c, -1000, 1000);
        else v = gain - search(c, -1000, 1000);
        printf("  pit %d: %+d\n", i + 1, v);
    }
    return 0;
}
