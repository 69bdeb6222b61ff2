/// One numbered SQL file of `Migrations/`, embedded in the library.
///
/// Migrations are applied in order, each in its own `BEGIN IMMEDIATE` transaction that also records
/// it in `waypoint_migration`. A shipped migration is never edited; a test pins their contents.
package struct SchemaMigration: Sendable, Hashable {
  /// The number at the start of the file name (`0001_initial.sql` is version 1).
  package var version: Int
  /// The file name without `.sql`.
  package var name: String
  /// The file's SQL.
  package var sql: String
}
