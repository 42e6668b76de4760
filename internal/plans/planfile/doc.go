// Package planfile reads and writes plan files: zip archives holding the
// plan ("tfplan", the tfplan protobuf), the configuration it was made from
// ("tfconfig/", every file of every module and a modules.json manifest),
// the state records it read with their Generations ("priorrecords") and the
// dependency lock file (".terraform.lock.hcl").
//
// The layout and the tfplan entry are those of Terraform and OpenTofu plan
// files, so Open also reads plans those tools wrote.
package planfile
