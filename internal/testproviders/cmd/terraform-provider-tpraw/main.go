// Command terraform-provider-tpraw serves the raw tfprotov6 test provider
// on plugin protocol 6 (resource type tpraw_group).
package main

import (
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/terrane/terrane/internal/testproviders/tpraw"
)

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers (prints TF_REATTACH_PROVIDERS)")
	flag.Parse()
	var opts []tf6server.ServeOpt
	if *debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err := tf6server.Serve("registry.terraform.io/terrane/tpraw", func() tfprotov6.ProviderServer { return tpraw.New() }, opts...)
	if err != nil {
		log.Fatal(err)
	}
}
