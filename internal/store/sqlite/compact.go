package sqlite

import (
	"context"
	"fmt"
)

// Compact discards what the database keeps of earlier values: the change
// log watches follow (a watch behind it ends with ErrWatchExpired and
// starts again from a snapshot), the pages earlier values occupied
// (VACUUM rewrites the file) and the write-ahead log (checkpointed and
// truncated). After records are re-encrypted, or encrypted for the first
// time, this is what removes the old forms from the disk. It reports an
// error when another process's open read kept the log from being emptied.
func (b *Backend) Compact(ctx context.Context) error {
	err := b.retryBusy(ctx, func() error {
		_, err := b.writer.ExecContext(ctx, "DELETE FROM changes")
		return err
	}, "discarding the change log of "+b.path)
	if err != nil {
		return err
	}
	if err := b.retryBusy(ctx, func() error {
		_, err := b.writer.ExecContext(ctx, "VACUUM")
		return err
	}, "vacuuming "+b.path); err != nil {
		return fmt.Errorf("vacuuming state database %s: %w", b.path, err)
	}
	var busy, logFrames, checkpointed int
	if err := b.writer.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &checkpointed); err != nil {
		return fmt.Errorf("checkpointing state database %s: %w", b.path, err)
	}
	if busy != 0 {
		return fmt.Errorf("the write-ahead log of %s could not be emptied because another process is reading the database; run the command again when it is done", b.path)
	}
	return nil
}
