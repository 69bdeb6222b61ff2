#ifndef WAYPOINT_CSQLITECONFIG_H
#define WAYPOINT_CSQLITECONFIG_H

/// Non-variadic wrapper of `sqlite3_db_config(db, op, int, int *)`, for the options that take an
/// int and an int pointer (`SQLITE_DBCONFIG_DEFENSIVE`, `SQLITE_DBCONFIG_ENABLE_TRIGGER`, ...).
/// Swift cannot call C variadic functions. `db` is a `sqlite3 *`; the header names no SQLite type so
/// that it does not clash with the SDK's `SQLite3` module on Apple platforms.
int waypoint_sqlite3_db_config_int(void *db, int op, int value, int *result);

#endif
