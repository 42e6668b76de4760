package command

import (
	"fmt"
	"io"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/ui"
)

// initView prints what init and get report, in OpenTofu's words and
// layout: headings in bold, progress lines, the lock file notes and the
// closing success text in green.
type initView struct {
	out, errOut io.Writer
	color       bool
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

// heading prints a section heading, after a blank line unless the
// section follows on directly.
func (v *initView) heading(text string, blankBefore bool) {
	if blankBefore {
		fmt.Fprintln(v.out)
	}
	fmt.Fprintln(v.out, v.style(sgrBold, text))
}

// progress prints one "- ..." line of the work done.
func (v *initView) progress(format string, args ...any) {
	fmt.Fprintf(v.out, "- "+format+"\n", args...)
}

// newline prints the blank line that sets the closing text apart.
func (v *initView) newline() { fmt.Fprintln(v.out) }

func (v *initView) emptyDirectory() {
	fmt.Fprintf(v.out, "%s\n\n"+
		"The directory has no Terrane configuration files. You may begin working\n"+
		"with Terrane immediately by creating Terrane configuration files.\n",
		v.style(sgrBold, "Terrane initialized in an empty directory!"))
}

// configError introduces the diagnostics of a configuration init cannot
// work from.
func (v *initView) configError() {
	fmt.Fprint(v.errOut, "\nTerrane encountered problems during initialization, including problems\n"+
		"with the configuration, described below.\n\n"+
		"The Terrane configuration must be valid before initialization so that\n"+
		"Terrane can determine which modules and providers need to be installed.\n")
}

func (v *initView) lockFileCreated(name string) {
	fmt.Fprintf(v.out, "\nTerrane has created a lock file %s to record the provider\n"+
		"selections it made above. Include this file in your version control repository\n"+
		"so that Terrane can guarantee to make the same selections by default when\n"+
		"you run \"terrane init\" in the future.\n", v.style(sgrBold, name))
}

func (v *initView) lockFileChanged(name string) {
	fmt.Fprintf(v.out, "\nTerrane has made some changes to the provider dependency selections recorded\n"+
		"in the %s file. Review those changes and commit them to your\n"+
		"version control system if they represent changes you intended to make.\n", name)
}

func (v *initView) success() {
	fmt.Fprintln(v.out, v.style(sgrBold+sgrGreen, "Terrane has been successfully initialized!"))
	text := "\nYou may now begin working with Terrane. Try running \"terrane plan\" to see\n" +
		"any changes that are required for your infrastructure. All Terrane commands\n" +
		"should now work.\n\n" +
		"If you ever set or change modules or backend configuration for Terrane,\n" +
		"rerun this command to reinitialize your working directory. If you forget, other\n" +
		"commands will detect it and remind you to do so if necessary."
	if v.color {
		text = sgrReset + sgrGreen + text + sgrReset
	}
	fmt.Fprintln(v.out, text)
}

// diagnostics prints warnings to stdout and errors to stderr, in
// OpenTofu's order, each followed by a blank line as init's are. Both are
// wrapped to the error stream's width, as OpenTofu does.
func (v *initView) diagnostics(ds diags.Diagnostics, sources ui.Sources) {
	width := ui.Width(v.errOut)
	for _, group := range ui.ConsolidateDiagnostics(ui.SortDiagnostics(ds), diags.Warning) {
		d := group.Described()
		w := v.out
		if d.Severity == diags.Error {
			w = v.errOut
		}
		if v.color {
			fmt.Fprintln(w, ui.FormatDiagnostic(d, sources, width))
		} else {
			fmt.Fprintln(w, ui.FormatDiagnosticPlain(d, sources, width))
		}
	}
}
