/* What a test must know of a snapshot file's layout to forge one, written from the docs rather than taken from
 * emu/: the sum that ends the file and the slots of a link's line, as independent oracles. */
#ifndef TESTS_SUPPORT_SNAPSHOT_ORACLE_H
#define TESTS_SUPPORT_SNAPSHOT_ORACLE_H

#include <stddef.h>
#include <stdint.h>

/* The FNV-1a sum that ends a snapshot file, of everything before it (emu/snapshot.c). */
uint64_t snapshot_file_sum(const uint8_t *b, size_t n);
/* A line's slots: the least power of two above the hop latency (comm_agent/coa_link.c). */
size_t snapshot_slots_of_a_line(unsigned latency);

#endif
