package plugin

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/terrane/terrane/internal/logging"
)

// syncBuffer is a bytes.Buffer safe for the log forwarding goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestProviderLogsFollowTerraneLevel: with Terrane's log off a provider
// writes nothing at all (SDK-built providers default to trace logging,
// which costs them several times their speed); at trace, the provider's
// log arrives in Terrane's log under the provider's address.
func TestProviderLogsFollowTerraneLevel(t *testing.T) {
	for _, tp := range allTestProviders {
		t.Run(tp.name, func(t *testing.T) {
			t.Setenv("TF_LOG", "trace") // left over in a user's shell; must not matter
			quiet := launchTest(t, tp, func(c *Config) { c.Logger = logging.New(logging.Options{Level: hclog.Off}) })
			exercise(t, quiet, tp)
			// go-plugin's server prints two startup lines whatever the
			// level; the SDKs' per-call logs (tagged tf_rpc) must be absent.
			if tail := quiet.StderrTail(); strings.Contains(tail, "tf_rpc") {
				t.Errorf("with Terrane's log off the provider still logged its calls:\n%s", tail)
			}

			var out syncBuffer
			loud := launchTest(t, tp, func(c *Config) { c.Logger = logging.New(logging.Options{Level: hclog.Trace, Output: &out}) })
			exercise(t, loud, tp)
			loud.Close() // flushes the forwarded log
			if !containsAll(out.String(), "terrane/"+tp.name, "tf_rpc=") {
				t.Errorf("at trace, the provider's log of the call is missing from Terrane's log:\n%.2000s", out.String())
			}
		})
	}
}

func exercise(t *testing.T, p *Provider, tp testProvider) {
	t.Helper()
	schemas := p.GetProviderSchema(context.Background())
	noErrors(t, "GetProviderSchema", schemas.Diagnostics)
	noErrors(t, "ValidateResourceConfig", p.ValidateResourceConfig(context.Background(), validateThingRequest(schemas, tp)).Diagnostics)
}
