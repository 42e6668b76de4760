package sqlite_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/sqlite"
	"github.com/terrane/terrane/proto/pbresource"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

const (
	crashDBEnv    = "TERRANE_SQLITE_CRASH_DB"
	crashStartEnv = "TERRANE_SQLITE_CRASH_START"
	opsPerBatch   = 20
)

var crashTenancy = &pbresource.Tenancy{Partition: "proj", Namespace: "default"}
var crashType = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"}

// TestCrashChild is the writer process of TestCrashSafety; it does nothing
// unless started by it.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashDBEnv)
	if path == "" {
		t.Skip("run by TestCrashSafety as its writer process")
	}
	start, _ := strconv.Atoi(os.Getenv(crashStartEnv))
	b, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		fmt.Println("open failed:", err)
		os.Exit(2)
	}
	payload, _ := anypb.New(wrapperspb.String(strings.Repeat("x", 1024)))
	for batch := start; ; batch++ {
		ops := make([]store.Op, 0, opsPerBatch)
		for k := range opsPerBatch {
			name := fmt.Sprintf("batch-%d-%d", batch, k)
			ops = append(ops, store.Op{Kind: store.OpWrite, Resource: &pbresource.Resource{
				Id: &pbresource.ID{Type: crashType, Tenancy: crashTenancy, Name: name, Uid: name}, Data: payload}})
		}
		if _, err := b.Batch(context.Background(), ops); err != nil {
			fmt.Println("batch failed:", err)
			os.Exit(2)
		}
		// Acknowledged only once Batch has returned: from here the batch
		// must survive anything.
		fmt.Printf("ack %d\n", batch)
	}
}

// TestCrashSafety kills a writer process at random moments and checks that
// every batch it acknowledged is stored whole, no batch is stored in part,
// and the database stays intact.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a writer process 25 times")
	}
	path := filepath.Join(t.TempDir(), "state.db")
	acknowledged := map[int]bool{}
	for iteration := range 25 {
		for _, batch := range runAndKill(t, path, iteration*1_000_000, time.Duration(rand.IntN(150))*time.Millisecond) {
			acknowledged[batch] = true
		}
		checkIntegrity(t, path)
	}
	if len(acknowledged) == 0 {
		t.Fatal("the writer never acknowledged a batch; nothing was tested")
	}
	stored := storedBatches(t, path)
	for batch := range acknowledged {
		if stored[batch] != opsPerBatch {
			t.Errorf("acknowledged batch %d has %d of %d records after a crash", batch, stored[batch], opsPerBatch)
		}
	}
	for batch, count := range stored {
		if count != opsPerBatch {
			t.Errorf("batch %d is half-applied: %d of %d records", batch, count, opsPerBatch)
		}
	}
	t.Logf("%d batches acknowledged over 25 kills, %d stored", len(acknowledged), len(stored))
}

// runAndKill starts the writer, SIGKILLs it delay after its first
// acknowledgement (so the kill lands while it is writing, not while it
// starts), and returns the batches it acknowledged.
func runAndKill(t *testing.T, path string, start int, delay time.Duration) []int {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), crashDBEnv+"="+path, crashStartEnv+"="+strconv.Itoa(start))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acks, writing := make(chan []int), make(chan struct{})
	go func() {
		var batches []int
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			if batch, ok := strings.CutPrefix(scanner.Text(), "ack "); ok {
				n, _ := strconv.Atoi(batch)
				batches = append(batches, n)
				if len(batches) == 1 {
					close(writing)
				}
			} else if strings.Contains(scanner.Text(), "failed") {
				t.Errorf("writer: %s", scanner.Text())
			}
		}
		acks <- batches
	}()
	select {
	case <-writing:
	case <-time.After(20 * time.Second):
		t.Error("the writer acknowledged no batch within 20s")
	}
	time.Sleep(delay)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	batches := <-acks
	_ = cmd.Wait()
	return batches
}

func checkIntegrity(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var result string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&result); err != nil || result != "ok" {
		t.Fatalf("integrity_check after a crash: %q, %v", result, err)
	}
}

func storedBatches(t *testing.T, path string) map[int]int {
	b, err := sqlite.Open(path, sqlite.Options{})
	if err != nil {
		t.Fatalf("reopening after crashes: %v", err)
	}
	defer b.Close()
	listed, err := b.List(context.Background(), store.StrongConsistency, crashType, crashTenancy, "batch-")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[int]int{}
	for _, res := range listed {
		parts := strings.Split(res.GetId().GetName(), "-")
		batch, _ := strconv.Atoi(parts[1])
		counts[batch]++
	}
	return counts
}

// TestWatchAcrossProcesses watches while a separate writer process commits
// batches: every acknowledged record must reach the watch once, in commit
// order, with no batch interleaved with another.
func TestWatchAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	watcher := openAt(t, path, sqlite.Options{PollInterval: 10 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w, err := watcher.WatchList(ctx, crashType, crashTenancy, "batch-")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if ev, err := w.Next(ctx); err != nil || ev.Kind != store.EventEndOfSnapshot {
		t.Fatalf("first event %v, %v; want EndOfSnapshot", ev.Kind, err)
	}
	acked := runAndKill(t, path, 0, 300*time.Millisecond)
	if len(acked) == 0 {
		t.Fatal("the writer acknowledged nothing")
	}
	seen := map[string]bool{}
	lastBatch := -1
	for count := 0; count < len(acked)*opsPerBatch; count++ {
		ev, err := w.Next(ctx)
		if err != nil {
			t.Fatalf("after %d of %d events: %v", count, len(acked)*opsPerBatch, err)
		}
		name := ev.Resource.GetId().GetName()
		batch, _ := strconv.Atoi(strings.Split(name, "-")[1])
		if seen[name] || batch < lastBatch {
			t.Fatalf("event %s repeated or out of order (after batch %d)", name, lastBatch)
		}
		if count%opsPerBatch == 0 {
			lastBatch = batch
		} else if batch != lastBatch {
			t.Fatalf("event %s interleaves batch %d", name, lastBatch)
		}
		seen[name] = true
	}
}
