package logging

import (
	"strings"

	"github.com/hashicorp/go-hclog"
)

// providerLogVariables are the variables through which the provider SDKs
// (terraform-plugin-go, -framework, -sdk/v2, all via terraform-plugin-log)
// pick their log levels. An unset variable does not mean quiet: an SDK root
// logger without a level logs at TRACE, which makes SDK-built providers
// several times slower. So every one is set, to "OFF" when Terrane keeps
// nothing.
var providerLogVariables = []string{
	"TF_LOG",                     // sdk/v2's standard-library log output and the overall default
	"TF_LOG_SDK",                 // terraform-plugin-go's SDK root logger
	"TF_LOG_SDK_PROTO",           // per-RPC protocol logs
	"TF_LOG_SDK_FRAMEWORK",       // terraform-plugin-framework
	"TF_LOG_SDK_HELPER_SCHEMA",   // terraform-plugin-sdk/v2 helper/schema
	"TF_LOG_SDK_HELPER_RESOURCE", // terraform-plugin-sdk/v2 helper/resource
	"TF_LOG_SDK_MUX",             // terraform-plugin-mux
	"TF_LOG_PROVIDER",            // the provider's own tflog calls
}

// ProviderEnv returns the environment assignments ("NAME=VALUE") to launch a
// provider with so that it logs at level (Terrane's own level): a provider
// never logs more than Terrane would keep. terraform-plugin-log reads the
// values with hclog.LevelFromString, which accepts these upper-case names.
func ProviderEnv(level hclog.Level) []string {
	value := "OFF"
	if level != hclog.Off && level != hclog.NoLevel {
		value = strings.ToUpper(level.String())
	}
	env := make([]string, 0, len(providerLogVariables))
	for _, name := range providerLogVariables {
		env = append(env, name+"="+value)
	}
	return env
}

// WithProviderEnv returns base with every provider log variable replaced by
// ProviderEnv(level): variables the user exported for Terraform (TF_LOG=trace
// left in a shell) must not make providers log what Terrane throws away.
func WithProviderEnv(base []string, level hclog.Level) []string {
	overridden := make(map[string]bool, len(providerLogVariables))
	for _, name := range providerLogVariables {
		overridden[name] = true
	}
	out := make([]string, 0, len(base)+len(providerLogVariables))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if overridden[name] || strings.HasPrefix(name, "TF_LOG_PROVIDER_") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, ProviderEnv(level)...)
}
