package pulumi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/terrane/terrane/internal/diags"
	"github.com/terrane/terrane/internal/logging"
)

// DefaultStartTimeout is how long a provider may take to print its port.
const DefaultStartTimeout = time.Minute

// EnvDebugProviders names providers started by hand, as Pulumi does:
// "NAME:PORT[,NAME:PORT…]". A named provider is attached, not launched.
const EnvDebugProviders = "PULUMI_DEBUG_PROVIDERS"

// Config says which Pulumi provider to start and how.
type Config struct {
	// Name is the package name (the NAME of pulumi-resource-NAME); it
	// names the provider in messages and selects its
	// PULUMI_DEBUG_PROVIDERS entry.
	Name string
	// Path is the executable.
	Path string
	// Env is added to the process's environment.
	Env []string
	// Logger receives the provider's log. Default: logging.Named("provider").
	Logger       hclog.Logger
	StartTimeout time.Duration
	// Parameters, when set, make the provider one of its sub-packages
	// right after the handshake (see Parameters).
	Parameters *Parameters
}

// Launch starts the provider (or attaches to one named in
// PULUMI_DEBUG_PROVIDERS) and returns it connected and handshaken. The
// caller must Close it. Failures are errors wrapping diagnostics that name
// the executable and carry the end of its stderr.
func Launch(ctx context.Context, cfg Config) (*Provider, error) {
	if cfg.Name == "" {
		cfg.Name = strings.TrimPrefix(filepath.Base(cfg.Path), "pulumi-resource-")
	}
	if cfg.Logger == nil {
		cfg.Logger = logging.Named("provider")
	}
	logger := cfg.Logger.Named(cfg.Name)
	if port, ok := debugPort(cfg.Name); ok {
		p, err := Attach(ctx, cfg.Name, "127.0.0.1:"+port, logger)
		if err != nil {
			return nil, err
		}
		return p, p.applyParameters(ctx, cfg.Parameters)
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	engine, err := startEngine(logger)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Cannot start the Pulumi engine service",
			"Terrane could not listen for the provider %s's callbacks: %s.", cfg.Name, err)}.Err()
	}
	p := &Provider{name: cfg.Name, logger: logger, engine: engine, tail: &lineTail{}}
	port, err := p.start(ctx, cfg, engine.Address())
	if err != nil {
		p.Close()
		return nil, diags.Diagnostics{diags.Errorf("Failed to start Pulumi provider",
			"The provider executable %s did not start: %s.%s", cfg.Path, err, tailSection(p.tail.String()))}.Err()
	}
	if err := p.dial(ctx, "127.0.0.1:"+port); err != nil {
		p.Close()
		return nil, err
	}
	return p, p.applyParameters(ctx, cfg.Parameters)
}

// applyParameters parameterizes the provider when params are given; on
// failure it closes the provider.
func (p *Provider) applyParameters(ctx context.Context, params *Parameters) error {
	if params == nil {
		return nil
	}
	if err := p.parameterize(ctx, params); err != nil {
		p.Close()
		return err
	}
	return nil
}

// Attach connects to a provider that is already running at address (one
// started by hand, for debugging) and tells it Terrane's engine address.
func Attach(ctx context.Context, name, address string, logger hclog.Logger) (*Provider, error) {
	engine, err := startEngine(logger)
	if err != nil {
		return nil, err
	}
	p := &Provider{name: name, logger: logger, engine: engine, tail: &lineTail{}}
	if err := p.dial(ctx, address); err != nil {
		p.Close()
		return nil, err
	}
	if _, err := p.client.Attach(ctx, &pulumirpc.PluginAttach{Address: engine.Address()}); err != nil {
		p.Close()
		return nil, diags.Diagnostics{p.callFailure(ctx, "Attach", "", err)}.Err()
	}
	logger.Info("attached to a provider started by hand", "address", address)
	return p, nil
}

// start runs the executable and returns the port it printed.
func (p *Provider) start(ctx context.Context, cfg Config, engineAddress string) (string, error) {
	cmd := exec.Command(cfg.Path, engineAddress)
	cmd.Env = append(os.Environ(), cfg.Env...)
	cmd.Stderr = io.MultiWriter(p.tail, logLines{p.logger})
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	p.cmd = cmd
	p.exited = make(chan struct{})
	go func() { _ = cmd.Wait(); close(p.exited) }()

	lines := make(chan string, 1)
	go func() {
		reader := bufio.NewReader(stdout)
		first, err := reader.ReadString('\n')
		if err != nil && first == "" {
			close(lines)
		} else {
			lines <- first
		}
		_, _ = io.Copy(logLines{p.logger}, reader) // later output is chatter
	}()
	timer := time.NewTimer(cfg.StartTimeout)
	defer timer.Stop()
	select {
	case line, ok := <-lines:
		if !ok {
			<-p.exited
			return "", fmt.Errorf("it ended without printing the port it listens on (%s)", cmd.ProcessState)
		}
		port := strings.TrimSpace(line)
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			p.awaitExit(time.Second) // so its stderr is all in the tail
			return "", fmt.Errorf("the first line of its output should be the port it listens on, but it printed %q", port)
		}
		return port, nil
	case <-timer.C:
		return "", fmt.Errorf("it printed no port within %s", cfg.StartTimeout)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// awaitExit waits up to d for the process to end.
func (p *Provider) awaitExit(d time.Duration) {
	select {
	case <-p.exited:
	case <-time.After(d):
	}
}

// dial connects and runs the handshake.
func (p *Provider) dial(ctx context.Context, address string) error {
	conn, err := grpc.NewClient(address, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<30)))
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to connect to Pulumi provider",
			"Terrane could not connect to the provider %s at %s: %s.", p.name, address, err)}.Err()
	}
	p.conn = conn
	p.client = pulumirpc.NewResourceProviderClient(conn)
	return p.handshake(ctx)
}

// debugPort returns the port PULUMI_DEBUG_PROVIDERS gives for name.
func debugPort(name string) (string, bool) {
	for _, entry := range strings.Split(os.Getenv(EnvDebugProviders), ",") {
		entryName, port, ok := strings.Cut(strings.TrimSpace(entry), ":")
		if ok && entryName == name {
			return port, true
		}
	}
	return "", false
}

// lineTail keeps the last lines a provider wrote to stderr for diagnostics.
type lineTail struct {
	mu    sync.Mutex
	lines []string
	part  string
}

const tailLines = 30

func (t *lineTail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	parts := strings.Split(t.part+string(b), "\n")
	t.part = parts[len(parts)-1]
	t.lines = append(t.lines, parts[:len(parts)-1]...)
	if len(t.lines) > tailLines {
		t.lines = t.lines[len(t.lines)-tailLines:]
	}
	return len(b), nil
}

func (t *lineTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(strings.Join(append(append([]string(nil), t.lines...), t.part), "\n"))
}

func tailSection(tail string) string {
	if tail == "" {
		return ""
	}
	return "\n\nThe provider's last output:\n" + tail
}

// logLines writes a provider's stray output to the debug log.
type logLines struct{ logger hclog.Logger }

func (w logLines) Write(b []byte) (int, error) {
	if text := strings.TrimSpace(string(b)); text != "" {
		w.logger.Debug(text)
	}
	return len(b), nil
}
