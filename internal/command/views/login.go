package views

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/terrane/terrane/internal/diags"
)

// Login shows what `terrane login` and `terrane logout` say, in
// OpenTofu's words: what is about to happen, the questions, where to go
// in a browser, and the outcome.
type Login struct {
	streams Streams
	color   bool
	// stdin reads the answers, buffered across questions.
	stdin *bufio.Reader
}

// NewLogin is the login or logout command's view.
func NewLogin(streams Streams, color bool) *Login {
	return &Login{streams: streams, color: color}
}

// Failure writes why the command stopped, on stderr.
func (v *Login) Failure(ds diags.Diagnostics) {
	WriteLegacyDiagnostics(v.streams.Stderr, ds, nil, v.color)
}

// Warnings writes what the command warns of, on stdout.
func (v *Login) Warnings(ds diags.Diagnostics) {
	WriteLegacyDiagnostics(v.streams.Stdout, ds, nil, v.color)
}

// ask prints a question as OpenTofu's prompts do and reads the answer.
func (v *Login) ask(query, description string) string {
	fmt.Fprintf(v.streams.Stdout, "%s\n", query)
	if description != "" {
		fmt.Fprintf(v.streams.Stdout, "  %s\n\n", description)
	}
	return ReadAnswer(v.streams, &v.stdin, false)
}

// Consent says what login is about to do for the host display, by
// mechanism, and where the token will be stored (filename), and asks to
// go ahead; browser says a web browser will be needed.
func (v *Login) Consent(display, mechanism, filename string, browser bool) bool {
	fmt.Fprintf(v.streams.Stdout, "Terrane will request an API token for %s using %s.\n\n", display, mechanism)
	if browser {
		fmt.Fprint(v.streams.Stdout, "This will work only if you are able to use a web browser on this computer to\ncomplete a login process. If not, you must obtain an API token by another\nmeans and configure it in the CLI configuration manually.\n\n")
	}
	fmt.Fprintf(v.streams.Stdout, "If login is successful, Terrane will store the token in plain text in\nthe following file for use by subsequent commands:\n    %s\n\n", filename)
	return strings.ToLower(v.ask("Do you want to proceed?", "Only 'yes' will be accepted to confirm.")) == "yes"
}

// Browse gives the URL target of the host's what page: opened says a
// browser was opened at it.
func (v *Login) Browse(what, display, target string, opened bool) {
	if opened {
		fmt.Fprintf(v.streams.Stdout, "Terrane must now open a web browser to the %s page for %s.\n\n", what, display)
		fmt.Fprintf(v.streams.Stdout, "If a browser does not open this automatically, open the following URL to proceed:\n    %s\n\n", target)
		return
	}
	fmt.Fprintf(v.streams.Stdout, "Open the following URL to access the %s page for %s:\n    %s\n\n", what, display, target)
}

// Waiting says login waits for the host's callback.
func (v *Login) Waiting() {
	fmt.Fprint(v.streams.Stdout, "Terrane will now wait for the host to signal that login was successful.\n\n")
}

// AskToken asks for the token generated in the browser for display.
func (v *Login) AskToken(display string) string {
	fmt.Fprint(v.streams.Stdout, "Generate a token using your browser, and copy-paste it into this prompt.\n\n")
	return v.ask("Token for "+display, "")
}

// TokenOwner names the user the token belongs to.
func (v *Login) TokenOwner(user string) {
	fmt.Fprintf(v.streams.Stdout, "\nRetrieved token for user %s\n\n", user)
}

// Succeeded closes a successful login to display; cloud says the host is
// a cloud backend's.
func (v *Login) Succeeded(display string, cloud bool) {
	fmt.Fprintln(v.streams.Stdout, "\n---------------------------------------------------------------------------------")
	fmt.Fprintln(v.streams.Stdout)
	if cloud {
		fmt.Fprintf(v.streams.Stdout, "Success! Logged in to the cloud backend (%s)\n\n", display)
		return
	}
	fmt.Fprintf(v.streams.Stdout, "Success! Terrane has obtained and saved an API token.\n\nThe new API token will be used for any future Terrane command that must make\nauthenticated requests to %s.\n\n", display)
}

// NoCredentials says no credentials for display are stored.
func (v *Login) NoCredentials(display string) {
	fmt.Fprintf(v.streams.Stdout, "No credentials for %s are stored.\n\n", display)
}

// Removing says the credentials for display are being removed from
// filename.
func (v *Login) Removing(display, filename string) {
	fmt.Fprintf(v.streams.Stdout, "Removing the stored credentials for %s from the following file:\n    %s\n\n", display, filename)
}

// LoggedOut closes a successful logout from display.
func (v *Login) LoggedOut(display string) {
	fmt.Fprintf(v.streams.Stdout, "Success! Terrane has removed the stored API token for %s.\n\n", display)
}
