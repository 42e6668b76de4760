package atrest

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Search returns, for each of needles that some file under dir holds,
// the paths of the files holding it. A directory without files fails t:
// a search of nothing would find nothing and prove nothing.
func Search(t testing.TB, dir string, needles ...string) map[string][]string {
	t.Helper()
	found := map[string][]string{}
	files := 0
	err := filepath.WalkDir(dir, func(path string, entry fs.DirEntry, err error) error {
		if err != nil || entry.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, needle := range needles {
			if bytes.Contains(data, []byte(needle)) {
				found[needle] = append(found[needle], path)
			}
		}
		return nil
	})
	if err != nil || files == 0 {
		t.Fatalf("searching %s: %d files, %v", dir, files, err)
	}
	return found
}
