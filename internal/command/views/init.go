package views

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/terrane/terrane/internal/command/arguments"
	"github.com/terrane/terrane/internal/depsfile"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/modules"
	"github.com/terrane/terrane/internal/ui"
	"github.com/terrane/terrane/internal/ui/jsonview"
)

// Init shows what init and get report, and providers lock and mirror
// too, in OpenTofu's words and layout: for people, headings in bold,
// progress lines, the lock file notes and the closing success text in
// green; with -json, one message each; with -json-into, both.
type Init struct {
	streams Streams
	color   bool
	// human is false under -json, when only the JSON messages are written.
	human bool
	// json receives the messages as JSON: stdout under -json, the
	// -json-into file beside the human output.
	json   []*jsonview.View
	output arguments.OutputView
}

// NewInit is the view of a command with output's view options, writing
// JSON messages instead of text when asJSON.
func NewInit(streams Streams, output arguments.OutputView, asJSON bool) *Init {
	v := &Init{streams: streams, output: output, human: !asJSON, color: !output.NoColor && !asJSON}
	if asJSON {
		v.json = append(v.json, jsonview.New(streams.Stdout))
	}
	return v
}

// AlsoJSON sends the messages to w as well, as -json-into asks.
func (v *Init) AlsoJSON(w io.Writer) {
	v.json = append(v.json, jsonview.New(w))
}

// Start begins each JSON message stream with the version message.
func (v *Init) Start() {
	for _, j := range v.json {
		j.Version()
	}
}

// Human reports whether the view writes text for people (not -json).
func (v *Init) Human() bool { return v.human }

const (
	sgrReset = "\x1b[0m"
	sgrBold  = "\x1b[1m"
	sgrGreen = "\x1b[32m"
)

// style wraps text in an SGR code when colour is on.
func (v *Init) style(code, text string) string {
	if !v.color {
		return text
	}
	return sgrReset + code + text + sgrReset
}

func (v *Init) message(level, text string) {
	for _, j := range v.json {
		j.Message(level, text)
	}
}

// Heading prints a section heading, after a blank line unless the
// section follows on directly.
func (v *Init) Heading(text string, blankBefore bool) {
	if v.human {
		if blankBefore {
			fmt.Fprintln(v.streams.Stdout)
		}
		fmt.Fprintln(v.streams.Stdout, v.style(sgrBold, text))
	}
	v.message(jsonview.LevelInfo, text)
}

// Progress prints one "- ..." line of the work done.
func (v *Init) Progress(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	if v.human {
		fmt.Fprintln(v.streams.Stdout, "- "+text)
	}
	v.message(jsonview.LevelInfo, text)
}

// Line prints a line of its own; as a JSON message its line breaks are
// spaces.
func (v *Init) Line(text string) {
	if v.human {
		fmt.Fprintln(v.streams.Stdout, text)
	}
	v.message(jsonview.LevelInfo, strings.Join(strings.Fields(text), " "))
}

// Info prints line for people and sends text as a JSON message.
func (v *Init) Info(line, text string) {
	if v.human {
		fmt.Fprintln(v.streams.Stdout, line)
	}
	v.message(jsonview.LevelInfo, text)
}

// ModuleInstalled reports a module installed anew.
func (v *Init) ModuleInstalled(ev modules.Event) {
	if ev.Source != "" {
		download := fmt.Sprintf("Downloading %s for %s...", ev.Source, ev.Key)
		if ev.Version != "" {
			download = fmt.Sprintf("Downloading %s %s for %s...", ev.Source, ev.Version, ev.Key)
		}
		if v.human {
			fmt.Fprintln(v.streams.Stdout, download)
		}
		v.message(jsonview.LevelInfo, download)
	}
	if v.human {
		fmt.Fprintf(v.streams.Stdout, "- %s in %s\n", ev.Key, ev.Dir)
	}
	v.message(jsonview.LevelInfo, fmt.Sprintf("installing %s in %s", ev.Key, ev.Dir))
}

// BackendSet says a newly configured backend is in use.
func (v *Init) BackendSet(backendType string) {
	if v.human {
		text := fmt.Sprintf("\nSuccessfully configured the backend %q! Terrane will automatically\n"+
			"use this backend unless the backend configuration changes.", backendType)
		if v.color {
			text = sgrReset + sgrGreen + text + sgrReset
		}
		fmt.Fprintln(v.streams.Stdout, text)
	}
	v.message(jsonview.LevelInfo, fmt.Sprintf("Successfully configured the backend %q! Terrane will automatically use this backend unless the backend configuration changes", backendType))
}

// Newline prints the blank line that sets the closing text apart.
func (v *Init) Newline() {
	if v.human {
		fmt.Fprintln(v.streams.Stdout)
	}
}

// EmptyDirectory says there was nothing to initialize.
func (v *Init) EmptyDirectory() {
	if v.human {
		fmt.Fprintf(v.streams.Stdout, "%s\n\n"+
			"The directory has no Terrane configuration files. You may begin working\n"+
			"with Terrane immediately by creating Terrane configuration files.\n",
			v.style(sgrBold, "Terrane initialized in an empty directory!"))
	}
	v.message(jsonview.LevelInfo, "Terrane initialized in an empty directory! The directory has no Terrane configuration files. "+
		"You may begin working with Terrane immediately by creating Terrane configuration files.")
}

// ConfigError introduces the diagnostics of a configuration init cannot
// work from.
func (v *Init) ConfigError() {
	if v.human {
		fmt.Fprint(v.streams.Stderr, "\nTerrane encountered problems during initialization, including problems\n"+
			"with the configuration, described below.\n\n"+
			"The Terrane configuration must be valid before initialization so that\n"+
			"Terrane can determine which modules and providers need to be installed.\n")
	}
	v.message(jsonview.LevelError, "Terrane encountered problems during initialization, including problems with the configuration, described below. "+
		"The Terrane configuration must be valid before initialization so that Terrane can determine which modules and providers need to be installed.")
}

// Failure reports, on stderr, why init stopped when it is no diagnostic.
func (v *Init) Failure(text string) {
	if v.human {
		fmt.Fprintln(v.streams.Stderr, text)
	}
	v.message(jsonview.LevelError, text)
}

// LockFileCreated notes the dependency lock file name was written anew.
func (v *Init) LockFileCreated(name string) {
	if v.human {
		fmt.Fprintf(v.streams.Stdout, "\nTerrane has created a lock file %s to record the provider\n"+
			"selections it made above. Include this file in your version control repository\n"+
			"so that Terrane can guarantee to make the same selections by default when\n"+
			"you run \"terrane init\" in the future.\n", v.style(sgrBold, name))
	}
	v.message(jsonview.LevelInfo, "Terrane has created a lock file "+name+" to record the provider selections it made above. "+
		"Include this file in your version control repository so that Terrane can guarantee to make the same selections by default when "+
		"you run \"terrane init\" in the future.")
}

// LockFileChanged notes the dependency lock file name was changed.
func (v *Init) LockFileChanged(name string) {
	if v.human {
		fmt.Fprintf(v.streams.Stdout, "\nTerrane has made some changes to the provider dependency selections recorded\n"+
			"in the %s file. Review those changes and commit them to your\n"+
			"version control system if they represent changes you intended to make.\n", name)
	}
	v.message(jsonview.LevelInfo, "Terrane has made some changes to the provider dependency selections recorded in the "+name+" file. "+
		"Review those changes and commit them to your version control system if they represent changes you intended to make.")
}

// Success closes a successful init.
func (v *Init) Success() {
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
		fmt.Fprintln(v.streams.Stdout, v.style(sgrBold+sgrGreen, "Terrane has been successfully initialized!"))
		text := "\n" + next
		if v.color {
			text = sgrReset + sgrGreen + text + sgrReset
		}
		if !automation {
			fmt.Fprintln(v.streams.Stdout, text)
		}
	}
	v.message(jsonview.LevelInfo, "Terrane has been successfully initialized!")
	if !automation {
		v.message(jsonview.LevelInfo, strings.Join(strings.Fields(next), " "))
	}
}

// LockSucceeded closes a successful providers lock, as OpenTofu's view
// does; changed says whether the lock file was changed.
func (v *Init) LockSucceeded(changed bool) {
	if !changed {
		if v.human {
			fmt.Fprintln(v.streams.Stdout, "\n"+v.style(sgrBold+sgrGreen, "Success!")+" "+v.style(sgrBold, "Terrane has validated the lock file and found no need for changes."))
		}
		v.message(jsonview.LevelInfo, "Success! Terrane has validated the lock file and found no need for changes.")
		return
	}
	if v.human {
		fmt.Fprintln(v.streams.Stdout, "\n"+v.style(sgrBold+sgrGreen, "Success!")+" "+v.style(sgrBold, "Terrane has updated the lock file."))
		fmt.Fprintf(v.streams.Stdout, "\nReview the changes in %s and then commit to your\nversion control system to retain the new checksums.\n\n", depsfile.FileName)
	}
	v.message(jsonview.LevelInfo, "Success! Terrane has updated the lock file. Review the changes in "+depsfile.FileName+" and then commit to your version control system to retain the new checksums")
}

// Diagnostics prints warnings to stdout and errors to stderr, in
// OpenTofu's order, each followed by a blank line as init's are. Both are
// wrapped to the error stream's width, as OpenTofu does. As JSON, each is
// one message.
func (v *Init) Diagnostics(ds diags.Diagnostics, sources ui.Sources) {
	for _, j := range v.json {
		j.Diagnostics(ds, sources)
	}
	if !v.human || len(ds) == 0 {
		return
	}
	ui.DiagnosticView{
		Color:               v.color,
		ConsolidateWarnings: !v.streams.View.KeepWarningsApart,
		ConsolidateErrors:   v.streams.View.ConsolidateErrors,
		CompactWarnings:     v.output.CompactWarnings,
		// As OpenTofu's init and get, which keep the older commands' blank
		// line after each diagnostic (View.DiagsWithNewline).
		NewlineAfter: true,
	}.Write(v.streams.Stdout, v.streams.Stderr, ds, sources)
}
