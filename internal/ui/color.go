package ui

// ColorEnabled reports whether human output should carry ANSI colour codes:
// not when the user passed -no-color (noColorFlag). The NO_COLOR
// environment variable changes nothing, as in OpenTofu.
func ColorEnabled(noColorFlag bool) bool {
	return !noColorFlag
}

// ANSI select graphic rendition codes used by the plan and progress
// renderers. Each styled run ends with a reset, so a cut-off line never
// leaves the terminal coloured.
const (
	ansiReset    = "\x1b[0m"
	ansiBold     = "\x1b[1m"
	ansiRed      = "\x1b[31m"
	ansiGreen    = "\x1b[32m"
	ansiYellow   = "\x1b[33m"
	ansiCyan     = "\x1b[36m"
	ansiDarkGray = "\x1b[90m"
)

// palette styles text, or leaves it alone when colour is off. The zero
// value is colourless.
type palette struct{ enabled bool }

func (p palette) style(code, text string) string {
	if !p.enabled || text == "" {
		return text
	}
	return code + text + ansiReset
}

func (p palette) bold(text string) string     { return p.style(ansiBold, text) }
func (p palette) red(text string) string      { return p.style(ansiRed, text) }
func (p palette) green(text string) string    { return p.style(ansiGreen, text) }
func (p palette) yellow(text string) string   { return p.style(ansiYellow, text) }
func (p palette) cyan(text string) string     { return p.style(ansiCyan, text) }
func (p palette) darkGray(text string) string { return p.style(ansiDarkGray, text) }
func (p palette) boldRed(text string) string  { return p.style(ansiBold+ansiRed, text) }
func (p palette) boldGreen(text string) string {
	return p.style(ansiBold+ansiGreen, text)
}
