package command

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/config/format"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// fmtExtensions are the native-syntax files fmt rewrites. JSON files are
// left alone.
var fmtExtensions = []string{".tf", ".tofu", ".tfvars", ".tftest.hcl", ".tofutest.hcl"}

type fmtOptions struct {
	list, write, diff, check, recursive bool
}

// fmtRun carries the options and collects diagnostics and source files for
// rendering them.
type fmtRun struct {
	opts  fmtOptions
	out   io.Writer
	files map[string]*hcl.File
	diags hcl.Diagnostics
}

// runFmt implements "terrane fmt [options] [target...]": it rewrites
// configuration files in the canonical style. Exit status is 0 on success,
// 1 for bad flags, 2 for errors such as syntax errors, and with -check 3
// when some input is not formatted.
func runFmt(streams views.Streams, args []string) int {
	stdin, stdout, stderr := streams.Stdin, streams.Stdout, streams.Stderr
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	opts := fmtOptions{}
	fs.BoolVar(&opts.list, "list", true, "List files whose formatting differs")
	fs.BoolVar(&opts.write, "write", true, "Write the result to source files")
	fs.BoolVar(&opts.diff, "diff", false, "Display diffs of formatting changes")
	fs.BoolVar(&opts.check, "check", false, "Exit non-zero if any input is not formatted")
	fs.BoolVar(&opts.recursive, "recursive", false, "Also process subdirectories")
	noColor := fs.Bool("no-color", false, "Disable color output")
	if err := fs.Parse(args); err != nil {
		return flagParseError(stderr, err, ui.ColorEnabled(*noColor))
	}
	paths := fs.Args()
	fromStdin := len(paths) == 1 && paths[0] == "-"
	if fromStdin {
		opts.list, opts.write = false, false
	} else if len(paths) == 0 {
		paths = []string{"."}
	}
	listRequested := opts.list
	var checkOutput bytes.Buffer
	run := &fmtRun{opts: opts, out: stdout, files: map[string]*hcl.File{}}
	if opts.check {
		// -check lists what differs into a buffer and never writes.
		run.opts.list, run.opts.write = true, false
		run.out = &checkOutput
	}
	if fromStdin {
		run.processFile("<stdin>", stdin)
	} else {
		run.processPaths(paths)
	}
	if len(run.diags) > 0 {
		views.WriteLegacyDiagnostics(stderr, diags.Diagnostics{}.Append(run.diags), run.files, ui.ColorEnabled(*noColor))
	}
	if run.diags.HasErrors() {
		return 2
	}
	if opts.check {
		unformatted := checkOutput.Len() > 0
		if listRequested {
			_, _ = io.Copy(stdout, &checkOutput)
		}
		if unformatted {
			return 3
		}
	}
	return 0
}

func (r *fmtRun) errorf(summary, format string, args ...any) {
	r.diags = append(r.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)})
}

func (r *fmtRun) processPaths(paths []string) {
	for _, path := range paths {
		info, err := os.Stat(path)
		if err != nil {
			r.errorf("Invalid file or directory path", "No file or directory at %s", path)
			return
		}
		if info.IsDir() {
			r.processDir(path)
			continue
		}
		if !hasFmtExtension(path) {
			r.errorf("Invalid file extension", "Only .tf, .tofu, .tfvars, .tftest.hcl, and .tofutest.hcl files can be processed with terrane fmt")
			continue
		}
		r.processFilePath(path)
	}
}

func hasFmtExtension(name string) bool {
	for _, ext := range fmtExtensions {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// isIgnoredName matches editor backups and hidden files, which fmt skips
// like the configuration loader does.
func isIgnoredName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") ||
		(strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"))
}

func (r *fmtRun) processDir(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		r.errorf("Invalid path", "Cannot read directory %s: %s", dir, err)
		return
	}
	for _, entry := range entries {
		name := entry.Name()
		if isIgnoredName(name) {
			continue
		}
		path := filepath.Join(dir, name)
		if entry.IsDir() {
			// Like plan, fmt works on one module at a time unless asked.
			if r.opts.recursive {
				r.processDir(path)
			}
			continue
		}
		if hasFmtExtension(name) {
			r.processFilePath(path)
		}
	}
}

func (r *fmtRun) processFilePath(path string) {
	file, err := os.Open(path)
	if err != nil {
		r.errorf("Failed to open file", "Failed to read file %s: %s", path, err)
		return
	}
	defer file.Close()
	r.processFile(path, file)
}

func (r *fmtRun) processFile(path string, input io.Reader) {
	src, err := io.ReadAll(input)
	if err != nil {
		r.errorf("Failed to read file", "Failed to load the content of the %q file: %s", path, err)
		return
	}
	// Only well-formed native syntax is formatted: reformatting broken input
	// could make changes that are hard for the user to undo.
	parsed, syntaxDiags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	r.files[path] = parsed
	if syntaxDiags.HasErrors() {
		r.diags = append(r.diags, syntaxDiags...)
		return
	}
	result := format.Source(src, path)
	if !bytes.Equal(src, result) {
		r.reportChange(path, src, result)
	}
	if !r.opts.list && !r.opts.write && !r.opts.diff {
		// Terraform and OpenTofu print the result as one UI message, which
		// ends in exactly one newline whatever the file ended with.
		printed := append(bytes.TrimSuffix(result, []byte("\n")), '\n')
		if _, err := r.out.Write(printed); err != nil {
			r.errorf("Writing results failed", "Failed to write result: %s", err)
		}
	}
}

func (r *fmtRun) reportChange(path string, src, result []byte) {
	if r.opts.list {
		fmt.Fprintln(r.out, path)
	}
	if r.opts.write {
		if err := os.WriteFile(path, result, 0o644); err != nil {
			r.errorf("Writing formatted file failed", "Failed to write %s: %s", path, err)
			return
		}
	}
	if r.opts.diff {
		diff, err := unifiedDiff(src, result, path)
		if err != nil {
			r.errorf("Failed to generate diff", "Failed to generate diff for %s: %s", path, err)
			return
		}
		_, _ = r.out.Write(diff)
	}
}

// unifiedDiff runs the system diff so that -diff output matches what users
// see from other tools byte for byte.
func unifiedDiff(before, after []byte, path string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "terrane-fmt-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	beforePath, afterPath := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	if err := errors.Join(os.WriteFile(beforePath, before, 0o600), os.WriteFile(afterPath, after, 0o600)); err != nil {
		return nil, err
	}
	out, err := exec.Command("diff", "--label=old/"+path, "--label=new/"+path, "-u", beforePath, afterPath).CombinedOutput()
	if len(out) > 0 {
		// diff exits 1 when the files differ, which is the expected case.
		return out, nil
	}
	return out, err
}
