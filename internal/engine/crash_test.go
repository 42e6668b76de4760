package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/zclconf/go-cty/cty"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/config"
	"github.com/terrane/terrane/internal/engine"
	"github.com/terrane/terrane/internal/engine/journal"
	"github.com/terrane/terrane/internal/plugin"
	"github.com/terrane/terrane/internal/providers"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/states/recordstore"
	"github.com/terrane/terrane/internal/store/sqlite"
	"github.com/terrane/terrane/internal/testing/providertest"
)

// The crash test re-executes its own binary as the apply process; these
// variables tell the child what to do.
const (
	envCrashChild  = "TERRANE_CRASH_CHILD"
	envCrashDir    = "TERRANE_CRASH_DIR"
	envCrashRound  = "TERRANE_CRASH_ROUND"
	envCrashMirror = "TERRANE_CRASH_MIRROR"
)

// crashInstances is how many tpf_thing instances the configuration has at
// most; rounds alternate between all of them and fewer, so runs create,
// update and delete.
const crashInstances = 48

// TestApplySurvivesSIGKILL kills the apply process at random points, many
// times. After each kill the store must open cleanly, every provider call
// that finished must be recorded or its intent resolvable, every interrupted
// create must be reported by address with its planned value, and no
// interrupted update or delete may be lost: reading back must find it.
func TestApplySurvivesSIGKILL(t *testing.T) {
	if os.Getenv(envCrashChild) != "" {
		runCrashChild(t)
		return
	}
	if testing.Short() {
		t.Skip("kills and restarts real apply processes")
	}
	mirror := providertest.Build(t)
	dir := t.TempDir()
	rounds := 16
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	var interruptedCreates, resolved int
	for round := range rounds {
		killAfter := time.Duration(rng.IntN(600)) * time.Millisecond
		killed := runAndKill(t, mirror, dir, round, killAfter)
		outcome := checkAfterCrash(t, mirror, dir)
		interruptedCreates += outcome.mayExist
		resolved += outcome.resolved
		t.Logf("round %d: kill %s into the apply (killed before it finished: %t); %d intents resolved by reading back, %d creates reported",
			round, killAfter, killed, outcome.resolved, outcome.mayExist)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d rounds: %d interrupted operations read back, %d interrupted creates reported", rounds, resolved, interruptedCreates)
}

// crashConfig is round's configuration: the count and description change
// from round to round so each apply creates, updates and deletes.
func crashConfig(cloud string, round int) string {
	count := crashInstances
	if round%3 == 2 {
		count = crashInstances / 2
	}
	return fmt.Sprintf(`
terraform {
  required_providers {
    tpf = { source = "registry.terraform.io/terrane/tpf" }
  }
}
provider "tpf" {
  root_dir = %q
}
resource "tpf_thing" "n" {
  count       = %d
  name        = "n-${count.index}"
  description = "round %d"
}
`, cloud, count, round)
}

func crashStorePath(dir string) string { return filepath.Join(dir, "state.db") }
func crashCloud(dir string) string     { return filepath.Join(dir, "cloud") }

// runAndKill starts the apply process for round and kills it, with every
// provider it started, killAfter into its apply, unless it finished first.
// It reports whether it killed it.
func runAndKill(t *testing.T, mirror *providertest.Mirror, dir string, round int, killAfter time.Duration) bool {
	t.Helper()
	marker := applyMarker(dir)
	_ = os.Remove(marker)
	cmd := exec.Command(os.Args[0], "-test.run=^TestApplySurvivesSIGKILL$", "-test.v")
	cmd.Env = append(os.Environ(), envCrashChild+"=1", envCrashDir+"="+dir, envCrashMirror+"="+mirror.Dir,
		fmt.Sprintf("%s=%d", envCrashRound, round))
	// Its own process group, so the kill reaches the providers it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	finished := func(err error) bool {
		if err != nil {
			t.Fatalf("round %d: the apply failed on its own: %v\n%s", round, err, out.String())
		}
		return false
	}
	// Planning is not what is under test: wait for the apply to begin.
	for deadline := time.Now().Add(2 * time.Minute); ; {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		select {
		case err := <-done:
			return finished(err)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			t.Fatalf("round %d: the apply never began\n%s", round, out.String())
		}
	}
	select {
	case err := <-done:
		return finished(err)
	case <-time.After(killAfter):
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done // reaped: its pid no longer names a live process
		return true
	}
}

func applyMarker(dir string) string { return filepath.Join(dir, "applying") }

// runCrashChild is the apply process: plan and apply the round's
// configuration against the shared store.
func runCrashChild(t *testing.T) {
	dir := os.Getenv(envCrashDir)
	var round int
	fmt.Sscan(os.Getenv(envCrashRound), &round)
	configDir := filepath.Join(dir, "config")
	if err := os.MkdirAll(configDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(configDir, "main.tf"), []byte(crashConfig(crashCloud(dir), round)), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, loadDiags := config.LoadConfigDir(configDir)
	if loadDiags.HasErrors() {
		t.Fatal(loadDiags.Error())
	}
	st := openCrashStore(t, dir)
	factories := map[addrs.Provider]providers.Factory{}
	provider, path := tpfFromMirror(t, os.Getenv(envCrashMirror))
	factories[provider] = func(ctx context.Context) (providers.Interface, error) {
		return plugin.Launch(ctx, plugin.Config{Provider: provider, Path: path, Logger: hclog.NewNullLogger()})
	}
	e, ds := engine.New(engine.Options{Config: cfg, Providers: factories, State: st, RunID: fmt.Sprintf("crash-round-%d", round), Parallelism: 10})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	defer e.Close()
	plan, ds := e.Plan(t.Context(), engine.PlanOpts{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if err := os.WriteFile(applyMarker(dir), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if ds := e.Apply(t.Context(), plan); ds.HasErrors() {
		t.Fatal(ds.Err())
	}
}

// tpfFromMirror finds the tpf provider in the mirror directory the parent
// built, without building again.
func tpfFromMirror(t *testing.T, mirrorDir string) (addrs.Provider, string) {
	t.Helper()
	provider, err := addrs.ParseProviderSource(providertest.Hostname + "/" + providertest.Namespace + "/tpf")
	if err != nil {
		t.Fatal(err)
	}
	matches, _ := filepath.Glob(filepath.Join(mirrorDir, providertest.Hostname, providertest.Namespace, "tpf", providertest.Version, "*", "terraform-provider-tpf*"))
	if len(matches) != 1 {
		t.Fatalf("tpf not found in mirror %s", mirrorDir)
	}
	return provider, matches[0]
}

func openCrashStore(t *testing.T, dir string) *recordstore.Store {
	t.Helper()
	backend, err := sqlite.Open(crashStorePath(dir), sqlite.Options{})
	if err != nil {
		t.Fatalf("the store does not open after the crash: %v", err)
	}
	t.Cleanup(func() { _ = backend.Close() })
	registry := resourceservice.NewRegistry()
	if err := records.Register(registry); err != nil {
		t.Fatal(err)
	}
	return recordstore.New(resourceservice.New(backend, registry), "proj", "default")
}

type crashOutcome struct{ resolved, mayExist int }

// checkAfterCrash opens the store the killed process left, recovers its
// open intents through a fresh provider and compares the records with the
// provider's cloud. Interrupted creates are then resolved as a user would:
// the object is deleted from the cloud and forgotten (terrane state rm).
func checkAfterCrash(t *testing.T, mirror *providertest.Mirror, dir string) crashOutcome {
	t.Helper()
	ctx := t.Context()
	st := openCrashStore(t, dir)
	snap, err := st.Load(ctx)
	if err != nil {
		t.Fatalf("the state does not load after the crash: %v", err)
	}
	open := map[string]states.IntentOperation{}
	for _, entry := range snap.State.AllResourceInstances() {
		if entry.Instance.Intent != nil {
			open[entry.Addr.String()] = entry.Instance.Intent.Operation
		}
	}
	reader, closeProvider := crashReader(t, mirror, dir)
	defer closeProvider()
	j := journal.New(st, journal.Options{RunID: "crash-check"})
	defer j.Close()
	recovery, ds := j.Recover(ctx, snap, journal.RecoverOptions{Reader: reader, Claims: journal.ClaimRule{OwnRunID: "crash-check"}})
	if ds.HasErrors() {
		t.Fatalf("recovery failed: %v", ds.Err())
	}
	if len(recovery.Claimed) != 0 {
		t.Errorf("intents of the killed process were taken for a live run's: %v", recovery.Claimed)
	}
	reported := map[string]bool{}
	for _, d := range ds {
		if d.Summary == "Create may have happened" && strings.Contains(d.Detail, `name = "n-`) {
			reported[d.Address] = true
		}
	}
	for _, addr := range recovery.MayExist {
		if !reported[addr.String()] {
			t.Errorf("interrupted create of %s not reported with its planned value", addr)
		}
	}
	for addr, op := range open {
		if op != states.IntentCreate && !contains(recovery.Resolved, addr) && !contains(recovery.MayExist, addr) {
			t.Errorf("interrupted %s of %s was neither read back nor reported", op, addr)
		}
	}
	compareWithCloud(t, snap, recovery, crashCloud(dir))
	forgetInterruptedCreates(t, j, snap, recovery, crashCloud(dir))
	return crashOutcome{resolved: len(recovery.Resolved), mayExist: len(recovery.MayExist)}
}

// compareWithCloud checks that every object in the cloud is recorded as it
// is there, or is an interrupted create reported by address, and that every
// recorded object exists in the cloud as recorded.
func compareWithCloud(t *testing.T, snap *recordstore.Snapshot, recovery *journal.Recovery, cloud string) {
	t.Helper()
	files := cloudObjects(t, cloud)
	recordedIDs := map[string]bool{}
	for _, entry := range snap.State.AllResourceInstances() {
		cur := entry.Instance.Current
		if cur == nil || entry.Instance.Intent != nil {
			continue
		}
		var attrs map[string]any
		if err := json.Unmarshal(cur.AttrsJSON, &attrs); err != nil {
			t.Fatal(err)
		}
		id, _ := attrs["id"].(string)
		recordedIDs[id] = true
		remote, ok := files[id]
		switch {
		case !ok:
			t.Errorf("%s is recorded with object %s, which the cloud does not have", entry.Addr, id)
		case remote["description"] != attrs["description"] || remote["name"] != attrs["name"]:
			t.Errorf("%s is recorded as %v/%v, the cloud has %v/%v: a finished call's result was lost",
				entry.Addr, attrs["name"], attrs["description"], remote["name"], remote["description"])
		}
	}
	for id, remote := range files {
		if recordedIDs[id] {
			continue
		}
		name, _ := remote["name"].(string)
		addr := "tpf_thing.n[" + strings.TrimPrefix(name, "n-") + "]"
		if !contains(recovery.MayExist, addr) {
			t.Errorf("the cloud has object %s (%s) that no record holds and no report names: it would be forgotten", id, name)
		}
	}
}

// forgetInterruptedCreates resolves the reported creates as a user would
// with `terrane state rm` after deleting the stray objects by hand.
func forgetInterruptedCreates(t *testing.T, j *journal.Journal, snap *recordstore.Snapshot, recovery *journal.Recovery, cloud string) {
	t.Helper()
	files := cloudObjects(t, cloud)
	for _, addr := range recovery.MayExist {
		name := "n-" + strings.TrimSuffix(strings.TrimPrefix(addr.String(), "tpf_thing.n["), "]")
		for id, remote := range files {
			if remote["name"] == name && !recordedID(snap, id) {
				_ = os.Remove(filepath.Join(cloud, "tpf_thing", id+".json"))
			}
		}
		var prior *recordstore.RecordVersion
		if v, ok := snap.InstanceVersions[addr.String()]; ok {
			prior = &v
		}
		inst := snap.State.ResourceInstance(addr).DeepCopy()
		inst.Intent = nil
		if _, err := j.Write(t.Context(), recordstore.InstanceChange{Addr: addr, ProviderConfig: snap.State.Resource(addr.ContainingResource()).ProviderConfig, Instance: inst, Prior: prior}); err != nil {
			t.Fatal(err)
		}
	}
}

func recordedID(snap *recordstore.Snapshot, id string) bool {
	for _, entry := range snap.State.AllResourceInstances() {
		for _, obj := range append([]*states.ResourceInstanceObjectSrc{entry.Instance.Current}, deposedObjects(entry.Instance)...) {
			if obj != nil && strings.Contains(string(obj.AttrsJSON), `"id":"`+id+`"`) {
				return true
			}
		}
	}
	return false
}

func deposedObjects(inst *states.ResourceInstance) []*states.ResourceInstanceObjectSrc {
	var out []*states.ResourceInstanceObjectSrc
	for _, obj := range inst.Deposed {
		out = append(out, obj)
	}
	return out
}

// cloudObjects reads the provider's cloud: object id → its stored state.
func cloudObjects(t *testing.T, cloud string) map[string]map[string]any {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(cloud, "tpf_thing", "*.json"))
	out := map[string]map[string]any{}
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			t.Fatalf("cloud file %s: %v", path, err)
		}
		out[strings.TrimSuffix(filepath.Base(path), ".json")] = obj
	}
	return out
}

// crashReader launches and configures tpf to read objects back.
func crashReader(t *testing.T, mirror *providertest.Mirror, dir string) (*journal.ProviderReader, func()) {
	t.Helper()
	ctx := t.Context()
	provider, err := addrs.ParseProviderSource(mirror.Source("tpf"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := plugin.Launch(ctx, plugin.Config{Provider: provider, Path: mirror.Executable("tpf"), Logger: hclog.NewNullLogger()})
	if err != nil {
		t.Fatal(err)
	}
	schemaResp := p.GetProviderSchema(ctx)
	identities := p.GetResourceIdentitySchemas(ctx)
	cfgVals := map[string]cty.Value{}
	for name, attr := range schemaResp.Provider.Block.Attributes {
		cfgVals[name] = cty.NullVal(attr.ImpliedType())
	}
	cfgVals["root_dir"] = cty.StringVal(crashCloud(dir))
	if resp := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{TerraformVersion: "1.9.0", Config: cty.ObjectVal(cfgVals)}); resp.Diagnostics.HasErrors() {
		t.Fatal(resp.Diagnostics.Err())
	}
	providerConfig := addrs.AbsProviderConfig{Provider: provider}
	return &journal.ProviderReader{
		Providers: map[string]providers.Interface{providerConfig.String(): p},
		Schemas: &providers.Schemas{
			Providers:  map[addrs.Provider]providers.GetProviderSchemaResponse{provider: schemaResp},
			Identities: map[addrs.Provider]providers.GetResourceIdentitySchemasResponse{provider: identities},
		},
	}, func() { p.Close() }
}

func contains(list []addrs.AbsResourceInstance, addr string) bool {
	for _, a := range list {
		if a.String() == addr {
			return true
		}
	}
	return false
}
