// Command terraform-provider-tpf serves the framework test provider on
// plugin protocol 6 (resource types tpf_*).
package main

import (
	"flag"
	"log"

	"github.com/terrane/terrane/internal/testproviders/tpf"
)

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers (prints TF_REATTACH_PROVIDERS)")
	flag.Parse()
	if err := tpf.Serve(tpf.Protocol6, *debug); err != nil {
		log.Fatal(err)
	}
}
