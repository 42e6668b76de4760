// Command terraform-provider-tpf5 serves the framework test provider on
// plugin protocol 5 (resource types tpf5_*).
package main

import (
	"flag"
	"log"

	"github.com/terrane/terrane/internal/testproviders/tpf"
)

func main() {
	debug := flag.Bool("debug", false, "run with support for debuggers (prints TF_REATTACH_PROVIDERS)")
	flag.Parse()
	if err := tpf.Serve(tpf.Protocol5, *debug); err != nil {
		log.Fatal(err)
	}
}
