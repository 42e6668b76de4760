// Command pulumi-resource-tpsdk serves the SDKv2 test provider tpsdk as the
// Pulumi package tpsdk, through Pulumi's Terraform bridge.
package main

import (
	"fmt"
	"os"

	"github.com/terrane/terrane/internal/testproviders/bridged"
)

func main() {
	if err := bridged.ServeTPSDK(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
