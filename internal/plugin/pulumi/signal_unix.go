//go:build !windows

package pulumi

import "syscall"

// interruptSignal asks a provider to shut down (SDK providers end on it).
var interruptSignal = syscall.SIGINT
