package arguments

import (
	"strings"
	"testing"

	"github.com/terrane/terrane/internal/resourceservice"
)

func TestParseServe(t *testing.T) {
	t.Parallel()
	defaults := Serve{Listen: "127.0.0.1:8502", Backend: "sqlite://.terrane/state.db",
		Watches:      resourceservice.WatchLimits{PerToken: resourceservice.DefaultWatchesPerToken, PerConnection: resourceservice.DefaultWatchesPerConnection},
		ControlPlane: ControlPlane{UIListen: "127.0.0.1:8503"}}
	options := Serve{Listen: "0.0.0.0:1", Backend: "etcd://h:2379", Tokens: []string{"a", "b@p/w"}, TLSCert: "c.pem", TLSKey: "k.pem", Insecure: true,
		Watches:      resourceservice.WatchLimits{PerToken: 3, PerConnection: 2},
		ControlPlane: ControlPlane{Reconcile: "r.hcl", UI: true, UIListen: "127.0.0.1:9"}}
	runParseCases(t, []parseCase{
		{name: "options", parse: parseWith(ParseServe, "-listen=0.0.0.0:1", "-backend=etcd://h:2379", "-token=a", "-token", "b@p/w",
			"-tls-cert=c.pem", "-tls-key=k.pem", "-insecure", "-max-watches-per-token=3", "-max-watches-per-connection=2",
			"-reconcile=r.hcl", "-ui", "-ui-listen=127.0.0.1:9"), want: &options},
		{name: "bad number", parse: parseWith(ParseServe, "-max-watches-per-token=x"),
			diags: []string{`Failed to parse command-line flags: invalid value "x" for flag -max-watches-per-token: parse error`}},
	})
	// The environment is read only without -token; t.Setenv would stop
	// the parallel tests, so the defaults are checked where it is unset.
	t.Run("defaults", func(t *testing.T) {
		t.Parallel()
		serve, ds := ParseServe(nil)
		if ds.HasErrors() {
			t.Fatal(ds.Err())
		}
		serve.Tokens = nil
		if serve.FlagOutput != "" || serve.Listen != defaults.Listen || serve.Backend != defaults.Backend || serve.Watches != defaults.Watches || serve.ControlPlane != defaults.ControlPlane || serve.Insecure {
			t.Errorf("defaults: %+v", serve)
		}
	})
}

// TestServeFlagOutput checks that a refused command line keeps what the
// flag package writes, which serve, watch and status print: the error,
// then the usage of every flag under the command's name.
func TestServeFlagOutput(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		name  string
		parse func([]string) (string, bool)
		args  []string
		want  []string
	}{
		{"serve", serveOutput, []string{"-bogus"}, []string{"flag provided but not defined: -bogus\nUsage of serve:\n", "  -token value\n", "  -ui-listen string\n"}},
		{"serve help", serveOutput, []string{"-help"}, []string{"Usage of serve:\n", "(default \"127.0.0.1:8502\")"}},
		{"watch", watchOutput, []string{"-type"}, []string{"flag needs an argument: -type\nUsage of watch:\n", "  -address terrane serve\n", "  -tenancy string\n"}},
		{"status", statusOutput, []string{"--h"}, []string{"Usage of status:\n", "  -workspace string\n", "  -no-color\n"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			t.Parallel()
			output, failed := test.parse(test.args)
			if !failed {
				t.Fatalf("%v accepted", test.args)
			}
			for _, want := range test.want {
				if !strings.Contains(output, want) {
					t.Errorf("output does not hold %q:\n%s", want, output)
				}
			}
			if !strings.HasPrefix(output, test.want[0]) {
				t.Errorf("output does not start with %q:\n%s", test.want[0], output)
			}
		})
	}
}

func serveOutput(args []string) (string, bool) {
	serve, ds := ParseServe(args)
	return serve.FlagOutput, ds.HasErrors()
}

func watchOutput(args []string) (string, bool) {
	watch, ds := ParseWatch(args)
	return watch.FlagOutput, ds.HasErrors()
}

func statusOutput(args []string) (string, bool) {
	status, ds := ParseStatus(args)
	return status.FlagOutput, ds.HasErrors()
}

func TestParseWatchAndStatus(t *testing.T) {
	t.Parallel()
	store := WatchStore{Address: "h:1", Backend: "sqlite://x.db", Token: "t", TLSCA: "ca.pem"}
	storeArgs := []string{"-address=h:1", "-backend=sqlite://x.db", "-token=t", "-tls-ca=ca.pem"}
	runParseCases(t, []parseCase{
		{name: "watch", parse: parseWith(ParseWatch, append(append([]string{"-type=Output", "-tenancy=p/w", "-prefix=a.", "-json"}, storeArgs...), "ignored")...),
			want: &Watch{WatchStore: store, Type: "Output", Tenancy: "p/w", Prefix: "a.", JSON: true}},
		{name: "status", parse: parseWith(ParseStatus, append(append([]string{"-workspace=w", "-json", "-no-color"}, storeArgs...), "a.b")...),
			want: &Status{WatchStore: store, Workspace: "w", JSON: true, Address: "a.b"}},
		{name: "status two addresses", parse: parseWith(ParseStatus, "a", "b"),
			diags: []string{`Too many command line arguments: status takes at most one resource address, got "a b"`}},
	})
	t.Run("watch defaults", func(t *testing.T) {
		t.Parallel()
		watch, ds := ParseWatch(nil)
		if ds.HasErrors() || watch.Type != "ResourceInstance" || watch.Tenancy != "*/*" || watch.Prefix != "" || watch.JSON || watch.Address != "" || watch.Backend != "" {
			t.Errorf("defaults: %+v %v", watch, ds.Err())
		}
	})
}
