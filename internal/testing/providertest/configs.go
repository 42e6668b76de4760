package providertest

import "fmt"

// NullRandomConfig is a configuration of n instances on the test providers
// shaped like the public null and random providers' most used resources,
// each configured as those usually are, with a name and nothing read from
// another resource: n/2 tpsdk_widget (an SDKv2 provider on protocol 5 with
// a handful of attributes, like null_resource, whose refresh reports empty
// collections where the record holds null) and n - n/2 tpf_thing (a
// terraform-plugin-framework provider on protocol 6 filling in computed
// attributes, like random_id). Both providers keep their objects under
// cloud. Benchmarks and memory measurements share it, so their figures
// describe the same workload.
func NullRandomConfig(cloud string, n int) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    tpsdk = { source = "registry.terraform.io/terrane/tpsdk" }
    tpf   = { source = "registry.terraform.io/terrane/tpf" }
  }
}

provider "tpsdk" {
  root_dir = %[1]q
}

provider "tpf" {
  root_dir = %[1]q
}

resource "tpsdk_widget" "null_like" {
  count = %[2]d
  name  = "null-${count.index}"
}

resource "tpf_thing" "random_like" {
  count = %[3]d
  name  = "random-${count.index}"
}
`, cloud, n/2, n-n/2)
}
