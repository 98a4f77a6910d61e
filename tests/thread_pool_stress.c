/* A stress driver for codegen/thread_pool.c (tests/test_thread_pool.py builds it with
   ThreadSanitizer): two callers at once, 20,000 loops each of random bounds, teams and
   grains; every iteration of every loop must run exactly once. Prints "ok". */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
typedef void (*infer_body)(void *ctx, int64_t lo, int64_t hi);
void infer_parallel_for(infer_body body, void *ctx, int64_t lb, int64_t ub, int64_t team, int64_t grain);
struct ctx { int64_t lb; atomic_int *hits; };
static void body(void *p, int64_t lo, int64_t hi) {
  struct ctx *c = p;
  for (int64_t i = lo; i < hi; i++) atomic_fetch_add_explicit(&c->hits[i - c->lb], 1, memory_order_relaxed);
}
static void *caller(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg;
  atomic_int *hits = malloc(sizeof(atomic_int) * 5000);
  for (int job = 0; job < 20000; job++) {
    int64_t n = rand_r(&seed) % 5000, lb = rand_r(&seed) % 100 - 50;
    int64_t team = 1 + rand_r(&seed) % 4, grain = 1 + rand_r(&seed) % 50;
    for (int64_t i = 0; i < n; i++) atomic_init(&hits[i], 0);
    struct ctx c = {lb, hits};
    infer_parallel_for(body, &c, lb, lb + n, team, grain);
    for (int64_t i = 0; i < n; i++) if (atomic_load(&hits[i]) != 1) { printf("BAD job %d i %ld hits %d\n", job, (long)i, atomic_load(&hits[i])); exit(1); }
  }
  free(hits);
  return NULL;
}
int main(void) {
  pthread_t t[2];
  for (int k = 0; k < 2; k++) pthread_create(&t[k], NULL, caller, (void *)(uintptr_t)(k + 1));
  for (int k = 0; k < 2; k++) pthread_join(t[k], NULL);
  puts("ok");
  return 0;
}
