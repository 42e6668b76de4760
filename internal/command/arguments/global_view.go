package arguments

import "strings"

// GlobalView holds the options about how diagnostics and progress look
// that OpenTofu accepts anywhere on any command's line (its
// arguments.ParseView). The zero value is the default.
type GlobalView struct {
	// KeepWarningsApart is -consolidate-warnings=false: every warning is
	// shown, not one per summary with a count of the others.
	KeepWarningsApart bool
	// ConsolidateErrors is -consolidate-errors: errors of one summary are
	// shown once, with a count of the others.
	ConsolidateErrors bool
	// Concise is -concise: no progress lines.
	Concise bool
	// Deprecation is the level of -deprecation=module:LEVEL: "all" (the
	// default, also for an unknown level), "local" (not for modules from
	// remote sources) or "none" (no deprecation warnings from modules).
	Deprecation string
}

// ParseGlobalView takes the global view options out of a command's
// arguments, wherever they are, and returns them with the arguments left.
// Nothing after "--" is looked at.
func ParseGlobalView(args []string) (GlobalView, []string) {
	var view GlobalView
	rest := make([]string, 0, len(args))
	for i, arg := range args {
		if arg == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if level, ok := strings.CutPrefix(arg, "-deprecation=module:"); ok {
			view.Deprecation = deprecationLevel(level)
			continue
		}
		switch arg {
		case "-consolidate-warnings", "-consolidate-warnings=true":
			view.KeepWarningsApart = false
		case "-consolidate-warnings=false":
			view.KeepWarningsApart = true
		case "-consolidate-errors", "-consolidate-errors=true":
			view.ConsolidateErrors = true
		case "-consolidate-errors=false":
			view.ConsolidateErrors = false
		case "-concise":
			view.Concise = true
		default:
			rest = append(rest, arg)
		}
	}
	return view, rest
}

// deprecationLevel reads a -deprecation=module: level as OpenTofu does: an
// unknown level means all.
func deprecationLevel(level string) string {
	switch level {
	case "local", "none":
		return level
	}
	return "all"
}
