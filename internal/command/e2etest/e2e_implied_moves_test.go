package e2etest

import (
	"regexp"
	"slices"
	"testing"

	"github.com/terrane/terrane/internal/testing/clitest"
)

const impliedMovesBefore = lifecycleHeader + `
resource "tpf_thing" "gains_count" {
  name = "gains"
}

resource "tpf_thing" "loses_count" {
  count = 1
  name  = "loses"
}

resource "tpf_thing" "explicit" {
  count = 2
  name  = "explicit"
}
`

const impliedMovesAfter = lifecycleHeader + `
resource "tpf_thing" "gains_count" {
  count = 1
  name  = "gains"
}

resource "tpf_thing" "loses_count" {
  name = "loses"
}

resource "tpf_thing" "explicit" {
  name = "explicit"
}

moved {
  from = tpf_thing.explicit[1]
  to   = tpf_thing.explicit
}
`

var movedPattern = `(?m)^\s*# (\S+) (has moved to \S+|will be destroyed|will be created|must be replaced)`

// TestE2EImpliedMovesWhenCountChanges checks, against terraform 1.11
// (OpenTofu makes the same implied moves), that adding count to a resource
// keeps its object as instance [0] and removing count keeps instance [0]'s
// object, without a moved block; and that a moved block naming the
// resource replaces the implied move. Without the implied moves the
// objects were destroyed and created again.
func TestE2EImpliedMovesWhenCountChanges(t *testing.T) {
	t.Parallel()
	p := newInitialisedProject(t, map[string]string{"main.tf": impliedMovesBefore})
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	p.writeFiles(map[string]string{"main.tf": impliedMovesAfter})
	res := p.result("plan", "-no-color")
	p.expectCode("plan", res, 0)
	want := []string{
		"tpf_thing.explicit[0] will be destroyed",
		"tpf_thing.explicit[1] has moved to tpf_thing.explicit",
		"tpf_thing.gains_count has moved to tpf_thing.gains_count[0]",
		"tpf_thing.loses_count[0] has moved to tpf_thing.loses_count",
	}
	if got := matchedLines(movedPattern, res.stdout); !slices.Equal(got, want) {
		t.Fatalf("planned %q, want %q\n%s", got, want, res.stdout)
	}
	p.expectCode("apply", p.result("apply", "-no-color", "-auto-approve"), 0)
	list := p.result("state", "list")
	if got, want := matchedLines(`(?m)^(tpf_thing\S+)$`, list.stdout), []string{"tpf_thing.explicit", "tpf_thing.gains_count[0]", "tpf_thing.loses_count"}; !slices.Equal(got, want) {
		t.Errorf("state list %q, want %q", got, want)
	}
	clitest.AssertContains(t, "plan after apply", p.result("plan", "-no-color").stdout, "No changes.")
}

// matchedLines lists, sorted, the first submatches (or, with two, the
// first two joined by a space) of pattern in text.
func matchedLines(pattern, text string) []string {
	var out []string
	for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(text, -1) {
		line := m[1]
		if len(m) > 2 {
			line += " " + m[2]
		}
		out = append(out, line)
	}
	slices.Sort(out)
	return out
}
