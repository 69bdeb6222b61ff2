#ifndef WAYPOINT_CSQLITE_SHIM_H
#define WAYPOINT_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Non-variadic wrapper of `sqlite3_db_config` for options that take an int and an int pointer
/// (`SQLITE_DBCONFIG_DEFENSIVE`, `SQLITE_DBCONFIG_ENABLE_TRIGGER`, ...). Swift cannot call C variadics.
static inline int waypoint_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

#endif
