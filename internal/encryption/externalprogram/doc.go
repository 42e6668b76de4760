// Package externalprogram runs the programs of the external key provider
// and the external method with OpenTofu's protocol: the program first
// writes a one-line JSON header naming the protocol and its version, reads
// one JSON document on its standard input, writes one JSON document on its
// standard output and exits 0; whatever it writes on standard error is
// shown when it fails.
package externalprogram
