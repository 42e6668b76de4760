package native

import (
	"context"
	"fmt"

	"github.com/pulumi/pulumi-go-provider/infer"

	"github.com/terrane/terrane/internal/testproviders/cloud"
)

// Name and Version identify the package.
const (
	Name    = "tpnative"
	Version = "0.1.0"
)

// Config is the provider configuration.
type Config struct {
	RootDir string `pulumi:"rootDir,optional"`
}

// Annotate describes the configuration.
func (c *Config) Annotate(a infer.Annotator) {
	a.Describe(&c.RootDir, "Directory holding the cloud's objects; defaults to $"+cloud.EnvRoot+".")
}

// Serve runs the provider: started with the engine's address, it prints
// its port on stdout.
func Serve(ctx context.Context) error {
	p, err := infer.NewProviderBuilder().
		WithNamespace("terrane").
		WithConfig(infer.Config(&Config{})).
		WithResources(infer.Resource(&Record{}), infer.Resource(&Stamp{})).
		Build()
	if err != nil {
		return fmt.Errorf("tpnative: %w", err)
	}
	return p.Run(ctx, Name, Version)
}

// openCloud opens the configured cloud.
func openCloud(ctx context.Context) (*cloud.Cloud, error) {
	return cloud.Open(infer.GetConfig[Config](ctx).RootDir)
}
