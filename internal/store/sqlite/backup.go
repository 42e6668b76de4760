package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// schemaVersion is the layout Open prepares, kept in the database's
// user_version. Databases written before it was kept have 0 and the same
// tables. Raise it with every change to the tables; Open copies the
// database aside before it changes a file's layout.
const schemaVersion = 1

// ErrNewerSchema is returned by Open for a database a newer Terrane wrote.
var ErrNewerSchema = errors.New("the state database was written by a newer version of Terrane")

// BackupFile copies the database at path, with every change committed so
// far by any process, into a new file dest: a consistent snapshot taken
// while others may be writing (SQLite's VACUUM INTO).
func BackupFile(ctx context.Context, path, dest string) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return fmt.Errorf("creating the backup directory: %w", err)
	}
	db, err := sql.Open("sqlite", dsn(path, Options{}.withDefaults(), "deferred"))
	if err != nil {
		return fmt.Errorf("opening state database %s: %w", path, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		_ = os.Remove(dest) // a partial copy must not pass for a backup
		return fmt.Errorf("copying state database %s to %s: %w", path, dest, err)
	}
	return nil
}

// BackupName is the file name of a backup of the database at path taken
// at t for reason ("before-push", "before-schema-1"): it sorts by time.
func BackupName(path string, t time.Time, reason string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return fmt.Sprintf("%s-%s-%s.db", base, t.UTC().Format("20060102T150405.000Z"), reason)
}

// upgradeSchema brings the database to schemaVersion. A database that
// holds tables of an older version is first copied into opts.BackupDir, so
// a layout change that goes wrong can be undone by hand.
func (b *Backend) upgradeSchema() error {
	version, hasTables, err := b.schemaState()
	if err != nil {
		return fmt.Errorf("reading the schema version of state database %s: %w", b.path, err)
	}
	if version > schemaVersion {
		return fmt.Errorf("%w: %s has schema version %d, and this version of Terrane reads %d; use the newer Terrane (the file is left as it is)",
			ErrNewerSchema, b.path, version, schemaVersion)
	}
	if version == schemaVersion {
		return nil
	}
	if hasTables && b.opts.BackupDir != "" {
		dest := filepath.Join(b.opts.BackupDir, BackupName(b.path, time.Now(), fmt.Sprintf("before-schema-%d", schemaVersion)))
		if err := BackupFile(context.Background(), b.path, dest); err != nil {
			return fmt.Errorf("backing up state database %s before changing its layout: %w", b.path, err)
		}
	}
	return b.retryBusy(context.Background(), func() error {
		tx, err := b.writer.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.Exec(schema); err != nil {
			return err
		}
		if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
			return err
		}
		return tx.Commit()
	}, "preparing the schema of state database "+b.path)
}

// schemaState reads the database's user_version and whether it has the
// resources table yet (a new file has neither).
func (b *Backend) schemaState() (version int, hasTables bool, err error) {
	if err := b.writer.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return 0, false, err
	}
	var n int
	if err := b.writer.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'resources'").Scan(&n); err != nil {
		return 0, false, err
	}
	return version, n > 0, nil
}
