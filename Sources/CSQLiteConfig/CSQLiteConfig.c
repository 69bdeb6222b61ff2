#include <sqlite3.h>

#include "CSQLiteConfig.h"

int waypoint_sqlite3_db_config_int(void *db, int op, int value, int *result) {
    return sqlite3_db_config((sqlite3 *)db, op, value, result);
}
