package command

import (
	"fmt"

	svchost "github.com/hashicorp/terraform-svchost"

	"github.com/terrane/terrane/internal/command/views"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/plugin/cliconfig"
	"github.com/terrane/terrane/internal/ui"
)

// runLogout is `terrane logout HOSTNAME`: the token login stored for the
// host is removed from the credentials file, as `tofu logout` removes it.
// The token stays valid at the host until revoked there.
func runLogout(streams views.Streams, args []string) int {
	return logout(streams, args, cliconfig.Environment{})
}

func logout(streams views.Streams, args []string, env cliconfig.Environment) int {
	fs := newFlagSet("logout", streams)
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		return flagParseError(streams.Stderr, err, ui.ColorEnabled(*noColor))
	}
	view := views.NewLogin(streams, ui.ColorEnabled(*noColor))
	fail := func(ds ...diags.Diagnostic) int {
		view.Failure(ds)
		return 1
	}
	if fs.NArg() != 1 {
		return fail(diags.Errorf("Host required", "The logout command expects exactly one argument: the host to log out of."))
	}
	hostname, err := svchost.ForComparison(fs.Arg(0))
	if err != nil {
		return fail(diags.Errorf("Invalid hostname", "The given hostname %q is not valid: %s.", fs.Arg(0), err))
	}
	display := hostname.ForDisplay()
	cfg, ds := cliconfig.Load(env)
	if ds.HasErrors() {
		return fail(ds...)
	}
	filename := cliconfig.CredentialsFile(env)
	creds, stored := cfg.Credentials[hostname]
	switch {
	case stored && !creds.InCredentialsFile:
		return fail(diags.Errorf(fmt.Sprintf("Credentials for %s are manually configured", display),
			"The \"terrane logout\" command cannot log out because credentials for this host are manually configured in a CLI configuration file.\n\nTo log out, revoke the existing credentials and remove that block from the CLI configuration."))
	case !stored:
		view.NoCredentials(display)
		return 0
	}
	view.Removing(display, filename)
	if err := cliconfig.ForgetCredentials(filename, hostname); err != nil {
		return fail(diags.Errorf("Failed to remove API token", "Unable to remove stored API token: %s", err))
	}
	view.LoggedOut(display)
	return 0
}
