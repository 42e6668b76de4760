package scale

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/terrane/terrane/bench/benchenv"
	"github.com/terrane/terrane/internal/store/etcd/etcdtest"
	"github.com/terrane/terrane/internal/testing/procstat"
	"github.com/terrane/terrane/internal/testing/sharedstore"
)

// storeCases are the stores BenchmarkStores measures, the embedded one
// first: the others are compared with it.
var storeCases = []struct {
	name  string
	start func(b *testing.B, binary string, server *etcdtest.Server) *sharedstore.Store
}{
	{"embedded", func(*testing.B, string, *etcdtest.Server) *sharedstore.Store { return nil }},
	{"etcd", func(_ *testing.B, _ string, server *etcdtest.Server) *sharedstore.Store {
		return sharedstore.EtcdOn(server)
	}},
	{"serve-tls-sqlite", func(b *testing.B, binary string, _ *etcdtest.Server) *sharedstore.Store {
		return sharedstore.Serve(b, binary, "sqlite://"+filepath.Join(b.TempDir(), "served.db"))
	}},
	{"serve-tls-etcd", func(b *testing.B, binary string, server *etcdtest.Server) *sharedstore.Store {
		return sharedstore.Serve(b, binary, "etcd://"+strings.TrimPrefix(server.Endpoint, "http://"))
	}},
}

// storeCycle is what BenchmarkStores runs on each store.
var storeCycle = []struct {
	name, wantOutput string
	args             []string
}{
	{name: "apply", args: []string{"apply", "-auto-approve", "-no-color"}},
	{name: "plan", args: []string{"plan", "-no-color"}, wantOutput: noChanges},
	{name: "destroy", args: []string{"destroy", "-auto-approve", "-no-color"}},
}

// BenchmarkStores applies, plans and destroys TERRANE_STORES_SIZE (default
// 2,000) independent instances with the state in the embedded store, in a
// local etcd, and in a local terrane serve over TLS fronting SQLite and
// fronting etcd, and prints each case's wall time beside the embedded
// store's, with Terrane's CPU and peak memory and the store server's.
//
//	go test -run '^$' -bench Stores -benchtime 1x -timeout 30m ./bench/scale
func BenchmarkStores(b *testing.B) {
	env := benchenv.Get(b)
	n := 2000
	if spec := os.Getenv("TERRANE_STORES_SIZE"); spec != "" {
		var err error
		if n, err = strconv.Atoi(spec); err != nil || n < 1 {
			b.Fatalf("TERRANE_STORES_SIZE=%q is not an instance count", spec)
		}
	}
	server := etcdtest.Start(b)
	embedded := map[string]time.Duration{}
	fmt.Printf("| store | instances | case | wall (s) | × embedded | Terrane CPU (s) | Terrane peak (MiB) | server CPU (s) | server peak (MiB) |\n")
	fmt.Printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, sc := range storeCases {
		b.Run(sc.name, func(b *testing.B) {
			for range b.N {
				store := sc.start(b, env.Binary, server)
				runStoreCycle(b, env, sc.name, store, server, n, embedded)
			}
		})
	}
}

func runStoreCycle(b *testing.B, env benchenv.Env, name string, store *sharedstore.Store, server *etcdtest.Server, n int, embedded map[string]time.Duration) {
	project := filepath.Join(b.TempDir(), "project")
	if err := writeIndependent(project, b.TempDir(), n); err != nil {
		b.Fatal(err)
	}
	vars := env.Vars
	serverPid := 0
	if store != nil {
		vars = append(vars[:len(vars):len(vars)], store.Env...)
		serverPid = server.Pid()
		if store.Serve != nil {
			serverPid = store.Serve.Pid()
		}
	}
	if _, out, err := runMeasured(env.Binary, project, vars, "init", "-no-color"); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	for _, c := range storeCycle {
		serverBefore, _ := procstat.ProcessCPU(serverPid)
		u, out, err := runMeasured(env.Binary, project, vars, c.args...)
		if err != nil {
			b.Fatal(err)
		}
		if c.wantOutput != "" && !strings.Contains(out, c.wantOutput) {
			b.Fatalf("%s on %s: output lacks %q:\n%s", c.name, name, c.wantOutput, tail(out, 4000))
		}
		serverAfter, _ := procstat.ProcessCPU(serverPid)
		serverPeak, _ := procstat.PeakRSSKiB(serverPid)
		ratio := "1.00×"
		if name == "embedded" {
			embedded[c.name] = u.wall
		} else if base := embedded[c.name]; base > 0 {
			ratio = fmt.Sprintf("%.2f×", u.wall.Seconds()/base.Seconds())
			b.ReportMetric(u.wall.Seconds()/base.Seconds(), c.name+"-ratio")
		}
		b.ReportMetric(u.wall.Seconds(), c.name+"-s")
		serverCPU, serverMiB := "—", "—"
		if serverPid != 0 {
			serverCPU, serverMiB = fmt.Sprintf("%.2f", (serverAfter-serverBefore).Seconds()), fmt.Sprintf("%.0f", float64(serverPeak)/1024)
		}
		fmt.Printf("| %s | %d | %s | %.2f | %s | %.2f | %.0f | %s | %s |\n", name, n, c.name, u.wall.Seconds(), ratio,
			(u.cpu - u.providerCPU).Seconds(), float64(u.terranePeakKiB)/1024, serverCPU, serverMiB)
	}
}
