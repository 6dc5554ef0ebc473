// Counting allocator for TWSAllocationTests (not part of the Swift build).
//   gcc -shared -fPIC -O2 -o /tmp/libtwsalloc.so scripts/alloc-counter.c -ldl
//   LD_PRELOAD=/tmp/libtwsalloc.so swift test --skip-build --filter TWSAllocationTests
// The count is per thread, so tests running in parallel on other threads do not disturb it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

static __thread long counter = 0;
static void *(*real_malloc)(size_t) = NULL;
static void *(*real_realloc)(void *, size_t) = NULL;
static int (*real_posix_memalign)(void **, size_t, size_t) = NULL;

long twstest_allocation_count(void) { return counter; }

void *malloc(size_t size) {
    if (!real_malloc) real_malloc = dlsym(RTLD_NEXT, "malloc");
    counter += 1;
    return real_malloc(size);
}

void *realloc(void *pointer, size_t size) {
    if (!real_realloc) real_realloc = dlsym(RTLD_NEXT, "realloc");
    counter += 1;
    return real_realloc(pointer, size);
}

int posix_memalign(void **pointer, size_t alignment, size_t size) {
    if (!real_posix_memalign) real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    counter += 1;
    return real_posix_memalign(pointer, alignment, size);
}
