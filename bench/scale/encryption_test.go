package scale

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/terrane/terrane/bench/benchenv"
)

// encryptionBlock is state and plan encryption as a user moving from
// OpenTofu would have it: pbkdf2 with OpenTofu's defaults (600,000
// iterations of SHA-512) and aes_gcm, enforced.
const encryptionBlock = `terraform {
  encryption {
    key_provider "pbkdf2" "main" {
      passphrase = "a benchmark passphrase, long enough"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
    state {
      method   = method.aes_gcm.main
      enforced = true
    }
    plan {
      method   = method.aes_gcm.main
      enforced = true
    }
  }
}
`

// encryptionCases are the runs the encryption benchmark compares: every
// one reads the state, the applies write every record, the saved plan is
// written and read as a plan file.
var encryptionCases = []scaleCase{
	{name: "apply", args: []string{"apply", "-auto-approve", "-no-color"}},
	{name: "plan-refresh=false", args: []string{"plan", "-refresh=false", "-no-color"}, wantOutput: noChanges},
	{name: "plan", args: []string{"plan", "-no-color"}, wantOutput: noChanges},
	{name: "plan-out", args: []string{"plan", "-refresh=false", "-no-color", "-var", "first_size=2", "-out=tfplan"}, wantOutput: oneChange},
	{name: "apply-planfile", args: []string{"apply", "-no-color", "tfplan"}},
	{name: "destroy", args: []string{"destroy", "-auto-approve", "-no-color", "-var", "first_size=2"}},
}

// BenchmarkEncryption runs the same cycle on the independent shape with
// and without state and plan encryption, at each size in
// TERRANE_SCALE_SIZES (default 2000), and prints each run's wall time, CPU
// time and peak memory beside the unencrypted run's:
//
//	go test -run '^$' -bench Encryption -benchtime 1x -timeout 30m ./bench/scale
func BenchmarkEncryption(b *testing.B) {
	sizes := benchenv.Sizes(b, "TERRANE_SCALE_SIZES", 2000)
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for range b.N {
				plain := runEncryptionCycle(b, n, false)
				encrypted := runEncryptionCycle(b, n, true)
				for i, c := range encryptionCases {
					p, e := plain[i], encrypted[i]
					b.ReportMetric(e.wall.Seconds()/p.wall.Seconds(), c.name+"-ratio")
					fmt.Printf("| %d | %s | %.2f | %.2f | %.2f× | %.2f | %.2f | %.0f | %.0f |\n", n, c.name,
						p.wall.Seconds(), e.wall.Seconds(), e.wall.Seconds()/p.wall.Seconds(),
						(p.cpu - p.providerCPU).Seconds(), (e.cpu - e.providerCPU).Seconds(),
						float64(p.terranePeakKiB)/1024, float64(e.terranePeakKiB)/1024)
				}
			}
		})
	}
}

// runEncryptionCycle runs encryptionCases in a fresh project of n
// independent instances and returns each run's usage.
func runEncryptionCycle(b *testing.B, n int, encrypt bool) []usage {
	env := benchenv.Get(b)
	project := filepath.Join(b.TempDir(), "project")
	cloud := b.TempDir()
	if err := writeIndependent(project, cloud, n); err != nil {
		b.Fatal(err)
	}
	if encrypt {
		if err := writeFile(filepath.Join(project, "encryption.tf"), encryptionBlock); err != nil {
			b.Fatal(err)
		}
	}
	if _, out, err := runMeasured(env.Binary, project, env.Vars, "init", "-no-color"); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	var usages []usage
	for _, c := range encryptionCases {
		u, out, err := runMeasured(env.Binary, project, env.Vars, c.args...)
		if err != nil {
			b.Fatalf("%s (encrypted %v): %v\n%s", c.name, encrypt, err, tail(out, 4000))
		}
		if c.wantOutput != "" && !strings.Contains(out, c.wantOutput) {
			b.Fatalf("%s: output lacks %q:\n%s", c.name, c.wantOutput, tail(out, 4000))
		}
		usages = append(usages, u)
	}
	if encrypt {
		checkNothingPlain(b, project)
	}
	return usages
}

// checkNothingPlain fails the benchmark if the encrypted run left an
// instance's attributes readable in the store: a benchmark of encryption
// that does not encrypt measures nothing.
func checkNothingPlain(b *testing.B, project string) {
	paths, _ := filepath.Glob(filepath.Join(project, ".terrane", "state.db*"))
	for _, path := range append(paths, filepath.Join(project, "tfplan")) {
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if strings.Contains(string(data), `"name":"w-1"`) {
			b.Fatalf("%s holds instance attributes in clear", path)
		}
	}
}
