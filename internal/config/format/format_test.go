package format

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestGoldenFiles reformats each testdata/*.in.tf and compares the result
// byte for byte with the matching .out.tf.
func TestGoldenFiles(t *testing.T) {
	inputs, err := filepath.Glob("testdata/*.in.tf")
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, input := range inputs {
		t.Run(filepath.Base(input), func(t *testing.T) {
			src, err := os.ReadFile(input)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(input, ".in.tf") + ".out.tf")
			if err != nil {
				t.Fatal(err)
			}
			got := Source(src, input)
			if string(got) != string(want) {
				t.Fatalf("formatted output differs.\n--- got ---\n%s\n--- want ---\n%s", got, want)
			}
			if again := Source(got, input); string(again) != string(got) {
				t.Fatalf("formatting is not idempotent:\n%s", again)
			}
			if _, diags := hclsyntax.ParseConfig(got, input, hcl.InitialPos); diags.HasErrors() {
				t.Fatalf("formatted output does not parse: %s", diags.Error())
			}
		})
	}
}

func TestCanonicalFileUnchanged(t *testing.T) {
	src, err := os.ReadFile("testdata/canonical.tf")
	if err != nil {
		t.Fatal(err)
	}
	if got := Source(src, "canonical.tf"); string(got) != string(src) {
		t.Fatalf("canonical file was changed:\n%s", got)
	}
}

func TestInterpolationUnwrapping(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a = "${var.x}"`, `a = var.x`},
		{`a = "${var.x}-suffix"`, `a = "${var.x}-suffix"`},
		{`a = "${var.x}${var.y}"`, `a = "${var.x}${var.y}"`},
		{`a = "${f("${var.x}")}"`, `a = f("${var.x}")`},
		{`a = "plain"`, `a = "plain"`},
		{`a = "%{if true}x%{endif}"`, `a = "%{if true}x%{endif}"`},
	}
	for _, test := range tests {
		got := strings.TrimSpace(string(Source([]byte(test.in+"\n"), "t.tf")))
		if got != test.want {
			t.Errorf("%s formatted as %s, want %s", test.in, got, test.want)
		}
	}
}
