// Command pulumi-resource-tpnative serves the native test provider
// (package tpnative), built with pulumi-go-provider.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/testproviders/native"
)

func main() {
	if err := native.Serve(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
