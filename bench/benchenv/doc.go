// Package benchenv is what the benchmarks that drive the terrane binary as
// a user would share: one binary and one test-provider mirror per run, a
// CLI configuration that installs providers only from that mirror (one that
// Terraform reads as well), and running a command while measuring its wall
// time, CPU time and peak memory.
package benchenv
