package plugin

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	goplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/terrane/terrane/internal/diags"
)

// Handshake is what a provider process checks before it serves: the magic
// cookie every Terraform-protocol provider expects.
var Handshake = goplugin.HandshakeConfig{
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// SupportedProtocolVersions are the plugin protocol major versions Terrane
// speaks, most preferred last (go-plugin offers them all; the provider picks
// the highest it shares).
var SupportedProtocolVersions = []int{5, 6}

// providerPluginName is the name Terraform-protocol providers serve under.
const providerPluginName = "provider"

// connPlugin is a go-plugin gRPC plugin that hands out the raw connection;
// the protocol version negotiated decides which client wraps it.
type connPlugin struct {
	goplugin.NetRPCUnsupportedPlugin
}

func (connPlugin) GRPCServer(*goplugin.GRPCBroker, *grpc.Server) error {
	return fmt.Errorf("terrane does not serve providers")
}

func (connPlugin) GRPCClient(_ context.Context, _ *goplugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return conn, nil
}

func versionedPlugins() map[int]goplugin.PluginSet {
	sets := make(map[int]goplugin.PluginSet, len(SupportedProtocolVersions))
	for _, v := range SupportedProtocolVersions {
		sets[v] = goplugin.PluginSet{providerPluginName: connPlugin{}}
	}
	return sets
}

var offeredVersion = regexp.MustCompile(`Plugin version: (\d+)`)

// startFailure explains why a provider process could not be started and
// connected, naming the provider and the executable.
func startFailure(name, path string, err error, tail string) diags.Diagnostic {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "incompatible API version"):
		offered := "an unknown version"
		if m := offeredVersion.FindStringSubmatch(msg); m != nil {
			offered = "version " + m[1]
		}
		return diags.Errorf("Incompatible provider protocol",
			"The provider %s (%s) speaks plugin protocol %s; Terrane speaks protocol versions %s. Install a version of the provider built for Terraform 0.12 or later or for OpenTofu, which speak protocol 5 or 6.",
			name, path, offered, joinVersions(SupportedProtocolVersions))
	case strings.Contains(msg, "incompatible core API version"):
		return diags.Errorf("Incompatible provider plugin",
			"The provider %s (%s) was built with a plugin framework Terrane cannot talk to: %s.", name, path, msg)
	case strings.Contains(msg, "Unrecognized remote plugin message"):
		return diags.Errorf("Not a provider plugin",
			"The executable %s, installed as the provider %s, did not answer like a provider plugin: %s. Reinstall the provider (terrane init).%s",
			path, name, firstLine(msg), tailSection(tail))
	default:
		return diags.Errorf("Failed to start provider",
			"Terrane could not start the provider %s (%s): %s.%s", name, path, msg, tailSection(tail))
	}
}

func joinVersions(versions []int) string {
	parts := make([]string, len(versions))
	for i, v := range versions {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, " and ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func tailSection(tail string) string {
	tail = strings.TrimSpace(tail)
	if tail == "" {
		return ""
	}
	return "\n\nThe provider's last output:\n" + tail
}
