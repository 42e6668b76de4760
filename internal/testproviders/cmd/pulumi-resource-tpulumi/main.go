// Command pulumi-resource-tpulumi serves the Pulumi test provider (package
// tpulumi): started with the engine's address, it prints its port on stdout.
package main

import (
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/testproviders/pulumi"
)

func main() {
	if err := pulumi.Serve(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
