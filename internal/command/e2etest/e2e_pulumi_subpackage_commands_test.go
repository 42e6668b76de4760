package e2etest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/providertest"
	"github.com/terrane/terrane/internal/workdir"
)

// TestE2EPulumiSubpackageInEveryCommand: validate, providers schema -json
// and providers lock treat a parameterized sub-package as the provider of
// its own types, made from its base package.
func TestE2EPulumiSubpackageInEveryCommand(t *testing.T) {
	t.Parallel()
	p := newPulumiProject(t, pulumiParamsConfigWith(`["widgets"]`))

	out := p.mustRun("validate", "-no-color")
	clitest.AssertContains(t, "validate", out, "Success! The configuration is valid.")

	// validate checks the sub-package's blocks against its own schema.
	p.write(strings.Replace(pulumiParamsConfigWith(`["widgets"]`), `name    = "gadget"`, "name    = \"gadget\"\n  colour  = \"red\"", 1))
	stdout, stderr, code := p.run("validate", "-no-color")
	if code == 0 || !strings.Contains(stderr, `"colour"`) || !strings.Contains(stderr, "widgets_gadget") {
		t.Errorf("validate with an unknown widgets_gadget argument: exit %d\n%s%s\nwant an error naming colour and widgets_gadget", code, stdout, stderr)
	}
	p.write(pulumiParamsConfigWith(`["widgets"]`))

	var schemas struct {
		ProviderSchemas map[string]struct {
			ResourceSchemas map[string]json.RawMessage `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal([]byte(p.mustRun("providers", "schema", "-json")), &schemas); err != nil {
		t.Fatal(err)
	}
	widgets := schemas.ProviderSchemas["registry.opentofu.org/pulumi/widgets"]
	if _, ok := widgets.ResourceSchemas["widgets_gadget"]; !ok {
		names := make([]string, 0, len(schemas.ProviderSchemas))
		for name := range schemas.ProviderSchemas {
			names = append(names, name)
		}
		t.Errorf("providers schema -json: pulumi/widgets has resources %v (providers %v), want widgets_gadget", widgets.ResourceSchemas, names)
	}
	if _, ok := schemas.ProviderSchemas["registry.opentofu.org/pulumi/tpulumi"].ResourceSchemas["tpulumi_thing"]; !ok {
		t.Errorf("providers schema -json lost the base provider's tpulumi_thing")
	}

	// The origin registries cannot be reached here; the test providers'
	// mirror stands in for tpf's, and the Pulumi plugin directory serves
	// the pulumi namespace.
	mirror := "-fs-mirror=" + providertest.Build(t).Dir
	out = p.mustRun("providers", "lock", mirror)
	clitest.AssertContains(t, "providers lock", out, "Success!")
	assertSubpackageLocked(t, p.dir)
	p.mustRun("plan", "-no-color")

	// Without a record, the sub-package cannot be locked: only init makes it.
	if err := os.Remove(workdir.LockFilePath(p.dir)); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = p.run("providers", "lock", mirror)
	if code == 0 || !strings.Contains(stderr, "Sub-package not recorded") || !strings.Contains(stderr, "run terrane init") {
		t.Errorf("providers lock without the sub-package's record: exit %d\n%s\nwant an error saying to run terrane init", code, stderr)
	}
}
