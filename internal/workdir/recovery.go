package workdir

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/terrane/terrane/internal/store/sqlite"
)

// BackupsDir is where the default embedded store of the configuration in
// dir is copied before a change that could not be undone otherwise: a new
// schema version, a state push.
func BackupsDir(dir string) string { return storeBackupsDir(StatePath(dir)) }

// storeBackupsDir is where copies of the database file at path go: a
// backups directory beside it.
func storeBackupsDir(path string) string { return filepath.Join(filepath.Dir(path), "backups") }

// keepBackups is how many backups of one reason BackupStore keeps; older
// ones are removed as new ones are made, so repeated pushes of a large
// store do not fill the disk.
const keepBackups = 10

// BackupStore copies the embedded store whose database file is path into
// the backups directory beside it, naming the copy after reason and the
// time, and returns the copy's path. Of the copies made for the same
// reason, the newest keepBackups are kept.
func BackupStore(ctx context.Context, path, reason string) (string, error) {
	backups := storeBackupsDir(path)
	dest := filepath.Join(backups, sqlite.BackupName(path, time.Now(), reason))
	if err := sqlite.BackupFile(ctx, path, dest); err != nil {
		return "", err
	}
	// Names sort by time (sqlite.BackupName).
	stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	older, _ := filepath.Glob(filepath.Join(backups, stem+"-*-"+reason+".db"))
	sort.Strings(older)
	for len(older) > keepBackups {
		_ = os.Remove(older[0])
		older = older[1:]
	}
	return dest, nil
}

// StoreRecoveryAdvice says what to do when the embedded store whose
// database file is path cannot be opened or written, given the error. It
// never suggests removing the store: the file is the only record of which
// remote objects Terrane manages, and an empty store would have the next
// apply create them all again.
func StoreRecoveryAdvice(path string, err error) string {
	backups := storeBackupsDir(path)
	text := strings.ToLower(fmt.Sprint(err))
	switch {
	case errors.Is(err, sqlite.ErrNewerSchema):
		return "Run this configuration with the newer version of Terrane that wrote the store. Do not delete or replace the file: it records which remote objects Terrane manages."
	case strings.Contains(text, "readonly") || strings.Contains(text, "read-only") || strings.Contains(text, "permission denied") || !writable(path):
		return fmt.Sprintf("Make %s and the files beside it (%s-wal, %s-shm) and their directory writable by this user (or mount its file system read-write), then run the command again. Keep the files: they record which remote objects Terrane manages.", path, filepath.Base(path), filepath.Base(path))
	case strings.Contains(text, "disk is full") || strings.Contains(text, "no space") || strings.Contains(text, "disk i/o") || strings.Contains(text, "too large"):
		return fmt.Sprintf("Free space on the disk that holds %s, then run the command again. Keep the files: they record which remote objects Terrane manages.", path)
	}
	return fmt.Sprintf("Keep %s: it records which remote objects Terrane manages, and starting from an empty store would have the next apply create them all again. To recover it:\n"+
		"  - if it is damaged, let SQLite salvage what it can: sqlite3 %s .recover > recovered.sql, then sqlite3 recovered.db < recovered.sql, and put recovered.db in its place once \"terrane state list\" shows what you expect;\n"+
		"  - or restore the last good copy: Terrane keeps one in %s before every state push and every change of the store's layout;\n"+
		"  - or push a state file you saved earlier (terrane state pull > FILE) into a fresh store with: terrane state push FILE.\n"+
		"Move the damaged file aside rather than deleting it.", path, path, backups)
}

// writable reports whether the database file at path, where it exists, and
// its directory can be written: SQLite reports a store on a read-only file
// system, or in a directory it may not create its -wal and -shm files in,
// only as a file it cannot open, which reads like a damaged one.
func writable(path string) bool {
	if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
		_ = f.Close()
	} else if !errors.Is(err, os.ErrNotExist) {
		return false
	}
	probe, err := os.CreateTemp(filepath.Dir(path), ".terrane-write-check-*")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	_ = probe.Close()
	_ = os.Remove(probe.Name())
	return true
}
