package command

import (
	"context"

	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/ui"
)

// runGet is `terrane get [-update]`: it installs the modules the
// configuration calls, as init does but without touching providers or the
// state, like `tofu get`. Installed modules are kept unless -update asks
// for the newest versions their constraints allow.
func runGet(streams Streams, args []string) int {
	fs := newFlagSet("get", streams)
	update := fs.Bool("update", false, "Check installed modules for newer versions and install them")
	noColor := fs.Bool("no-color", false, "Disable colour in the output")
	if err := fs.Parse(args); err != nil {
		return 1
	}
	color := ui.ColorEnabled(*noColor)
	if refuseDirectoryArgument(streams, fs.Args(), "get", "installs the modules of the configuration in the working directory", color) {
		return 1
	}
	parser := config.NewParser()
	installer := &modules.Installer{Parser: parser, Upgrade: *update, Events: func(ev modules.Event) {
		writeModuleEvent(streams.Stdout, ev)
	}}
	_, ds := installer.Install(context.Background(), ".")
	if ds.HasErrors() {
		ui.WriteDiagnostics(streams.Stderr, ds, ui.Sources(parser.Files()), color)
		return 1
	}
	ui.WriteDiagnostics(streams.Stdout, ds, ui.Sources(parser.Files()), color)
	return 0
}
