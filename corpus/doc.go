// Package corpus is the differential corpus: small configurations, each run
// through OpenTofu (the oracle) and through Terrane side by side, with
// exit codes, output text, plan and state JSON compared after normalising
// only what is random or version-specific by nature.
//
// The package holds no code of its own; its tests are the runner
// (corpus_test.go; side_test.go runs a case on one side) and cases/ holds
// the cases, one txtar file each: the script in the comment section, the
// files of the working directory after it. oracle/ holds what OpenTofu
// printed for each case, fingerprinted, so that a run need not start
// OpenTofu again for a case nothing about has changed
// (recording_test.go). README.md describes the script language and the
// recordings and lists the differences kept on purpose, with their
// reasons.
package corpus
