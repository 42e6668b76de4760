package command

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/providertest"
)

// oracleProject is one configuration set up for terrane with the test
// providers. Tests of language semantics run terrane in it and check what
// it does; the differential corpus (corpus/cases) is where such
// configurations are compared with OpenTofu.
type oracleProject struct {
	*e2eProject
}

// oracleResult is what one program printed and its exit status.
type oracleResult struct {
	stdout, stderr string
	code           int
}

// newOracleProject writes files (main.tf and any others, such as module
// sources, with CLOUD replaced by the project's cloud directory) and runs
// init.
func newOracleProject(t *testing.T, files map[string]string) *oracleProject {
	t.Helper()
	mirror := providertest.Build(t)
	o := &oracleProject{e2eProject: &e2eProject{t: t, cloud: t.TempDir()}}
	o.dir = useMirror(t, mirror.Dir, "")
	o.writeFiles(o.e2eProject, files)
	o.mustRun("init", "-no-color")
	return o
}

func (o *oracleProject) writeFiles(p *e2eProject, files map[string]string) {
	for name, src := range files {
		writeFile(o.t, filepath.Join(p.dir, name), strings.ReplaceAll(src, "CLOUD", p.cloud))
	}
}

// rewrite replaces files in the project.
func (o *oracleProject) rewrite(files map[string]string) {
	o.writeFiles(o.e2eProject, files)
}

// runTerrane runs terrane in its project.
func (o *oracleProject) runTerrane(args ...string) oracleResult {
	o.t.Helper()
	stdout, stderr, code := o.run(args...)
	return oracleResult{stdout: stdout, stderr: stderr, code: code}
}

// agree runs one command and returns its result for the test's own
// assertions.
func (o *oracleProject) agree(args ...string) oracleResult {
	o.t.Helper()
	return o.runTerrane(args...)
}

// expectCode fails the test unless res exited with code.
func (o *oracleProject) expectCode(what string, res oracleResult, code int) {
	o.t.Helper()
	if res.code != code {
		o.t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, res.code, code, res.stdout, res.stderr)
	}
}
