package sqlite

// schema is applied on open; every statement is idempotent so processes
// opening the same file at once do not conflict.
//
// resources is keyed by identity (type without GroupVersion, tenancy, name),
// which is also the order List scans; owner_key indexes ListByOwner.
// changes is the log watches poll: one row per revision, holding the stored
// value for an upsert and the last value for a delete.
const schema = `
CREATE TABLE IF NOT EXISTS resources (
	grp       TEXT    NOT NULL,
	kind      TEXT    NOT NULL,
	partition TEXT    NOT NULL,
	namespace TEXT    NOT NULL,
	name      TEXT    NOT NULL,
	uid       TEXT    NOT NULL,
	version   TEXT    NOT NULL,
	owner_key TEXT,
	body      BLOB    NOT NULL,
	PRIMARY KEY (grp, kind, partition, namespace, name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS resources_by_owner ON resources (owner_key) WHERE owner_key IS NOT NULL;
CREATE TABLE IF NOT EXISTS changes (
	rev        INTEGER PRIMARY KEY,
	event      INTEGER NOT NULL,
	body       BLOB    NOT NULL,
	written_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS revision (
	only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
	rev      INTEGER NOT NULL
);
INSERT OR IGNORE INTO revision (only_row, rev) VALUES (1, 0);
`
