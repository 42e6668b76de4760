// Package arguments turns every command's command line into a plain struct
// of what it said, one ParseX(args) (*X, diags.Diagnostics) per command,
// and gathers root module variable values from every place Terraform reads
// them, in Terraform's order of precedence, as diagnostics-reporting
// values.
//
// A parser reports the problems the command answers as a wrong command
// line, in OpenTofu's words: flags the flag package refuses, options that
// exclude one another, and positional arguments of the wrong number when
// the command shows that error as it shows a flag error. A command that
// says something else about its positional arguments gets them as they
// were given (Args) and checks them itself. The command shows the
// diagnostics, with its help where OpenTofu's does.
package arguments
