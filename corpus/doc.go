// Package corpus is the differential corpus: small configurations, each run
// through OpenTofu (the oracle) and through Terrane side by side, with
// exit codes, output text, plan and state JSON compared after normalising
// only what is random or version-specific by nature.
//
// The package holds no code of its own; its test (corpus_test.go) is the
// runner and cases/ holds the cases, one txtar file each: the script in
// the comment section, the files of the working directory after it.
// README.md describes the script language and lists the differences kept on
// purpose, with their reasons.
package corpus
