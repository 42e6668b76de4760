// Package storebench measures the store backends that keep state on disk or
// in a cluster — SQLite and etcd — with the operations a run performs:
// single and batched writes, reads, listing 100k records, and one write
// fanned out to 100 watchers. Each benchmark reports, besides time, the peak
// resident memory of the benchmark process (and of the etcd server).
//
// Run: go test -run '^$' -bench . -benchtime 2s ./bench/storebench
package storebench
