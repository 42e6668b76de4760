package procstat

import (
	"os"
	"testing"
)

func TestPeakRSSGrowsWithAllocation(t *testing.T) {
	before, ok := PeakRSSKiB(os.Getpid())
	if !ok {
		t.Skip("no /proc on this system")
	}
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	after, ok := PeakRSSKiB(os.Getpid())
	if !ok || after < before+32<<10 {
		t.Errorf("peak RSS went from %d KiB to %d KiB after touching 64 MiB", before, after)
	}
	if _, ok := PeakRSSKiB(-1); ok {
		t.Error("a process that does not exist has a peak")
	}
	_ = buf[len(buf)-1]
}
