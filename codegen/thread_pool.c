/* infer's thread pool: what the parallel loops of compiled code run on.

   Compiled code calls `infer_parallel_for(body, ctx, lb, ub, team, grain)` for a loop
   whose iterations [lb, ub) are independent (`convert-parallel-calls-to-pool`); `body(ctx,
   lo, hi)` runs iterations [lo, hi). The contract (DESIGN.md, the threading contract):
   a run never waits for a thread that is not running.

   - The calling thread takes chunks itself, and so does each worker that is awake; a
     chunk is claimed by one compare-and-swap on a shared counter, so a worker that wakes
     late (or not at all: descheduled on a busy machine) finds less left, or nothing, and
     the caller waits only for chunks that running threads have claimed.
   - Chunks are guided: a claim takes its share of what is left (at least `grain`
     iterations), so they shrink toward the end, where a slow thread would hold the rest.
   - A worker that finds no work spins for a while (INFER_SPIN_US, 200 microseconds by
     default: the gaps between the loops of one run), then keeps polling between
     sched_yield() calls (INFER_YIELD_US, 20 milliseconds by default: the gap to a
     service's next request), then sleeps on a futex; a loop wakes only the workers its
     team needs, and does not wait for them to wake. Yielding gives the core to any thread
     that wants it, so the poll costs a busy machine little; a worker woken from sleep at
     a run's start, on a core that sat idle, helped less than it cost (on a 2-vCPU VM,
     requests 10-100 ms apart ran slower at 2 threads than at 1; onnxruntime's workers
     spin about 60 ms after each run instead). A caller waiting
     for the chunks other threads claimed spins as long, then sleeps until the last is
     done: the scheduler can then move a descheduled worker to its core.
   - One pool per process. A loop that finds the pool taken (another Python thread's model
     running) runs on its own thread instead of waiting: two models at once each keep a
     core. A loop inside a worker runs inline too.
   - After fork() the child has no workers; it starts new ones when it needs them.

   The generation of the job is kept in the top bits of the claim counter, so a worker
   that read an old job's counter cannot claim a chunk of a newer one: its compare-and-swap
   fails. A finished job's counter is closed (all index bits set) before the next job's
   parameters are written.

   The library is built as an extension module (setuptools) but has no Python API:
   infer/codegen/thread_pool.py loads it with ctypes, and the ELF loader and MCJIT bind
   compiled code's calls to it. */

#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef void (*infer_body)(void *ctx, int64_t lo, int64_t hi);

#define MAX_WORKERS 255
#define INDEX_BITS 40
#define INDEX_MASK ((UINT64_C(1) << INDEX_BITS) - 1)
#define CLOSED INDEX_MASK                      /* no iteration left to claim */
#define GENERATION(claim) ((claim) >> INDEX_BITS)
#define PROFILE_CAPACITY (1 << 16)
/* A claim takes 1 / (GUIDED * team) of what is left. */
#define GUIDED 2

enum { AWAKE = 0, SLEEPING = 1 };

struct worker {
    _Alignas(64) atomic_int state;             /* the futex word a sleeping worker waits on */
    int index;                                 /* 0-based: the team's member index + 1 */
    uint64_t seen;                             /* the last generation it looked at */
};

/* One region as the profile records it: its team, iterations and time on the caller. */
struct infer_region {
    int64_t team, iterations, nanoseconds;
};

static struct {
    _Alignas(64) atomic_uint_least64_t claim;  /* generation << INDEX_BITS | next index */
    _Alignas(64) atomic_int_least64_t pending; /* iterations not done yet */
    atomic_int caller_sleeps;                  /* the futex word a waiting caller sleeps on */
    /* the job's parameters, written before its generation is published */
    _Alignas(64) _Atomic(infer_body) body;
    _Atomic(void *) ctx;
    atomic_int_least64_t lb, count, grain, team;
    _Alignas(64) atomic_int owner;             /* 1 while a thread runs a job on the pool */
    int started;                               /* workers started (by the owner only) */
    long spin_ns, yield_ns;
    atomic_int profiling;
    atomic_int_least64_t profiled;
    /* jobs on the pool, loops inline because it was taken, workers started */
    atomic_int_least64_t counters[3];
    struct worker workers[MAX_WORKERS];
} pool;

static struct infer_region profile[PROFILE_CAPACITY];
static _Thread_local int in_worker;

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void futex_wait(atomic_int *word, int value) {
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

static void futex_wake(atomic_int *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* One spin of a wait that spins for pool.spin_ns, then sleeps: true once that time has
   passed since the wait's first spin (*deadline 0 then; the clock is read every 64). */
static int spun_out(int64_t *deadline, unsigned spins) {
    cpu_relax();
    if (spins % 64 != 0)
        return 0;
    int64_t t = now_ns();
    if (*deadline == 0) {
        *deadline = t + pool.spin_ns;
        return 0;
    }
    return t >= *deadline;
}

/* Claims and runs chunks of job `generation` until none is left. */
static void run_chunks(uint64_t generation) {
    for (;;) {
        uint64_t claim = atomic_load_explicit(&pool.claim, memory_order_acquire);
        if (GENERATION(claim) != generation)
            return;
        int64_t i = (int64_t)(claim & INDEX_MASK);
        int64_t count = atomic_load_explicit(&pool.count, memory_order_acquire);
        if (i >= count)  /* all claimed, or closed (then `count` may be a newer job's) */
            return;
        int64_t team = atomic_load_explicit(&pool.team, memory_order_acquire);
        int64_t grain = atomic_load_explicit(&pool.grain, memory_order_acquire);
        int64_t left = count - i;
        int64_t chunk = left / (GUIDED * team);
        if (chunk < grain)
            chunk = grain;
        if (chunk > left)
            chunk = left;
        if (!atomic_compare_exchange_weak_explicit(&pool.claim, &claim, claim + (uint64_t)chunk,
                                                   memory_order_acq_rel, memory_order_relaxed))
            continue;
        /* The job cannot end before this chunk is done: its parameters stay. */
        infer_body body = atomic_load_explicit(&pool.body, memory_order_relaxed);
        void *ctx = atomic_load_explicit(&pool.ctx, memory_order_relaxed);
        int64_t lo = atomic_load_explicit(&pool.lb, memory_order_relaxed) + i;
        body(ctx, lo, lo + chunk);
        if (atomic_fetch_sub(&pool.pending, chunk) == chunk && atomic_load(&pool.caller_sleeps)) {
            atomic_store(&pool.caller_sleeps, 0);  /* the last chunk: wake the caller */
            futex_wake(&pool.caller_sleeps);
        }
    }
}

/* Polls between sched_yield() calls for up to pool.yield_ns for a job newer than `seen`:
   true with its claim in *claim when one came. */
static int yield_for_job(uint64_t seen, uint64_t *claim) {
    int64_t until = now_ns() + pool.yield_ns;
    for (unsigned polls = 0; pool.yield_ns > 0; polls++) {
        *claim = atomic_load_explicit(&pool.claim, memory_order_acquire);
        if (GENERATION(*claim) != seen)
            return 1;
        if (polls % 16 == 15 && now_ns() >= until)
            return 0;
        sched_yield();
    }
    return 0;
}

/* Waits for a job newer than the last one seen: spins, polls yielding, then sleeps.
   Returns its claim. */
static uint64_t wait_for_job(struct worker *self) {
    int64_t deadline = 0;
    for (unsigned spins = 0;; spins++) {
        uint64_t claim = atomic_load_explicit(&pool.claim, memory_order_acquire);
        if (GENERATION(claim) != self->seen)
            return claim;
        if (spun_out(&deadline, spins)) {
            if (yield_for_job(self->seen, &claim))
                return claim;
            /* Sleep, unless a job came since the check above (a caller that publishes a
               job then reads `state`: one of the two sees the other). */
            atomic_store(&self->state, SLEEPING);
            claim = atomic_load(&pool.claim);
            if (GENERATION(claim) != self->seen) {
                atomic_store(&self->state, AWAKE);
                return claim;
            }
            while (atomic_load(&self->state) == SLEEPING)
                futex_wait(&self->state, SLEEPING);
            deadline = 0;
        }
    }
}

static void *worker_main(void *arg) {
    struct worker *self = arg;
    in_worker = 1;
    for (;;) {
        uint64_t claim = wait_for_job(self);
        self->seen = GENERATION(claim);
        if (self->index < atomic_load_explicit(&pool.team, memory_order_acquire) - 1)
            run_chunks(self->seen);
    }
    return NULL;
}

/* Starts workers until there are `wanted` (by the owner); returns how many there are. */
static int start_workers(int wanted) {
    if (wanted > MAX_WORKERS)
        wanted = MAX_WORKERS;
    while (pool.started < wanted) {
        struct worker *w = &pool.workers[pool.started];
        w->index = pool.started;
        w->seen = GENERATION(atomic_load(&pool.claim));
        atomic_store(&w->state, AWAKE);
        pthread_attr_t attr;
        pthread_t thread;
        sigset_t all, old;
        /* workers take no signals: Python handles them on its main thread */
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int failed = pthread_create(&thread, &attr, worker_main, w);
        pthread_attr_destroy(&attr);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (failed)
            break;
        pool.started++;
        atomic_store_explicit(&pool.counters[2], pool.started, memory_order_relaxed);
    }
    return pool.started;
}

static void run_job(infer_body body, void *ctx, int64_t lb, int64_t count, int64_t team,
                    int64_t grain) {
    uint64_t generation = GENERATION(atomic_load(&pool.claim)) + 1;
    generation &= (UINT64_C(1) << (64 - INDEX_BITS)) - 1;
    atomic_store_explicit(&pool.body, body, memory_order_release);
    atomic_store_explicit(&pool.ctx, ctx, memory_order_release);
    atomic_store_explicit(&pool.lb, lb, memory_order_release);
    atomic_store_explicit(&pool.count, count, memory_order_release);
    atomic_store_explicit(&pool.grain, grain, memory_order_release);
    atomic_store_explicit(&pool.team, team, memory_order_release);
    atomic_store_explicit(&pool.pending, count, memory_order_release);
    atomic_store(&pool.claim, generation << INDEX_BITS);  /* published */
    for (int k = 0; k < team - 1; k++) {
        atomic_int *state = &pool.workers[k].state;
        if (atomic_load(state) == SLEEPING && atomic_exchange(state, AWAKE) == SLEEPING)
            futex_wake(state);
    }
    run_chunks(generation);
    /* Only chunks that running threads claimed are left to wait for. Spin briefly, then
       sleep: a thread descheduled with its chunk (another process, or another pool, on
       its core) is then moved to this idle core by the scheduler, instead of waiting for
       its own core while this one spins. */
    int64_t deadline = 0;
    for (unsigned spins = 0; atomic_load(&pool.pending) != 0; spins++) {
        if (spun_out(&deadline, spins)) {
            atomic_store(&pool.caller_sleeps, 1);
            if (atomic_load(&pool.pending) != 0)
                futex_wait(&pool.caller_sleeps, 1);
            atomic_store(&pool.caller_sleeps, 0);
        }
    }
    /* Closed before the next job's parameters are written (acq_rel: nothing after it
       moves before it). */
    atomic_exchange(&pool.claim, (generation << INDEX_BITS) | CLOSED);
}

/* Runs body(ctx, lo, hi) over [lb, ub) in chunks of at least `grain` iterations, on the
   calling thread and up to team - 1 workers; returns when every iteration is done. */
void infer_parallel_for(infer_body body, void *ctx, int64_t lb, int64_t ub, int64_t team,
                        int64_t grain) {
    int64_t count = ub - lb;
    if (grain < 1)
        grain = 1;
    if (team > count / grain)
        team = count / grain;
    if (team > MAX_WORKERS + 1)
        team = MAX_WORKERS + 1;
    if (team < 2 || count >= (int64_t)CLOSED || in_worker) {
        body(ctx, lb, ub);
        return;
    }
    if (atomic_load_explicit(&pool.profiling, memory_order_relaxed)) {
        int64_t start = now_ns();
        body(ctx, lb, ub);
        int64_t k = atomic_fetch_add(&pool.profiled, 1);
        if (k < PROFILE_CAPACITY)
            profile[k] = (struct infer_region){team, count, now_ns() - start};
        return;
    }
    int expected = 0;
    if (!atomic_compare_exchange_strong(&pool.owner, &expected, 1)) {
        atomic_fetch_add_explicit(&pool.counters[1], 1, memory_order_relaxed);
        body(ctx, lb, ub);
        return;
    }
    int workers = start_workers((int)team - 1);
    if (team > workers + 1)
        team = workers + 1;
    if (team < 2) {
        atomic_store(&pool.owner, 0);
        body(ctx, lb, ub);
        return;
    }
    atomic_fetch_add_explicit(&pool.counters[0], 1, memory_order_relaxed);
    run_job(body, ctx, lb, count, team, grain);
    atomic_store_explicit(&pool.owner, 0, memory_order_release);
}

/* Profiling: while on, each region runs on the calling thread alone, timed, and is
   recorded with the team it would have had. Returns the regions recorded so far. */
int64_t infer_pool_profile(int on) {
    int64_t recorded = atomic_load(&pool.profiled);
    if (on)
        atomic_store(&pool.profiled, 0);
    atomic_store(&pool.profiling, on);
    return recorded < PROFILE_CAPACITY ? recorded : PROFILE_CAPACITY;
}

/* The recorded regions (infer_pool_profile). */
const struct infer_region *infer_pool_regions(void) { return profile; }

/* Jobs run on the pool, loops run inline because another thread held the pool, and
   workers started. */
const int64_t *infer_pool_counters(void) { return (const int64_t *)pool.counters; }

static void after_fork_in_child(void) {
    /* the workers did not follow the fork */
    pool.started = 0;
    atomic_store(&pool.counters[2], 0);
    atomic_store(&pool.owner, 0);
    atomic_store(&pool.claim, atomic_load(&pool.claim) | CLOSED);
}

/* Microseconds from the environment variable `name`, or `otherwise` if unset or not a
   number from 0 to 10 s. */
static long microseconds(const char *name, long otherwise) {
    const char *text = getenv(name);
    if (text == NULL || *text == '\0')
        return otherwise;
    char *end;
    long value = strtol(text, &end, 10);
    return (*end == '\0' && value >= 0 && value <= 10000000) ? value : otherwise;
}

__attribute__((constructor)) static void init_pool(void) {
    pool.spin_ns = microseconds("INFER_SPIN_US", 200) * 1000;
    pool.yield_ns = microseconds("INFER_YIELD_US", 20000) * 1000;
    atomic_store(&pool.claim, CLOSED);
    pthread_atfork(NULL, NULL, after_fork_in_child);
}
