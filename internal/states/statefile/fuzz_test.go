package statefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReadStateFile reads arbitrary bytes as a state v4 file: no input
// makes Read panic, and a file that reads is written and read again with
// the same instances and outputs. The seeds are the state files in
// testdata.
func FuzzReadStateFile(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.tfstate"))
	for _, path := range seeds {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Read(bytes.NewReader(src))
		if err != nil {
			return
		}
		if len(OpenIntents(file.State)) > 0 {
			t.Fatal("a state file read back with open intents, which the format cannot hold")
		}
		var out bytes.Buffer
		if err := Write(file, &out); err != nil {
			// Some readable files cannot be written back (a value Read
			// accepts that no encoder produces): that is an error, not a
			// crash.
			return
		}
		again, err := Read(&out)
		if err != nil {
			t.Fatalf("a state file Terrane wrote does not read back: %v\n%s", err, out.String())
		}
		if len(again.State.AllResourceInstances()) != len(file.State.AllResourceInstances()) || len(again.State.Outputs) != len(file.State.Outputs) {
			t.Fatalf("round trip changed the state: %d instances and %d outputs became %d and %d",
				len(file.State.AllResourceInstances()), len(file.State.Outputs), len(again.State.AllResourceInstances()), len(again.State.Outputs))
		}
	})
}
