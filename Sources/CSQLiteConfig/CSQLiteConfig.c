#include <sqlite3.h>
#include <string.h>

#include "CSQLiteConfig.h"

int waypoint_sqlite3_db_config_int(void *db, int op, int value, int *result) {
    return sqlite3_db_config((sqlite3 *)db, op, value, result);
}

/// The size of the WAL-index header, of which the index holds two copies, one after the other.
enum { waypoint_wal_index_header_size = 48 };

int waypoint_wal_index_header(void *db, unsigned char *header) {
    sqlite3_file *file = 0;
    if (sqlite3_file_control((sqlite3 *)db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK
        || file == 0) {
        return SQLITE_NOTFOUND;
    }
    const sqlite3_io_methods *methods = file->pMethods;
    if (methods == 0 || methods->iVersion < 2 || methods->xShmMap == 0
        || methods->xShmBarrier == 0) {
        return SQLITE_NOTFOUND;
    }
    // Region 0 (32 KiB, the size SQLite maps it with), only when already mapped: never extended.
    volatile void *region = 0;
    int code = methods->xShmMap(file, 0, 32768, 0, &region);
    if (code != SQLITE_OK) return code;
    if (region == 0) return SQLITE_NOTFOUND;
    const volatile unsigned char *copies = (const volatile unsigned char *)region;
    unsigned char first[waypoint_wal_index_header_size];
    unsigned char second[waypoint_wal_index_header_size];
    // A writer writes the second copy, then the first, with a barrier between: the first read, a
    // barrier, then the second; equal copies are a whole header.
    for (int index = 0; index < waypoint_wal_index_header_size; index++) {
        first[index] = copies[index];
    }
    methods->xShmBarrier(file);
    for (int index = 0; index < waypoint_wal_index_header_size; index++) {
        second[index] = copies[waypoint_wal_index_header_size + index];
    }
    if (memcmp(first, second, waypoint_wal_index_header_size) != 0) return SQLITE_BUSY;
    // isInit, the byte at offset 12: zero until a connection has built the index.
    if (first[12] == 0) return SQLITE_NOTFOUND;
    memcpy(header, first, waypoint_wal_index_header_size);
    return SQLITE_OK;
}
