package e2etest

import (
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

// TestE2ESensitiveCount checks OpenTofu's rule that a sensitive value may
// set count (internal/tofu/evalchecks/eval_count.go unmarks it: "sensitive
// values are allowed in count but not for_each, as using it here will not
// disclose the sensitive value"); terraform 1.11 refuses it, so it is not
// the oracle here.
func TestE2ESensitiveCount(t *testing.T) {
	t.Parallel()
	p := newE2EProject(t, lifecycleHeader+`
variable "replicas" {
  type      = number
  default   = 2
  sensitive = true
}

resource "tpf_thing" "n" {
  count = var.replicas
  name  = "n${count.index}"
}
`)
	out := p.mustRun("apply", "-no-color", "-auto-approve")
	clitest.AssertContains(t, "apply", out, "Resources: 2 added")
}
