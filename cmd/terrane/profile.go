package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// Environment variables naming files to write Go profiles of one run into,
// for finding where a slow or large run spends its time and memory:
// TERRANE_CPUPROFILE gets a CPU profile of the whole command and
// TERRANE_MEMPROFILE a heap profile (allocations and what was still in use)
// taken when the command finishes.
const (
	envCPUProfile = "TERRANE_CPUPROFILE"
	envMemProfile = "TERRANE_MEMPROFILE"
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
	return func() {
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Close(); err != nil {
				fmt.Fprintf(stderr, "Warning: CPU profile %s: %v\n", cpuFile.Name(), err)
			}
		}
		if path := os.Getenv(envMemProfile); path != "" {
			if err := writeHeapProfile(path); err != nil {
				fmt.Fprintf(stderr, "Warning: no heap profile: %s=%s: %v\n", envMemProfile, path, err)
			}
		}
	}
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC() // so in-use figures reflect live memory, not garbage
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
