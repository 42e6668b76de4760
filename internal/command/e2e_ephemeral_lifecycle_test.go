package command

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
)

// The progress hooks the commands use hear about ephemeral resources.
var (
	_ engine.EphemeralHook = (*ui.ProgressHook)(nil)
	_ engine.EphemeralHook = (*jsonview.Hook)(nil)
)

// TestEphemeralResourceOpenWhileItsProviderWorks configures a provider
// with an ephemeral resource's value: the resource stays open until every
// object that provider works on is done, as a credential it hands out
// must, and only then is closed; terraform orders it the same way.
func TestEphemeralResourceOpenWhileItsProviderWorks(t *testing.T) {
	elsewhere := t.TempDir()
	config := lifecycleHeader + `
ephemeral "tpf_token" "credential" {
  name = "credential"
}

provider "tpf" {
  alias    = "with_credential"
  root_dir = startswith(ephemeral.tpf_token.credential.value, "token-credential-") ? "` + elsewhere + `" : "/nonexistent"
}

resource "tpf_thing" "first" {
  provider = tpf.with_credential
  name     = "first"
}

resource "tpf_thing" "second" {
  provider   = tpf.with_credential
  name       = "second"
  depends_on = [tpf_thing.first]
}
`
	closedLast := func(who, output string) {
		t.Helper()
		created := strings.Index(output, "tpf_thing.second: Creation complete")
		closing := strings.LastIndex(output, "ephemeral.tpf_token.credential: Closing...")
		if created < 0 || closing < created {
			t.Errorf("%s closed the credential before the provider using it was done:\n%s", who, output)
		}
	}
	p := newE2EProject(t, config)
	closedLast("terrane", p.mustRun("apply", "-auto-approve", "-no-color"))
	if matches, _ := filepath.Glob(filepath.Join(elsewhere, "tpf_thing", "*.json")); len(matches) != 2 {
		t.Errorf("the provider configured from the ephemeral value made %d objects in its root", len(matches))
	}
	if leases := p.objects("tpf_token"); len(leases) != 0 {
		t.Errorf("tokens left open: %v", sortedNames(leases))
	}
	terraform, err := exec.LookPath("terraform")
	if err != nil || testing.Short() {
		return
	}
	tf := newTerraformProject(t, terraform, config)
	code, output := tf.run("apply", "-auto-approve")
	if code != 0 {
		t.Fatalf("terraform apply: exit %d\n%s", code, output)
	}
	closedLast("terraform", output)
}
