// Command pulumi-resource-tpf serves the framework test provider tpf as the
// Pulumi package tpf, through Pulumi's Terraform bridge.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/testproviders/bridged"
)

func main() {
	if err := bridged.ServeTPF(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
