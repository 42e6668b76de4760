//go:build unix

package journal

import (
	"errors"
	"os"
	"syscall"
)

// processExists asks the kernel whether pid names a process: signal 0
// checks without delivering anything; EPERM means it exists but belongs to
// another user. A process killed but not yet reaped by its parent still
// exists.
func processExists(pid int) bool {
	if pid == os.Getpid() {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
