package refactoring

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
)

// Removal is one removed block: the objects at From are no longer managed
// by this configuration, and Destroy says whether to delete them or only
// stop tracking them.
type Removal struct {
	DeclModule addrs.Module
	From       Endpoint
	Destroy    bool
	DeclRange  hcl.Range
}

// FindRemovals collects the removed blocks of every module in cfg. A block
// whose address the configuration still declares is an error: the object
// cannot be both managed and removed.
func FindRemovals(cfg *config.Config) ([]Removal, hcl.Diagnostics) {
	var out []Removal
	var diags hcl.Diagnostics
	cfg.DeepEach(func(c *config.Config) {
		for _, r := range c.Module.Removed {
			from, ds := parseEndpoint(r.From)
			if diags = append(diags, ds...); ds.HasErrors() {
				continue
			}
			removal := Removal{DeclModule: c.Path, From: from, Destroy: r.Destroy, DeclRange: r.DeclRange}
			if _, declared := stillDeclared(c, from); declared {
				kind := "resource"
				if from.isModule() {
					kind = "module"
				}
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Removed %s block still exists", kind),
					Detail: fmt.Sprintf("This statement declares a removal of the %s %s, but this %s block still exists in the configuration. Please remove the %s block.",
						kind, removal.absString(), kind, kind),
					Subject: r.DeclRange.Ptr()})
				continue
			}
			out = append(out, removal)
		}
	})
	return out, diags
}

func (r Removal) absString() string {
	return Statement{DeclModule: r.DeclModule}.absString(r.From)
}

// Covers reports whether the removed block applies to the instance at addr.
func (r Removal) Covers(addr addrs.AbsResourceInstance) bool {
	probe := Statement{DeclModule: r.DeclModule, From: r.From, To: r.From}
	_, ok := destination(probe, addr)
	return ok
}
