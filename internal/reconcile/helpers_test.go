package reconcile_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/command"
	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/reconcile"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/testing/providertest"
	"github.com/terrane/terrane/internal/workdir"
	"github.com/terrane/terrane/proto/pbresource"
)

const header = `
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpf" {
  root_dir = "CLOUD"
}
`

// lab is a directory of projects sharing one store, as the workspaces a
// control plane serves do, with the test providers installed.
type lab struct {
	t     *testing.T
	work  string
	state string
}

func newLab(t *testing.T) *lab {
	t.Helper()
	mirror := providertest.Build(t)
	work := t.TempDir()
	rc := filepath.Join(work, "terraformrc")
	writeFile(t, rc, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror.Dir+"\"\n  }\n}\n")
	t.Setenv("TERRANE_CLI_CONFIG_FILE", rc)
	t.Setenv("TF_PLUGIN_CACHE_DIR", "")
	t.Setenv("TERRANE_SCHEMA_CACHE_DIR", filepath.Join(work, "schemas"))
	t.Chdir(work)
	return &lab{t: t, work: work, state: filepath.Join(work, "state.db")}
}

// newEnvLab is a lab whose projects name no store: the TERRANE_BACKEND_*
// variables the test sets choose it.
func newEnvLab(t *testing.T) *lab {
	l := newLab(t)
	l.state = ""
	return l
}

// project is an initialized configuration directory using the test
// providers and the lab's store, in a workspace named after it, with the
// cloud directory its provider keeps objects in.
type project struct {
	t     *testing.T
	lab   *lab
	name  string
	dir   string
	cloud string
}

func (l *lab) project(name, mainTF string) *project {
	l.t.Helper()
	p := &project{t: l.t, lab: l, name: name, dir: filepath.Join(l.work, name), cloud: filepath.Join(l.work, name+"-cloud")}
	p.write(mainTF)
	p.mustRun("init")
	p.mustRun("workspace", "new", name)
	return p
}

// newProject is a lab with one project.
func newProject(t *testing.T, mainTF string) *project {
	return newLab(t).project("prod", mainTF)
}

func (p *project) write(mainTF string) {
	backend := ""
	if p.lab.state != "" {
		backend = "terraform {\n  backend \"terrane\" {\n    path = \"" + p.lab.state + "\"\n  }\n}\n"
	}
	writeFile(p.t, filepath.Join(p.dir, "main.tf"), strings.ReplaceAll(header+backend+mainTF, "CLOUD", p.cloud))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (p *project) mustRun(args ...string) string {
	p.t.Helper()
	var out, errOut strings.Builder
	args = append([]string{"-chdir=" + p.dir}, args...)
	if code := command.Run(args, views.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut}); code != 0 {
		p.t.Fatalf("terrane %s: exit %d\n%s\n%s", strings.Join(args, " "), code, out.String(), errOut.String())
	}
	return out.String()
}

// service opens the project's store.
func (p *project) service() *resourceservice.Service {
	p.t.Helper()
	service, closeStore, err := workdir.OpenService(p.dir, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { _ = closeStore() })
	return service
}

// cloudFile returns the path of the one object of resourceType named name.
func (p *project) cloudFile(resourceType, name string) string {
	p.t.Helper()
	paths, _ := filepath.Glob(filepath.Join(p.cloud, resourceType, "*.json"))
	for _, path := range paths {
		attrs := p.readObject(path)
		if attrs["name"] == name {
			return path
		}
	}
	p.t.Fatalf("no %s object named %q in %s", resourceType, name, p.cloud)
	return ""
}

func (p *project) readObject(path string) map[string]any {
	p.t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatal(err)
	}
	var attrs map[string]any
	if err := json.Unmarshal(src, &attrs); err != nil {
		p.t.Fatal(err)
	}
	return attrs
}

// editObject changes an object behind Terrane's back.
func (p *project) editObject(path string, change func(map[string]any)) {
	p.t.Helper()
	attrs := p.readObject(path)
	change(attrs)
	src, _ := json.Marshal(attrs)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) workspace(name string) reconcile.Workspace {
	return reconcile.Workspace{Name: name, Dir: p.dir, Project: workdir.DefaultProject, Workspace: p.name}
}

// instanceRecord reads one instance record.
func (p *project) instanceRecord(service *resourceservice.Service, addr string) *pbresource.Resource {
	t := p.t
	t.Helper()
	res, err := service.Read(context.Background(), store.StrongConsistency, records.InstanceID(workdir.DefaultProject, p.name, addr))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// condition returns the instance's true condition, checking the status's
// shape on the way.
func condition(t *testing.T, res *pbresource.Resource) *pbresource.Condition {
	t.Helper()
	st := res.GetStatus()[reconcile.StatusKey]
	if st == nil {
		t.Fatalf("%s has no %s status", res.GetId().GetName(), reconcile.StatusKey)
	}
	if st.GetObservedGeneration() != res.GetGeneration() {
		t.Errorf("%s: observed_generation %s, generation %s", res.GetId().GetName(), st.GetObservedGeneration(), res.GetGeneration())
	}
	if st.GetUpdatedAt() == nil {
		t.Errorf("%s: status without updated_at", res.GetId().GetName())
	}
	if len(st.GetConditions()) != len(reconcile.InstanceConditionTypes) {
		t.Errorf("%s: %d conditions, want one of each of %v", res.GetId().GetName(), len(st.GetConditions()), reconcile.InstanceConditionTypes)
	}
	c := reconcile.TrueCondition(st)
	if c == nil {
		t.Fatalf("%s: no condition is true: %v", res.GetId().GetName(), st)
	}
	if c.GetReason() == "" || c.GetMessage() == "" {
		t.Errorf("%s: condition %s without reason or message", res.GetId().GetName(), c.GetType())
	}
	return c
}
