package plugin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/logging"
	"github.com/terrane/terrane/internal/plugin/grpcprovider"
	"github.com/terrane/terrane/internal/providers"
)

// DefaultStartTimeout is how long a provider may take to print its handshake.
const DefaultStartTimeout = time.Minute

// Config says which provider to start and how.
type Config struct {
	// Provider is the provider's source address: it names the provider in
	// messages and logs and selects its TF_REATTACH_PROVIDERS entry.
	Provider addrs.Provider
	// Path is the provider executable. It is not started when
	// TF_REATTACH_PROVIDERS names the provider.
	Path string
	// Env is added to the process's environment.
	Env []string
	// Logger receives Terrane's messages about the provider and the
	// provider's own log; its level also decides how much the provider
	// logs. Default: logging.Named("provider").
	Logger hclog.Logger
	// Schemas, if set, supplies and caches schemas by executable hash.
	Schemas      *SchemaStore
	StartTimeout time.Duration
}

// Provider is a running provider process (or a reattached one).
type Provider struct {
	*grpcprovider.Provider
	client          *goplugin.Client
	tail            *stderrTail
	calls           *callLog
	protocolVersion int
}

var _ providers.Interface = (*Provider)(nil)

// ProtocolVersion is the plugin protocol major version in use (5 or 6).
func (p *Provider) ProtocolVersion() int { return p.protocolVersion }

// PID is the provider's process ID.
func (p *Provider) PID() int {
	if rc := p.client.ReattachConfig(); rc != nil {
		return rc.Pid
	}
	return 0
}

// CallCount is how many times the RPC named rpc (protocol 5 or 6 name, such
// as "GetProviderSchema" or "GetSchema") was sent to this process.
func (p *Provider) CallCount(rpc string) int { return p.calls.count(rpc) }

// StderrTail is the end of what the provider wrote to stderr.
func (p *Provider) StderrTail() string { return p.tail.String() }

// WaitExited waits up to d for the process to end and reports whether it has.
func (p *Provider) WaitExited(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if p.client.Exited() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Launch starts the provider (or attaches to it) and returns it connected.
// The caller must Close it. A failure is an error wrapping diagnostics that
// name the provider and say what to do.
func Launch(ctx context.Context, cfg Config) (*Provider, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := filepath.Base(cfg.Path)
	if !cfg.Provider.IsZero() {
		name = cfg.Provider.String()
	}
	if cfg.Logger == nil {
		cfg.Logger = logging.Named("provider")
	}
	logger := cfg.Logger.Named(name)
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}

	p := &Provider{tail: &stderrTail{}, calls: newCallLog(logger)}
	clientConfig := &goplugin.ClientConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: versionedPlugins(),
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		Logger:           logger,
		StartTimeout:     cfg.StartTimeout,
		GRPCDialOptions:  []grpc.DialOption{grpc.WithChainUnaryInterceptor(p.calls.interceptor)},
		Stderr:           p.tail,
		SyncStderr:       p.tail,
		SyncStdout:       logWriter{logger},
	}
	reattach, problems := reattachFor(cfg.Provider)
	if problems.HasErrors() {
		return nil, problems.Err()
	}
	if reattach != nil {
		rc, err := reattach.goPlugin()
		if err != nil {
			return nil, diags.Diagnostics{diags.Errorf("Invalid "+EnvReattachProviders,
				"The entry for %s in %s is not usable: %s.", name, EnvReattachProviders, err)}.Err()
		}
		clientConfig.Reattach = rc
		// go-plugin skips negotiation when reattaching: the entry says
		// which protocol the provider speaks.
		clientConfig.Plugins = versionedPlugins()[rc.ProtocolVersion]
		if clientConfig.Plugins == nil {
			return nil, diags.Diagnostics{startFailure(name, EnvReattachProviders,
				fmt.Errorf("incompatible API version with plugin. Plugin version: %d", rc.ProtocolVersion), "")}.Err()
		}
		logger.Info("attaching to a provider started by hand", "address", rc.Addr, "pid", rc.Pid)
	} else {
		cmd := exec.Command(cfg.Path)
		// The whole environment is given here (SkipHostEnv), so the log
		// variables Terrane sets win over ones left in the user's shell.
		cmd.Env = append(logging.WithProviderEnv(os.Environ(), logger.GetLevel()), cfg.Env...)
		clientConfig.Cmd = cmd
		clientConfig.SkipHostEnv = true
		clientConfig.AutoMTLS = true
	}

	p.client = goplugin.NewClient(clientConfig)
	started.add(p.client)
	wire, err := p.connect()
	if err != nil {
		started.kill(p.client)
		return nil, diags.Diagnostics{startFailure(name, cfg.Path, err, p.tail.String())}.Err()
	}

	adapterConfig := grpcprovider.Config{
		Name:    name,
		Client:  wire,
		Process: p,
		Close:   func() error { started.kill(p.client); return nil },
		Logger:  logger,
	}
	if cfg.Schemas != nil && reattach == nil {
		hash, known := cfg.Schemas.lookup(cfg.Path, logger)
		adapterConfig.Schema = known
		if hash != "" {
			adapterConfig.SchemaFetched = cfg.Schemas.fetched(hash, logger)
		}
	}
	p.Provider = grpcprovider.New(adapterConfig)
	return p, nil
}

// connect completes the handshake and returns the client for the protocol
// version the provider chose.
func (p *Provider) connect() (grpcprovider.Client, error) {
	rpcClient, err := p.client.Client()
	if err != nil {
		return nil, err
	}
	raw, err := rpcClient.Dispense(providerPluginName)
	if err != nil {
		return nil, err
	}
	conn, ok := raw.(*grpc.ClientConn)
	if !ok {
		return nil, fmt.Errorf("the plugin did not offer a gRPC connection")
	}
	p.protocolVersion = p.client.NegotiatedVersion()
	if rc := p.client.ReattachConfig(); p.protocolVersion == 0 && rc != nil {
		p.protocolVersion = rc.ProtocolVersion
	}
	switch p.protocolVersion {
	case 5:
		return grpcprovider.NewProtocol5Client(conn), nil
	case 6:
		return grpcprovider.NewProtocol6Client(conn), nil
	default:
		return nil, fmt.Errorf("incompatible API version with plugin. Plugin version: %d", p.protocolVersion)
	}
}

// KillAll ends every provider process Launch started that is still running.
// Commands call it on the way out (also after an interrupt), so no provider
// outlives Terrane even when a Close was missed.
func KillAll() { started.killAll() }

// started are the provider clients Launch made that are not killed yet.
// go-plugin's own list of managed clients only ever grows, which a
// long-running serve reconciling workspaces for weeks cannot afford.
var started = &clientSet{clients: map[*goplugin.Client]bool{}}

type clientSet struct {
	mu      sync.Mutex
	clients map[*goplugin.Client]bool
}

func (s *clientSet) add(c *goplugin.Client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clients[c] = true
}

func (s *clientSet) kill(c *goplugin.Client) {
	c.Kill()
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.clients, c)
}

func (s *clientSet) killAll() {
	s.mu.Lock()
	clients := make([]*goplugin.Client, 0, len(s.clients))
	for c := range s.clients {
		clients = append(clients, c)
	}
	s.mu.Unlock()
	for _, c := range clients {
		s.kill(c)
	}
}

// logWriter sends what a provider prints on stdout to the debug log: the
// handshake is over by then, and anything else there is chatter.
type logWriter struct{ logger hclog.Logger }

func (w logWriter) Write(p []byte) (int, error) {
	w.logger.Debug(string(p))
	return len(p), nil
}
