// Command terraform-provider-tpsdk serves the terraform-plugin-sdk/v2 test
// provider on plugin protocol 5 (resource types tpsdk_*).
package main

import (
	"flag"

	"github.com/hashicorp/terraform-plugin-sdk/v2/plugin"

	"github.com/terrane/terrane/internal/testproviders/tpsdk"
)

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers (prints TF_REATTACH_PROVIDERS)")
	flag.Parse()
	plugin.Serve(&plugin.ServeOpts{
		ProviderFunc: tpsdk.New,
		ProviderAddr: "registry.terraform.io/terrane/tpsdk",
		Debug:        *debug,
	})
}
