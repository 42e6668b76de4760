package e2etest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/testing/clitest"
	"github.com/terrane/terrane/internal/testing/procstat"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// TestServeReturnsWatchMemory floods a serve process with WatchList
// streams, closes them, and checks that its resident memory falls back:
// what the streams held is returned to the operating system once they end.
func TestServeReturnsWatchMemory(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts a serve process and opens thousands of streams")
	}
	const connections, perConnection = 20, 100
	// The binary is built without the race detector, whose shadow memory
	// would not be returned to the system.
	cmd := newBareProject(t).commandOf(plainTerraneBinary(t), "serve", "-listen", "127.0.0.1:0", "-backend", "sqlite://"+filepath.Join(t.TempDir(), "state.db"),
		"-token", "s3cret", "-max-watches-per-connection", fmt.Sprint(perConnection), "-max-watches-per-token", fmt.Sprint(connections*perConnection))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("serve did not start: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	match := regexp.MustCompile(`serving \S+ on (\S+)`).FindStringSubmatch(line)
	if match == nil {
		t.Fatalf("serve printed %q, not the address it serves on", line)
	}
	addr := match[1]
	service, _ := clitest.RemoteService(t, addr, "s3cret")
	for i := range 20 {
		clitest.WriteRecord(t, service, records.WorkspaceID("proj", fmt.Sprintf("ws%d", i)), nil, &recordsv1.Workspace{})
	}
	rss := func() int64 {
		kib, ok := procstat.RSSKiB(cmd.Process.Pid)
		if !ok {
			t.Skip("/proc does not report the process's memory here")
		}
		return kib
	}
	warm := clitest.DialWatchClient(t, addr, "s3cret")
	for range 5 {
		cancel, err := warm.Open()
		if err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	time.Sleep(time.Second)
	baseline := rss()
	var clients []*clitest.WatchClient
	var cancels []context.CancelFunc
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range connections {
		c := clitest.DialWatchClient(t, addr, "s3cret")
		clients = append(clients, c)
		wg.Go(func() {
			for range perConnection {
				cancel, err := c.Open()
				if err != nil {
					t.Errorf("opening a watch: %v", err)
					return
				}
				mu.Lock()
				cancels = append(cancels, cancel)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	flooded := rss()
	for _, cancel := range cancels {
		cancel()
	}
	for _, c := range clients {
		_ = c.Conn.Close()
	}
	allowed := baseline + max(8<<10, (flooded-baseline)/4)
	deadline := time.Now().Add(30 * time.Second)
	after := rss()
	for after > allowed && time.Now().Before(deadline) {
		time.Sleep(250 * time.Millisecond)
		after = rss()
	}
	t.Logf("serve RSS: %d MiB before, %d MiB with %d watches open, %d MiB after they ended", baseline>>10, flooded>>10, len(cancels), after>>10)
	if after > allowed {
		t.Errorf("serve kept %d MiB after its %d watches ended (%d MiB before them, %d MiB with them open)", after>>10, len(cancels), baseline>>10, flooded>>10)
	}
}
