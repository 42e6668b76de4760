package command

import (
	"context"
	"flag"
	"fmt"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/states/stateedit"
)

// runStateReplaceProvider is `terrane state replace-provider [-auto-approve]
// FROM TO`: every instance managed by provider FROM is handed to TO, as
// when a provider moves to another namespace or registry.
func runStateReplaceProvider(streams Streams, args []string) int {
	var autoApprove *bool
	c, fs := parseStateFlags(streams, "state replace-provider", args, func(fs *flag.FlagSet) {
		autoApprove = fs.Bool("auto-approve", false, "Skip the interactive approval")
	})
	if c == nil {
		return 1
	}
	if fs.NArg() != 2 {
		return c.fail(diags.Errorf("Two provider addresses required",
			"terrane state replace-provider takes the provider to replace and its replacement, such as: terrane state replace-provider hashicorp/aws registry.opentofu.org/hashicorp/aws; got %d arguments.", fs.NArg()))
	}
	var providerAddrs [2]addrs.Provider
	for i, text := range fs.Args() {
		provider, err := addrs.ParseProviderSource(text)
		if err != nil {
			return c.fail(diags.Errorf("Invalid provider address", "%q is not a provider source address: %s. Write it as [HOSTNAME/]NAMESPACE/TYPE.", text, err))
		}
		providerAddrs[i] = provider
	}
	from, to := providerAddrs[0], providerAddrs[1]
	ctx := context.Background()
	snap, d := c.load(ctx)
	defer c.close()
	if d != nil {
		return c.fail(*d)
	}
	replaced, changes := stateedit.PlanReplaceProvider(snap, from, to)
	if len(replaced) == 0 {
		fmt.Fprintf(streams.Stdout, "No matching resources found: no instance of workspace %q uses %s.\n", c.workspace, from)
		return 0
	}
	fmt.Fprintf(streams.Stdout, "Terrane will perform the following actions:\n\n  ~ Updating provider:\n    - %s\n    + %s\n\nChanging %d resource instance(s):\n\n", from, to, len(replaced))
	for _, addr := range replaced {
		fmt.Fprintf(streams.Stdout, "  %s\n", addr)
	}
	fmt.Fprintln(streams.Stdout)
	if !*autoApprove && !confirm(streams, "Do you want to make these changes?", "Terrane will change the provider of the instances above.") {
		return c.fail(diags.Errorf("Provider replacement cancelled", "Nothing was changed."))
	}
	if d := c.commit(ctx, changes); d != nil {
		return c.fail(*d)
	}
	fmt.Fprintf(streams.Stdout, "Successfully replaced provider for %d resource instance(s).\n", len(replaced))
	return 0
}
