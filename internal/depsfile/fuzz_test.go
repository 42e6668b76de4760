package depsfile

import "testing"

// FuzzParseLockFile parses arbitrary bytes as a dependency lock file: the
// result is locks or diagnostics, never a panic.
func FuzzParseLockFile(f *testing.F) {
	f.Add([]byte(sampleLockFile))
	f.Add([]byte("provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2.1\"\n  hashes = [\"h1:abc=\"]\n}\n"))
	f.Add([]byte("provider \"x\" {}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		locks, ds := Parse(src, FileName)
		if locks == nil && !ds.HasErrors() {
			t.Fatal("parsing gave neither locks nor an error")
		}
	})
}
