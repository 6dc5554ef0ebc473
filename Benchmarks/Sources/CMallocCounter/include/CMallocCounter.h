#ifndef CMALLOCCOUNTER_H
#define CMALLOCCOUNTER_H
/// The number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc) made by this process so far.
/// Counting works on Linux/glibc, where this library's definitions interpose the C library's; elsewhere it is -1.
long ibt_allocation_count(void);
#endif
