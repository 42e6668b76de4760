// Package scale measures Terrane on generated configurations of 1,000 to
// 100,000 resource instances and sets each figure beside its floor: the
// same provider calls made directly against the same provider processes,
// with no engine around them.
//
// The runner drives the real terrane binary as a child process, so the
// figures are what a user's run costs: wall time, CPU time, and the peak
// resident memory of Terrane and of the provider processes separately
// (sampled from /proc, with the child's wait4 rusage as a cross-check).
//
//	go test -run '^$' -bench . -benchtime 1x -timeout 2h ./bench/scale
//
// TERRANE_SCALE_SIZES (comma-separated, default 1000) chooses the sizes and
// TERRANE_SCALE_SHAPES (default all: independent, fanout, modules) the
// configurations, TERRANE_SCALE_PROFILES a directory to keep each run's CPU
// and heap profiles in, and TERRANE_SCALE_BINARY a terrane binary to
// measure instead of one built from this module. TERRANE_SCALE_FLOOR=off
// measures Terrane alone (the floor is one set of RPCs per instance, so it
// grows linearly and a smaller size's floor scales up).
//
// At up to 10,000 instances, a no-change plan run with trace logging after
// the timed plans must send no GetProviderSchema: the schema the earlier
// runs fetched is cached and the provider allows its reuse.
package scale
