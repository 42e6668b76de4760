// Package reconcilebench measures the serve reconciler against real
// provider processes: one refresh cycle of a workspace against `terrane
// plan -refresh-only` of the same workspace, the status writes a cycle
// makes per second, and whether memory, goroutines or provider processes
// grow over a thousand cycles.
package reconcilebench
