#include "snapshot_oracle.h"

uint64_t snapshot_file_sum(const uint8_t *b, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

size_t snapshot_slots_of_a_line(unsigned latency)
{
    size_t n = 2;
    while (n <= latency)
        n *= 2;
    return n;
}
