package e2etest

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// movedInConfig is the configuration whose state the moving-in tests
// bring over from a state file.
const movedInConfig = lifecycleHeader + `
resource "tpf_thing" "web" {
  name = "web"
}

resource "tpf_thing" "db" {
  name = "db"
}

output "web_id" {
  value = tpf_thing.web.id
}
`

// stateFileProject applies movedInConfig in one project and returns a
// second project, in a fresh working directory over the same cloud, with
// the first one's state as a state v4 document, as Terraform or OpenTofu
// would have left it. Both projects' environments have env.
func stateFileProject(t *testing.T, config string, env ...string) (*e2eProject, string) {
	t.Helper()
	first := newE2EProjectEnv(t, movedInConfig, env...)
	first.mustRun("apply", "-auto-approve")
	state := first.mustRun("state", "pull")
	second := newE2EProjectEnv(t, config, env...)
	second.cloud = first.cloud
	second.write(config)
	return second, state
}

var serialPattern = regexp.MustCompile(`"serial": ?(\d+)`)

// bumpSerial returns a state document with its serial raised by one, as
// another apply by the tool that wrote it would leave it.
func bumpSerial(t *testing.T, state string) string {
	t.Helper()
	match := serialPattern.FindStringSubmatch(state)
	if match == nil {
		t.Fatalf("no serial in\n%s", state)
	}
	serial, _ := strconv.Atoi(match[1])
	return strings.Replace(state, match[0], `"serial":`+strconv.Itoa(serial+1), 1)
}

// TestInitTakesInTerraformState runs in a working directory holding a
// terraform.tfstate and an empty store: plans that could create objects
// refuse to run until init has taken the state in, init asks first (and
// -force-copy takes it without asking), and a state file changed by
// another tool since is refused again.
func TestInitTakesInTerraformState(t *testing.T) {
	t.Parallel()
	p, state := stateFileProject(t, movedInConfig)
	clitest.WriteFile(t, filepath.Join(p.dir, "terraform.tfstate"), state)

	_, errOut, code := p.run("plan", "-no-color")
	if code != 1 {
		t.Fatalf("plan over a state not taken in: exit %d", code)
	}
	clitest.AssertContains(t, "plan over a state not taken in", errOut, "State kept outside Terrane has not been taken in",
		"terraform.tfstate holds the state of 2 resource instance(s)", "tpf_thing.db, tpf_thing.web", "terrane init")
	for _, args := range [][]string{{"apply", "-no-color", "-auto-approve"}, {"import", "-no-color", "tpf_thing.web", "x"}} {
		if _, errOut, _ := p.run(args...); !strings.Contains(errOut, "has not been taken in") {
			t.Errorf("terrane %s over a state not taken in:\n%s", args[0], errOut)
		}
	}
	if got := p.objects("tpf_thing"); len(got) != 2 {
		t.Fatalf("the cloud holds %v after the refusals", sortedNames(got))
	}
	p.mustRun("plan", "-refresh-only", "-no-color")

	_, errOut, _ = p.run("init", "-input=false", "-no-color")
	clitest.AssertContains(t, "init -input=false", errOut, "interactive input is disabled", "-force-copy")
	out, errOut, code := p.runWithInput("no\n", "init", "-no-color")
	if code != 0 {
		t.Fatalf("init answered no: exit %d\n%s", code, errOut)
	}
	clitest.AssertContains(t, "init answered no", out+errOut, "Do you want to copy existing state to Terrane's store?", "terraform.tfstate (workspace \"default\": 2 resource instances, 1 outputs)", "State not taken in")
	if _, _, code := p.run("plan"); code != 1 {
		t.Error("plan ran after init was told not to take the state in")
	}

	out = p.mustRun("init", "-force-copy", "-no-color")
	clitest.AssertContains(t, "init -force-copy", out, `- Took in terraform.tfstate as workspace "default": 2 resource instances, 1 outputs`)
	clitest.AssertContains(t, "plan after taking the state in", p.mustRun("plan", "-no-color"), "No changes.")
	if got := strings.TrimSpace(p.mustRun("output", "-raw", "web_id")); got == "" {
		t.Error("the output was not taken in")
	}
	if out := p.mustRun("init", "-no-color"); strings.Contains(out, "Took in") {
		t.Errorf("init took the same state in twice:\n%s", out)
	}

	// The tool that wrote the file applied again: its state is newer than
	// what was taken in.
	clitest.WriteFile(t, filepath.Join(p.dir, "terraform.tfstate"), bumpSerial(t, state))
	if _, errOut, code := p.run("plan", "-no-color"); code != 1 || !strings.Contains(errOut, "has not been taken in") {
		t.Errorf("plan over a state file changed since it was taken in: exit %d\n%s", code, errOut)
	}
	p.mustRun("state", "push", "terraform.tfstate")
	clitest.AssertContains(t, "plan after state push", p.mustRun("plan", "-no-color"), "No changes.")
}

// TestInitTakesInLocalBackendWorkspaces takes in every workspace a
// backend "local" block's path and workspace_dir hold, into the
// workspaces of the same names.
func TestInitTakesInLocalBackendWorkspaces(t *testing.T) {
	t.Parallel()
	config := movedInConfig + `
terraform {
  backend "local" {
    path          = "states/main.tfstate"
    workspace_dir = "states/workspaces"
  }
}
`
	p, state := stateFileProject(t, config)
	clitest.WriteFile(t, filepath.Join(p.dir, "states", "main.tfstate"), state)
	clitest.WriteFile(t, filepath.Join(p.dir, "states", "workspaces", "staging", "terraform.tfstate"), state)
	clitest.WriteFile(t, filepath.Join(p.dir, "terraform.tfstate"), "") // an emptied file, as OpenTofu leaves one, is no state

	out := p.mustRun("init", "-force-copy", "-no-color")
	clitest.AssertContains(t, "init", out,
		filepath.Join("states", "main.tfstate")+` as workspace "default": 2 resource instances`,
		filepath.Join("states", "workspaces", "staging", "terraform.tfstate")+` as workspace "staging": 2 resource instances`)
	if got := p.mustRun("workspace", "list"); got != "* default\n  staging\n\n" {
		t.Errorf("workspace list:\n%s", got)
	}
	clitest.AssertContains(t, "plan in default", p.mustRun("plan", "-no-color"), "No changes.")
	p.mustRun("workspace", "select", "staging")
	clitest.AssertContains(t, "plan in staging", p.mustRun("plan", "-no-color"), "No changes.")
}

// TestInitTakesInHTTPBackendState reads the state a backend "http" block's
// address serves, with its basic authentication, and takes it in.
func TestInitTakesInHTTPBackendState(t *testing.T) {
	t.Parallel()
	// The state served, set once the first project has one; the server
	// answers before that too (the second project's init reads it).
	var state atomic.Pointer[string]
	state.Store(new(string))
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if user, password, ok := r.BasicAuth(); !ok || user != "ci" || password != "pw" || r.Method != http.MethodGet {
			http.Error(w, "no", http.StatusForbidden)
			return
		}
		_, _ = w.Write([]byte(*state.Load()))
	}))
	t.Cleanup(server.Close)
	config := movedInConfig + `
terraform {
  backend "http" {
    address      = "` + server.URL + `/state"
    lock_address = "` + server.URL + `/lock"
    username     = "ci"
  }
}
`
	p, pulled := stateFileProject(t, config, "TF_HTTP_PASSWORD=pw")
	state.Store(&pulled)
	_, errOut, _ := p.run("plan", "-no-color")
	clitest.AssertContains(t, "plan over the http backend's state", errOut, "has not been taken in", server.URL+"/state")
	out := p.mustRun("init", "-force-copy", "-no-color")
	clitest.AssertContains(t, "init", out, "- Took in "+server.URL+`/state as workspace "default": 2 resource instances`)
	clitest.AssertContains(t, "plan", p.mustRun("plan", "-no-color"), "No changes.")

	p.write(strings.Replace(config, `username     = "ci"`, "username     = \"ci\"\n    client_certificate_pem = \"x\"", 1))
	_, errOut, _ = p.run("init", "-no-color")
	clitest.AssertContains(t, "client certificate", errOut, "Unsupported http backend argument", "client_certificate_pem")
}
