package discovery

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// unzipPackage unpacks a package zip into finalDir, keeping each file's
// executable bit.
func unzipPackage(ctx context.Context, archive, finalDir string) error {
	reader, err := zip.OpenReader(archive)
	if err != nil {
		return fmt.Errorf("cannot open package %s: %w", archive, err)
	}
	defer reader.Close()
	return replaceWithTemp(finalDir, func(tempDir string) error {
		for _, file := range reader.File {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := extractFile(file, tempDir); err != nil {
				return fmt.Errorf("package %s: %w", archive, err)
			}
		}
		return nil
	})
}

// extractFile writes one zip entry under dir. Entries that would land
// outside dir ("zip slip") and anything but files and directories are
// refused: a provider package has no reason to contain them.
func extractFile(file *zip.File, dir string) error {
	name := path.Clean(strings.ReplaceAll(file.Name, `\`, "/"))
	if path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") || filepath.VolumeName(name) != "" {
		return fmt.Errorf("entry %q points outside the package", file.Name)
	}
	target := filepath.Join(dir, filepath.FromSlash(name))
	mode := file.Mode()
	switch {
	case mode.IsDir():
		return os.MkdirAll(target, 0o755)
	case !mode.IsRegular():
		return fmt.Errorf("entry %q is not a regular file", file.Name)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	source, err := file.Open()
	if err != nil {
		return fmt.Errorf("entry %q: %w", file.Name, err)
	}
	defer source.Close()
	perm := os.FileMode(0o644)
	if mode.Perm()&0o111 != 0 {
		perm = 0o755
	}
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, source); err != nil {
		out.Close()
		return fmt.Errorf("entry %q: %w", file.Name, err)
	}
	return out.Close()
}
