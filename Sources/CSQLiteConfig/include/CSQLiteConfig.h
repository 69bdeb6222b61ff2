#ifndef WAYPOINT_CSQLITECONFIG_H
#define WAYPOINT_CSQLITECONFIG_H

/// Non-variadic wrapper of `sqlite3_db_config(db, op, int, int *)`, for the options that take an
/// int and an int pointer (`SQLITE_DBCONFIG_DEFENSIVE`, `SQLITE_DBCONFIG_ENABLE_TRIGGER`, ...).
/// Swift cannot call C variadic functions. `db` is a `sqlite3 *`; the header names no SQLite type so
/// that it does not clash with the SDK's `SQLite3` module on Apple platforms.
int waypoint_sqlite3_db_config_int(void *db, int op, int value, int *result);

/// Copies the header of the WAL index of `db`'s main database (the first 48 bytes of its `-shm`
/// file, as https://sqlite.org/walformat.html specifies them) into `header`, which must hold 48
/// bytes. SQLite rewrites that header on every commit of any connection, in any process, with a
/// counter it increments (`iChange`, the native-endian 32-bit word at offset 8).
///
/// Reads the region the connection has mapped (`xShmMap` without extending it; a connection in WAL
/// mode that has not read yet maps it as its first read would), the two copies of the header with
/// a full memory fence between them, as SQLite's readers read them; it takes no lock and, once
/// the region is mapped, makes no system call. Call it only for a connection in WAL mode. Returns `SQLITE_OK` when both copies agree and are
/// initialised; `SQLITE_BUSY` when they differ (a commit is writing them); `SQLITE_NOTFOUND` when
/// the connection has no WAL index mapped (not in WAL mode, or a VFS without shared memory); or the
/// VFS's error.
int waypoint_wal_index_header(void *db, unsigned char *header);

/// The `sqlite3_file *` of `db`'s main database (`SQLITE_FCNTL_FILE_POINTER`), or NULL. SQLite
/// keeps it, at the same address, for as long as the connection is open.
void *waypoint_main_file(void *db);

/// ``waypoint_wal_index_header`` for the main database file that `waypoint_main_file` gave (NULL
/// answers `SQLITE_NOTFOUND`): the same reads, without looking the file up again.
int waypoint_wal_index_header_of_file(void *main_file, unsigned char *header);

/// The first region of the WAL index that the connection of `main_file` has mapped (`xShmMap`
/// without extending it), in `*region`; `SQLITE_NOTFOUND` (and NULL) when it has none mapped yet
/// or the VFS has no shared memory, or the VFS's error. SQLite keeps the region at that address
/// until the connection closes or leaves WAL mode, so that a caller may keep it until then and
/// read the header with ``waypoint_wal_index_header_in_region`` without asking the VFS again.
int waypoint_wal_index_region(void *main_file, const void **region);

/// ``waypoint_wal_index_header`` from a region ``waypoint_wal_index_region`` gave (NULL answers
/// `SQLITE_NOTFOUND`): the two copies with a full memory fence between them; no lock, no call into
/// SQLite.
int waypoint_wal_index_header_in_region(const void *region, unsigned char *header);

#endif
