// Command terraform-provider-tpf serves the framework test provider on
// plugin protocol 6 (resource types tpf_*).
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
	err := providerserver.Serve(context.Background(), tpf.New(tpf.Protocol6, "0.1.0"), providerserver.ServeOpts{
		Address:         "registry.terraform.io/terrane/tpf",
		Debug:           *debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}
