package command

import (
	"strings"
	"testing"
)

// TestE2EModuleSourceChangedSinceInit checks that a module whose source
// changed since init is refused, as in terraform 1.11 and OpenTofu,
// instead of the old module being used.
func TestE2EModuleSourceChangedSinceInit(t *testing.T) {
	files := map[string]string{
		"main.tf":   "module \"m\" {\n  source = \"./a\"\n}\n\noutput \"o\" {\n  value = module.m.out\n}\n",
		"a/main.tf": `output "out" { value = "A" }`,
		"b/main.tf": `output "out" { value = "B" }`,
	}
	o := newOracleProject(t, files)
	files["main.tf"] = strings.Replace(files["main.tf"], "./a", "./b", 1)
	o.rewrite(files)
	res := o.agree("plan", "-no-color")
	o.expectCode("plan", res, 1)
	assertContains(t, "plan", res.stderr, "Module source has changed")
}
