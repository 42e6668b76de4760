//go:build linux

package workdir

import (
	"fmt"
	"io/fs"
	"syscall"
)

// fileStamp returns what identifies a file's content version beyond its
// size and modification time: its inode, device and change time.
func fileStamp(info fs.FileInfo) (string, bool) {
	stat, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d.%d", stat.Dev, stat.Ino, stat.Ctim.Sec, stat.Ctim.Nsec), true
}
