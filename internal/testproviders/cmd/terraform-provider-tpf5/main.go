// Command terraform-provider-tpf5 serves the framework test provider on
// plugin protocol 5 (resource types tpf5_*).
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/terrane/terrane/internal/testproviders/tpf"
)

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers (prints TF_REATTACH_PROVIDERS)")
	flag.Parse()
	err := providerserver.Serve(context.Background(), tpf.New(tpf.Protocol5, "0.1.0"), providerserver.ServeOpts{
		Address:         "registry.terraform.io/terrane/tpf5",
		Debug:           *debug,
		ProtocolVersion: 5,
	})
	if err != nil {
		log.Fatal(err)
	}
}
