package command

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
)

// initView prints what init and get report, in OpenTofu's words and
// layout: for people, headings in bold, progress lines, the lock file
// notes and the closing success text in green; with -json, one message
// each; with -json-into, both.
type initView struct {
	out, errOut io.Writer
	color       bool
	// human is false under -json, when only the JSON messages are written.
	human bool
	// json receives the messages as JSON: stdout under -json, the
	// -json-into file beside the human output.
	json []*jsonview.View
	// global are the view options given anywhere among the arguments.
	global arguments.GlobalView
	output arguments.OutputView
}

const (
	sgrReset = "\x1b[0m"
	sgrBold  = "\x1b[1m"
	sgrGreen = "\x1b[32m"
)

// style wraps text in an SGR code when colour is on.
func (v *initView) style(code, text string) string {
	if !v.color {
		return text
	}
	return sgrReset + code + text + sgrReset
}

func (v *initView) message(level, text string) {
	for _, j := range v.json {
		j.Message(level, text)
	}
}

// heading prints a section heading, after a blank line unless the
// section follows on directly.
func (v *initView) heading(text string, blankBefore bool) {
	if v.human {
		if blankBefore {
			fmt.Fprintln(v.out)
		}
		fmt.Fprintln(v.out, v.style(sgrBold, text))
	}
	v.message(jsonview.LevelInfo, text)
}

// progress prints one "- ..." line of the work done.
func (v *initView) progress(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	if v.human {
		fmt.Fprintln(v.out, "- "+text)
	}
	v.message(jsonview.LevelInfo, text)
}

// line prints a line of its own; as a JSON message its line breaks are
// spaces.
func (v *initView) line(text string) {
	if v.human {
		fmt.Fprintln(v.out, text)
	}
	v.message(jsonview.LevelInfo, strings.Join(strings.Fields(text), " "))
}

// moduleInstalled reports a module installed anew.
func (v *initView) moduleInstalled(ev modules.Event) {
	if ev.Source != "" {
		download := fmt.Sprintf("Downloading %s for %s...", ev.Source, ev.Key)
		if ev.Version != "" {
			download = fmt.Sprintf("Downloading %s %s for %s...", ev.Source, ev.Version, ev.Key)
		}
		if v.human {
			fmt.Fprintln(v.out, download)
		}
		v.message(jsonview.LevelInfo, download)
	}
	if v.human {
		fmt.Fprintf(v.out, "- %s in %s\n", ev.Key, ev.Dir)
	}
	v.message(jsonview.LevelInfo, fmt.Sprintf("installing %s in %s", ev.Key, ev.Dir))
}

// backendSet says a newly configured backend is in use.
func (v *initView) backendSet(backendType string) {
	if v.human {
		text := fmt.Sprintf("\nSuccessfully configured the backend %q! Terrane will automatically\n"+
			"use this backend unless the backend configuration changes.", backendType)
		if v.color {
			text = sgrReset + sgrGreen + text + sgrReset
		}
		fmt.Fprintln(v.out, text)
	}
	v.message(jsonview.LevelInfo, fmt.Sprintf("Successfully configured the backend %q! Terrane will automatically use this backend unless the backend configuration changes", backendType))
}

// newline prints the blank line that sets the closing text apart.
func (v *initView) newline() {
	if v.human {
		fmt.Fprintln(v.out)
	}
}

func (v *initView) emptyDirectory() {
	if v.human {
		fmt.Fprintf(v.out, "%s\n\n"+
			"The directory has no Terrane configuration files. You may begin working\n"+
			"with Terrane immediately by creating Terrane configuration files.\n",
			v.style(sgrBold, "Terrane initialized in an empty directory!"))
	}
	v.message(jsonview.LevelInfo, "Terrane initialized in an empty directory! The directory has no Terrane configuration files. "+
		"You may begin working with Terrane immediately by creating Terrane configuration files.")
}

// configError introduces the diagnostics of a configuration init cannot
// work from.
func (v *initView) configError() {
	if v.human {
		fmt.Fprint(v.errOut, "\nTerrane encountered problems during initialization, including problems\n"+
			"with the configuration, described below.\n\n"+
			"The Terrane configuration must be valid before initialization so that\n"+
			"Terrane can determine which modules and providers need to be installed.\n")
	}
	v.message(jsonview.LevelError, "Terrane encountered problems during initialization, including problems with the configuration, described below. "+
		"The Terrane configuration must be valid before initialization so that Terrane can determine which modules and providers need to be installed.")
}

// failure reports, on stderr, why init stopped when it is no diagnostic.
func (v *initView) failure(text string) {
	if v.human {
		fmt.Fprintln(v.errOut, text)
	}
	v.message(jsonview.LevelError, text)
}

func (v *initView) lockFileCreated(name string) {
	if v.human {
		fmt.Fprintf(v.out, "\nTerrane has created a lock file %s to record the provider\n"+
			"selections it made above. Include this file in your version control repository\n"+
			"so that Terrane can guarantee to make the same selections by default when\n"+
			"you run \"terrane init\" in the future.\n", v.style(sgrBold, name))
	}
	v.message(jsonview.LevelInfo, "Terrane has created a lock file "+name+" to record the provider selections it made above. "+
		"Include this file in your version control repository so that Terrane can guarantee to make the same selections by default when "+
		"you run \"terrane init\" in the future.")
}

func (v *initView) lockFileChanged(name string) {
	if v.human {
		fmt.Fprintf(v.out, "\nTerrane has made some changes to the provider dependency selections recorded\n"+
			"in the %s file. Review those changes and commit them to your\n"+
			"version control system if they represent changes you intended to make.\n", name)
	}
	v.message(jsonview.LevelInfo, "Terrane has made some changes to the provider dependency selections recorded in the "+name+" file. "+
		"Review those changes and commit them to your version control system if they represent changes you intended to make.")
}

func (v *initView) success() {
	const next = "You may now begin working with Terrane. Try running \"terrane plan\" to see\n" +
		"any changes that are required for your infrastructure. All Terrane commands\n" +
		"should now work.\n\n" +
		"If you ever set or change modules or backend configuration for Terrane,\n" +
		"rerun this command to reinitialize your working directory. If you forget, other\n" +
		"commands will detect it and remind you to do so if necessary."
	// In automation (TF_IN_AUTOMATION set) the next steps for a person at
	// a shell are left out, as OpenTofu leaves them out.
	automation := os.Getenv("TF_IN_AUTOMATION") != ""
	if v.human {
		fmt.Fprintln(v.out, v.style(sgrBold+sgrGreen, "Terrane has been successfully initialized!"))
		text := "\n" + next
		if v.color {
			text = sgrReset + sgrGreen + text + sgrReset
		}
		if !automation {
			fmt.Fprintln(v.out, text)
		}
	}
	v.message(jsonview.LevelInfo, "Terrane has been successfully initialized!")
	if !automation {
		v.message(jsonview.LevelInfo, strings.Join(strings.Fields(next), " "))
	}
}

// diagnostics prints warnings to stdout and errors to stderr, in
// OpenTofu's order, each followed by a blank line as init's are. Both are
// wrapped to the error stream's width, as OpenTofu does. As JSON, each is
// one message.
func (v *initView) diagnostics(ds diags.Diagnostics, sources ui.Sources) {
	for _, j := range v.json {
		j.Diagnostics(ds, sources)
	}
	if !v.human || len(ds) == 0 {
		return
	}
	ui.DiagnosticView{
		Color:               v.color,
		ConsolidateWarnings: !v.global.KeepWarningsApart,
		ConsolidateErrors:   v.global.ConsolidateErrors,
		CompactWarnings:     v.output.CompactWarnings,
		// As OpenTofu's init and get, which keep the older commands' blank
		// line after each diagnostic (View.DiagsWithNewline).
		NewlineAfter: true,
	}.Write(v.out, v.errOut, ds, sources)
}
