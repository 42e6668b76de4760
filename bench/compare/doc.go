// Package compare runs the same configurations through Terrane and through
// the installed terraform binary, side by side in one run, and prints what
// each command cost both: wall time, CPU time (the engine's own and its
// provider processes'), and the peak resident memory of the engine and of
// its largest provider process, with Terraform's figure divided by
// Terrane's.
//
//	go test -run '^$' -bench Compare -benchtime 1x -timeout 3h ./bench/compare
//
// The configuration has the shapes of the public null and random providers'
// most used resources, on the test providers both tools install from one
// filesystem mirror: half the instances are tpsdk_widget (an SDKv2 provider
// on protocol 5, a handful of attributes, like null_resource), half are
// tpf_thing with only a name (a terraform-plugin-framework provider on
// protocol 6 filling in computed attributes, like random_id). For each size
// in TERRANE_COMPARE_SIZES (default 1000,2000,5000) each tool applies it
// from empty, plans with no changes (refresh included; both must say so)
// and destroys it. The two tools take turns command by command, so both
// see the same load on a shared machine; the load average is printed with
// every row.
//
// terraform is found on PATH (TERRANE_COMPARE_TERRAFORM names another
// binary; "off" measures Terrane alone, for sizes Terraform would take
// hours over); without it the benchmark is skipped. TERRANE_BENCH_BINARY
// measures a prebuilt terrane. Each tool uses its default parallelism
// (Terrane 8, Terraform 10), as a user would.
package compare
