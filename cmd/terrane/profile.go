package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// Environment variables naming files to write Go profiles of one run into,
// for finding where a slow or large run spends its time and memory:
// TERRANE_CPUPROFILE gets a CPU profile of the whole command,
// TERRANE_MEMPROFILE a heap profile (allocations and what was still in use)
// taken when the command finishes, and TERRANE_MEMPROFILE_PEAK a heap
// profile of the moment the live heap was largest. The exit-time profile
// comes after the walk's data is garbage; the peak one shows what a run
// holds while it holds the most.
const (
	envCPUProfile     = "TERRANE_CPUPROFILE"
	envMemProfile     = "TERRANE_MEMPROFILE"
	envPeakMemProfile = "TERRANE_MEMPROFILE_PEAK"
)

// startProfiles starts the profiles the environment asks for and returns
// the function that finishes and writes them. Profiling problems are
// reported on stderr and never change the command's outcome.
func startProfiles(stderr io.Writer) (stop func()) {
	var cpuFile *os.File
	if path := os.Getenv(envCPUProfile); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
			cpuFile = f
		}
		if err != nil {
			fmt.Fprintf(stderr, "Warning: no CPU profile: %s=%s: %v\n", envCPUProfile, path, err)
		}
	}
	if os.Getenv(envMemProfile) != "" || os.Getenv(envPeakMemProfile) != "" {
		// One sample per 512 KiB (the default) leaves a run's many small
		// per-instance objects to chance; 16 KiB sees them.
		runtime.MemProfileRate = 16 << 10
	}
	stopPeak := func() {}
	if path := os.Getenv(envPeakMemProfile); path != "" {
		stopPeak = watchPeakHeap(path, stderr)
	}
	return func() {
		stopPeak()
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Close(); err != nil {
				fmt.Fprintf(stderr, "Warning: CPU profile %s: %v\n", cpuFile.Name(), err)
			}
		}
		if path := os.Getenv(envMemProfile); path != "" {
			runtime.GC() // so in-use figures reflect live memory, not garbage
			if err := writeHeapProfile(path, "allocs"); err != nil {
				fmt.Fprintf(stderr, "Warning: no heap profile: %s=%s: %v\n", envMemProfile, path, err)
			}
		}
	}
}

func writeHeapProfile(path, name string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// peakHeapPoll is how often the live heap is looked at. It changes only
// when a garbage collection ends, which happens far less often in a large
// run, so polling misses no peak worth keeping.
const peakHeapPoll = 20 * time.Millisecond

// watchPeakHeap writes a heap profile to path each time a garbage
// collection leaves more live heap than any before it (by 5 %, so a slowly
// growing heap is not profiled at every cycle). A heap profile's in-use
// figures are those of the last completed collection, so the file ends
// holding what was live at the largest one. It returns the function that
// stops watching.
func watchPeakHeap(path string, stderr io.Writer) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		var largest uint64
		ticker := time.NewTicker(peakHeapPoll)
		defer ticker.Stop()
		for {
			metrics.Read(sample)
			if live := sample[0].Value.Uint64(); live > largest+largest/20 {
				largest = live
				if err := writeHeapProfile(path, "heap"); err != nil {
					fmt.Fprintf(stderr, "Warning: no peak heap profile: %s=%s: %v\n", envPeakMemProfile, path, err)
					return
				}
			}
			select {
			case <-done:
				return
			case <-ticker.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
