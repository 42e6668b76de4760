package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// repetitionArgs are where a resource or module block sets count, for_each
// and its lifecycle's enabled: at most one may be set.
type repetitionArgs struct {
	count, enabled, forEach *hcl.Attribute
}

// findRepetitionArgs finds them among a block's arguments and the
// arguments of its lifecycle blocks.
func findRepetitionArgs(attrs hcl.Attributes, blocks hcl.Blocks) repetitionArgs {
	args := repetitionArgs{count: attrs["count"], forEach: attrs["for_each"]}
	for _, block := range blocks {
		if block.Type != "lifecycle" {
			continue
		}
		content, _, _ := block.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}})
		if attr := content.Attributes["enabled"]; attr != nil {
			args.enabled = attr
		}
	}
	return args
}

// conflict is OpenTofu's error for a block that sets more than one of
// them, at the range from the first argument's name to the last's; what
// says how it words the instances ("may be used to be explicit about the
// number of resources").
func (a repetitionArgs) conflict(what string) *hcl.Diagnostic {
	type named struct {
		name string
		rng  hcl.Range
	}
	var set []named
	for _, arg := range []struct {
		name string
		attr *hcl.Attribute
	}{{`"count"`, a.count}, {`"enabled"`, a.enabled}, {`"for_each"`, a.forEach}} {
		if arg.attr != nil {
			set = append(set, named{arg.name, arg.attr.NameRange})
		}
	}
	if len(set) < 2 {
		return nil
	}
	names := make([]string, len(set))
	for i, n := range set {
		names[i] = n.name
	}
	list := strings.Join(names, " and ")
	if len(names) > 2 {
		names[len(names)-1] = "and " + names[len(names)-1]
		list = strings.Join(names, ", ")
	}
	sort.SliceStable(set, func(i, j int) bool { return set[i].rng.Start.Byte < set[j].rng.Start.Byte })
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid combination of %s", list),
		Detail:   fmt.Sprintf("The %s meta-arguments are mutually-exclusive. Only one %s to be created.", list, what),
		Subject:  hcl.RangeBetween(set[0].rng, set[len(set)-1].rng).Ptr(),
	}
}
