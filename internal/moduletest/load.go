package moduletest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/terrane/terrane/internal/diags"
)

// testFileExtensions are the endings of test file names.
var testFileExtensions = []string{".tftest.hcl", ".tftest.json", ".tofutest.hcl", ".tofutest.json"}

func testFileExtension(name string) string {
	for _, ext := range testFileExtensions {
		if strings.HasSuffix(name, ext) && len(name) > len(ext) {
			return ext
		}
	}
	return ""
}

// FindFiles lists the test files of the configuration in the working
// directory: those in the directory itself and in testDir (relative to
// it), by the names the command shows, sorted. Where main.tofutest.hcl
// and main.tftest.hcl (or the .json pair) are side by side, only the
// OpenTofu-specific file is read. A missing testDir holds no files.
func FindFiles(testDir string) ([]string, diags.Diagnostics) {
	root, ds := filesIn(".")
	if testDir != "" && filepath.Clean(testDir) != "." {
		inTests, tds := filesIn(testDir)
		ds = ds.Append(tds)
		for _, name := range inTests {
			root = append(root, path.Join(filepath.ToSlash(testDir), path.Base(name)))
		}
	}
	sort.Strings(root)
	return root, ds
}

func filesIn(dir string) ([]string, diags.Diagnostics) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Failed to read the test directory", "Listing %s failed: %s.", dir, err)}
	}
	present := map[string]bool{}
	for _, e := range entries {
		present[e.Name()] = true
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		ext := testFileExtension(name)
		if e.IsDir() || ext == "" || strings.HasPrefix(name, ".") {
			continue
		}
		base := strings.TrimSuffix(name, ext)
		if (ext == ".tftest.hcl" && present[base+".tofutest.hcl"]) || (ext == ".tftest.json" && present[base+".tofutest.json"]) {
			continue
		}
		names = append(names, name)
	}
	return names, nil
}

// Loader reads test files and remembers their text for diagnostics.
type Loader struct {
	parser *hclparse.Parser
}

// NewLoader returns a Loader that has read nothing yet.
func NewLoader() *Loader {
	return &Loader{parser: hclparse.NewParser()}
}

// Sources returns every file read so far, by name, for source snippets.
func (l *Loader) Sources() map[string]*hcl.File {
	return l.parser.Files()
}

// Load reads the test file name (a path relative to the working
// directory). A file that cannot be read or parsed is returned with its
// diagnostics and no runs.
func (l *Loader) Load(name string) *File {
	src, err := os.ReadFile(name)
	if err != nil {
		return &File{Name: name, Diagnostics: diags.Diagnostics{diags.Errorf("Failed to read test file",
			"The test file %s could not be read: %s.", name, err)}}
	}
	var parsed *hcl.File
	var hd hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		parsed, hd = l.parser.ParseJSON(src, name)
	} else {
		parsed, hd = l.parser.ParseHCL(src, name)
	}
	if hd.HasErrors() || parsed == nil {
		return &File{Name: name, Diagnostics: diags.Diagnostics{}.Append(hd)}
	}
	f := decodeFile(name, parsed.Body)
	f.Diagnostics = diags.Diagnostics{}.Append(hd).Append(f.Diagnostics)
	return f
}

// String names the file and its runs, for logs.
func (f *File) String() string {
	return fmt.Sprintf("%s (%d runs)", f.Name, len(f.Runs))
}
