#ifndef WAYPOINT_CSQLITECONFIG_H
#define WAYPOINT_CSQLITECONFIG_H

/// Non-variadic wrapper of `sqlite3_db_config(db, op, int, int *)`, for the options that take an
/// int and an int pointer (`SQLITE_DBCONFIG_DEFENSIVE`, `SQLITE_DBCONFIG_ENABLE_TRIGGER`, ...).
/// Swift cannot call C variadic functions. `db` is a `sqlite3 *`; the header names no SQLite type so
/// that it does not clash with the SDK's `SQLite3` module on Apple platforms.
int waypoint_sqlite3_db_config_int(void *db, int op, int value, int *result);

/// The `sqlite3_file *` of `db`'s main database (`SQLITE_FCNTL_FILE_POINTER`), or NULL. SQLite
/// keeps it, at the same address, for as long as the connection is open.
void *waypoint_main_file(void *db);

/// The first region of the WAL index (the `-shm` file) that the connection of `main_file`, from
/// ``waypoint_main_file``, has mapped (`xShmMap` without extending it; a connection in WAL mode
/// that has not read yet maps it as its first read would), in `*region`; `SQLITE_NOTFOUND` (and
/// NULL) when it has none mapped yet or the VFS has no shared memory, or the VFS's error. SQLite
/// keeps the region at that address until the connection closes or leaves WAL mode, so that a
/// caller may keep it until then and read the header with ``waypoint_wal_index_header_in_region``
/// without asking the VFS again.
int waypoint_wal_index_region(void *main_file, const void **region);

/// Copies the header of the WAL index whose first region ``waypoint_wal_index_region`` gave (the
/// first 48 bytes, as https://sqlite.org/walformat.html specifies them) into `header`, which must
/// hold 48 bytes. SQLite rewrites that header on every commit of any connection, in any process,
/// with a counter it increments (`iChange`, the native-endian 32-bit word at offset 8).
///
/// Reads the two copies of the header with a full memory fence between them, as SQLite's readers
/// read them: no lock, no system call, no call into SQLite. Returns `SQLITE_OK` when both copies
/// agree and are initialised; `SQLITE_BUSY` when they differ (a commit is writing them);
/// `SQLITE_NOTFOUND` for a NULL region or an index not built yet.
int waypoint_wal_index_header_in_region(const void *region, unsigned char *header);

#endif
