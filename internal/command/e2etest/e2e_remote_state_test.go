package e2etest

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/sharedstore"
)

// TestE2ERemoteStateThroughServe reads another workspace's outputs with
// terraform_remote_state and backend "terrane" from a terrane serve, with
// the token's tenancy enforced: a token for one workspace cannot read
// another, one for the whole project can, whether it is the working
// directory's own or given in the data source's config with the store.
func TestE2ERemoteStateThroughServe(t *testing.T) {
	t.Parallel()
	served := sharedstore.Serve(t, terraneBinary, servedSQLite(t),
		"app-only@default/app", "project-wide@default/*")

	network := newBareProject(t)
	network.addEnv(served.Env...)
	network.setenv("TF_WORKSPACE", "network")
	network.write("output \"vpc_id\" {\n  value = \"vpc-1\"\n}\n\noutput \"secret\" {\n  value     = \"s3cret\"\n  sensitive = true\n}\n")
	network.mustRun("init", "-no-color")
	network.mustRun("apply", "-auto-approve", "-no-color")

	reader := `
variable "token" {
  type    = string
  default = null
}

data "terraform_remote_state" "network" {
  backend   = "terrane"
  workspace = "network"
  config = var.token == null ? {} : {
    address = "https://` + served.Serve.Address + `"
    ca_file = "` + served.Serve.CAFile + `"
    token   = var.token
  }
}

output "vpc_id" {
  value = data.terraform_remote_state.network.outputs.vpc_id
}
`
	app := newBareProject(t)
	app.addEnv(served.Env...)
	app.setenv("TF_WORKSPACE", "app")
	app.setenv("TERRANE_BACKEND_TOKEN", "app-only")
	app.write(reader)
	app.mustRun("init", "-no-color")
	errOut := app.mustFail("plan", "-no-color")
	clitest.AssertContains(t, "a token for workspace app reading workspace network", errOut,
		"Unable to read remote state", "does not grant access to tenancy default/network")

	out := app.mustRun("apply", "-auto-approve", "-no-color", "-var=token=project-wide")
	clitest.AssertContains(t, "a project-wide token in config", out, `vpc_id = "vpc-1"`)

	app.setenv("TERRANE_BACKEND_TOKEN", "project-wide")
	out = app.mustRun("plan", "-no-color")
	if !strings.Contains(out, "No changes.") {
		t.Errorf("a project-wide token of the working directory:\n%s", out)
	}
}
