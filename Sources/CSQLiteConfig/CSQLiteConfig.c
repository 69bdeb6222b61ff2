#include <sqlite3.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "CSQLiteConfig.h"

int waypoint_sqlite3_db_config_int(void *db, int op, int value, int *result) {
    return sqlite3_db_config((sqlite3 *)db, op, value, result);
}

/// The size of the WAL-index header, of which the index holds two copies, one after the other.
enum { waypoint_wal_index_header_size = 48 };

void *waypoint_main_file(void *db) {
    sqlite3_file *file = 0;
    if (sqlite3_file_control((sqlite3 *)db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK) {
        return 0;
    }
    return file;
}

int waypoint_wal_index_region(void *main_file, const void **region) {
    *region = 0;
    sqlite3_file *file = (sqlite3_file *)main_file;
    if (file == 0) return SQLITE_NOTFOUND;
    const sqlite3_io_methods *methods = file->pMethods;
    if (methods == 0 || methods->iVersion < 2 || methods->xShmMap == 0) return SQLITE_NOTFOUND;
    // Region 0 (32 KiB, the size SQLite maps it with), only when already mapped: never extended.
    volatile void *mapped = 0;
    int code = methods->xShmMap(file, 0, 32768, 0, &mapped);
    if (code != SQLITE_OK) return code;
    if (mapped == 0) return SQLITE_NOTFOUND;
    *region = (const void *)mapped;
    return SQLITE_OK;
}

int waypoint_wal_index_header_in_region(const void *region, unsigned char *header) {
    if (region == 0) return SQLITE_NOTFOUND;
    // The region is mapped at a page boundary: both copies are aligned for 64-bit reads.
    const volatile uint64_t *copies = (const volatile uint64_t *)region;
    enum { words = waypoint_wal_index_header_size / 8 };
    uint64_t first[words];
    uint64_t second[words];
    // A writer writes the second copy, then the first, with a barrier between: the first read, a
    // full fence (what SQLite's own barrier is, less the lock it also takes and leaves), then the
    // second; equal copies are a whole header.
    for (int index = 0; index < words; index++) first[index] = copies[index];
    atomic_thread_fence(memory_order_seq_cst);
    for (int index = 0; index < words; index++) second[index] = copies[words + index];
    if (memcmp(first, second, waypoint_wal_index_header_size) != 0) return SQLITE_BUSY;
    // isInit, the byte at offset 12: zero until a connection has built the index.
    if (((const unsigned char *)first)[12] == 0) return SQLITE_NOTFOUND;
    memcpy(header, first, waypoint_wal_index_header_size);
    return SQLITE_OK;
}
