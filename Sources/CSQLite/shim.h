#ifndef WAYPOINT_CSQLITE_SHIM_H
#define WAYPOINT_CSQLITE_SHIM_H

#include <sqlite3.h>

#endif
